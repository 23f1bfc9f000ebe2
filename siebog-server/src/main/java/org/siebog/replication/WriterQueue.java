package org.siebog.replication;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * What many threads hand to one writer thread: adding never locks, and while items keep coming the
 * writer is not woken for them at all.
 *
 * <p>The inbox log had a {@code LinkedBlockingQueue}. Its writer takes all that waits at once and
 * is quick, so under load it went back to sleep after nearly every message and the next message's
 * add had to wake it: a futex call per message, 5% of a loaded node's CPU in the lanes' appends
 * and as much again in the writer's waits. Here a writer that took something lately naps for
 * {@link #NAP_NANOS} and looks again, unasked; only one that found nothing for
 * {@link #STAY_AWAKE_NANOS} sleeps until an add wakes it (the first add after it fell asleep, and
 * only that one). A message waits at most a nap longer to be written, and an idle node's writer
 * sleeps.
 *
 * @param <T> what is queued
 */
final class WriterQueue<T> {

    /** How long a busy writer waits before it looks again. */
    static final long NAP_NANOS = 50_000;
    /** How long after its last item the writer naps rather than sleeps. */
    static final long STAY_AWAKE_NANOS = 250_000;

    private final ConcurrentLinkedQueue<T> items = new ConcurrentLinkedQueue<>();
    /** The writer while it sleeps (or is about to), else null; the adder that takes it out wakes it. */
    private final AtomicReference<Thread> sleeping = new AtomicReference<>();
    /** When the writer last took something (its own field: only the writer reads and writes it). */
    private long lastTaken = System.nanoTime();

    void add(T item) {
        items.add(item);
        // After the add: a writer going to sleep looks at the queue after saying so, so one of the
        // two sees the other (both are volatile accesses) and no item waits for a writer asleep.
        Thread writer = sleeping.get();
        if (writer != null && sleeping.compareAndSet(writer, null)) {
            LockSupport.unpark(writer);
        }
    }

    /**
     * For the one writer thread: waits until something is queued, then moves it and what follows
     * into {@code batch}, up to {@code max} items.
     *
     * @throws InterruptedException the writer was interrupted while it waited
     */
    void takeInto(List<T> batch, int max) throws InterruptedException {
        T next;
        while ((next = items.poll()) == null) {
            if (System.nanoTime() - lastTaken < STAY_AWAKE_NANOS) {
                LockSupport.parkNanos(this, NAP_NANOS);
            } else {
                sleeping.set(Thread.currentThread());
                if (items.isEmpty()) {
                    LockSupport.park(this);
                }
                sleeping.set(null);
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
        batch.add(next);
        while (batch.size() < max && (next = items.poll()) != null) {
            batch.add(next);
        }
        lastTaken = System.nanoTime();
    }
}
