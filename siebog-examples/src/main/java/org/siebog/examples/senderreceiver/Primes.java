package org.siebog.examples.senderreceiver;

/** The Receiver's task: brute-force prime counting, deliberately CPU-bound. */
public final class Primes {

    private Primes() {
    }

    /** How many primes are ≤ {@code limit}, by trial division. */
    public static int countUpTo(int limit) {
        int count = 0;
        for (int n = 2; n <= limit; n++) {
            boolean prime = true;
            for (int d = 2; (long) d * d <= n; d++) {
                if (n % d == 0) {
                    prime = false;
                    break;
                }
            }
            if (prime) {
                count++;
            }
        }
        return count;
    }
}
