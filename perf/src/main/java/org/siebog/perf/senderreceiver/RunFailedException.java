package org.siebog.perf.senderreceiver;

/** One system could not measure one configuration; the benchmark reports it and goes on. */
public class RunFailedException extends Exception {

    public RunFailedException(String message) {
        super(message);
    }
}
