package org.siebog.delivery;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One thread running the mailboxes of the agents placed on it, first come first served.
 *
 * <p>Why not a work-stealing pool: a pair of agents messaging each other stays on the worker that
 * first ran it (each post lands in that worker's own deque), and a busy worker never steals, so a
 * few agents can take a whole core while thousands share the other. Lanes are fair by
 * construction: agents are spread over lanes evenly and each lane serves its ready mailboxes in
 * turn, each for at most the mailbox's throughput. There is still no central queue: a poster puts
 * a ready mailbox straight onto the lane of its agent.
 */
final class Lane implements Executor, Runnable {

    private static final Logger LOG = Logger.getLogger(Lane.class.getName());
    /** Polls of an empty queue before parking: a message usually arrives within microseconds under load. */
    private static final int SPINS = 200;

    /** How long a held lane waits before it looks at its {@link #open} again. */
    private static final long HELD_NANOS = 10_000_000;

    private final Queue<Runnable> ready = new ConcurrentLinkedQueue<>();
    /** Whether agents may run now: not while the node may not act for them ({@code NodeLease}); their mailboxes wait. */
    private final BooleanSupplier open;
    private volatile Thread thread;
    private volatile boolean parked;
    private volatile boolean running = true;

    Lane(BooleanSupplier open) {
        this.open = open;
    }

    /** True while agents may handle messages: a mailbox looks before each one. */
    boolean open() {
        return open.getAsBoolean();
    }

    /** Schedules a ready mailbox (or any short task) on this lane. */
    @Override
    public void execute(Runnable mailbox) {
        ready.offer(mailbox);
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    void start(Thread worker) {
        thread = worker;
        worker.start();
    }

    void stop() {
        running = false;
        LockSupport.unpark(thread);
    }

    @Override
    public void run() {
        int idle = 0;
        while (running) {
            if (!open.getAsBoolean()) {
                LockSupport.parkNanos(this, HELD_NANOS);
                continue;
            }
            Runnable next = ready.poll();
            if (next != null) {
                idle = 0;
                runSafely(next);
            } else if (++idle < SPINS) {
                Thread.onSpinWait();
            } else {
                parked = true;
                // Re-check after announcing the park: a poster that missed "parked" has already enqueued.
                if (ready.isEmpty() && running) {
                    LockSupport.park(this);
                }
                parked = false;
                idle = 0;
            }
        }
    }

    private static void runSafely(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            LOG.log(Level.SEVERE, "a task on an agent lane failed", e);
            if (e instanceof VirtualMachineError) {
                throw e;
            }
        }
    }
}
