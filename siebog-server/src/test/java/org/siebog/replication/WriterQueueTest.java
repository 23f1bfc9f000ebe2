package org.siebog.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

/** Many adders, one writer: everything added is taken, in each adder's order, and a sleeping writer always wakes. */
class WriterQueueTest {

    @Test
    void theWriterTakesWhatWaitsUpToItsBatch() throws Exception {
        WriterQueue<Integer> queue = new WriterQueue<>();
        for (int i = 0; i < 5; i++) {
            queue.add(i);
        }
        List<Integer> batch = new ArrayList<>();
        queue.takeInto(batch, 3);
        assertEquals(List.of(0, 1, 2), batch);
        batch.clear();
        queue.takeInto(batch, 3);
        assertEquals(List.of(3, 4), batch);
    }

    @Test
    void aSleepingWriterWakesForEveryAddOfFourThreads() {
        // Added in bursts with pauses, so the writer goes to sleep over and over between them; a
        // lost wake-up would leave the last items untaken and the test stuck until its guard.
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            WriterQueue<long[]> queue = new WriterQueue<>();
            int adders = 4;
            int each = 20_000;
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int a = 0; a < adders; a++) {
                int adder = a;
                Thread t = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < each; i++) {
                        queue.add(new long[] {adder, i});
                        if (i % 500 == 0) {
                            Thread.onSpinWait();
                            Thread.yield();
                        }
                    }
                });
                t.start();
                threads.add(t);
            }
            start.countDown();
            long[] nextOf = new long[adders];
            List<long[]> batch = new ArrayList<>();
            for (int taken = 0; taken < adders * each; taken += batch.size()) {
                batch.clear();
                queue.takeInto(batch, 1024);
                for (long[] item : batch) {
                    assertEquals(nextOf[(int) item[0]]++, item[1], "adder " + item[0] + "'s items in its order");
                }
            }
            for (Thread t : threads) {
                t.join();
            }
        });
    }

    @Test
    void anInterruptedWriterStopsWaiting() {
        WriterQueue<String> queue = new WriterQueue<>();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> queue.takeInto(new ArrayList<>(), 10));
    }
}
