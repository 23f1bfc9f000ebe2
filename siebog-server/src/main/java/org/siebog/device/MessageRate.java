package org.siebog.device;

/**
 * A device's messages per second (the console's Devices view): those it sent and those it acknowledged
 * (one ack per message delivered to it), counted in windows of {@link #WINDOW_MS} on the clock, the rate
 * being the last whole window's count. A window in which nothing came counts as none, so an idle device
 * falls to 0 within two windows.
 */
final class MessageRate {

    static final long WINDOW_MS = 5_000;

    private long window = Long.MIN_VALUE; // the current window's start; guarded by this, like the counts
    private int inWindow;
    private int lastWindow;

    synchronized void count(long nowMillis) {
        roll(nowMillis);
        inWindow++;
    }

    synchronized double perSecond(long nowMillis) {
        roll(nowMillis);
        return lastWindow * 1_000.0 / WINDOW_MS;
    }

    private void roll(long nowMillis) {
        long start = nowMillis - Math.floorMod(nowMillis, WINDOW_MS);
        if (start != window) {
            lastWindow = start - window == WINDOW_MS ? inWindow : 0; // a window that passed unseen had nothing
            inWindow = 0;
            window = start;
        }
    }
}
