package org.siebog.replication;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

import org.siebog.message.MessageId;
import org.siebog.platform.Setting;

/**
 * One agent's {@link DedupWindow}s by origin, bounded: a window that has heard nothing for
 * {@link #HORIZON_MS} is given up, and beyond {@link #MAX_ORIGINS} windows so is the one heard
 * from least recently.
 *
 * <p>Why giving up a window after the horizon is safe: a window is only needed to recognise a
 * repeat, and a message is repeated only while its sender still holds it unsettled. A node sends a
 * message again only when the receiver's node left before acknowledging it, and gives up 30 s later
 * ({@code RemoteNodes}). A stateful sender's handler runs again only from its last stored save,
 * which is due about a second after the run and waits only until the run's outputs are admitted:
 * so a repeat comes within seconds of the first copy (a takeover, then a replay of at most about a
 * second). A window silent for ten minutes has seen the last of its first copies that long ago; no
 * repeat of any of them can still come. Should its origin send again (an agent quiet for a while),
 * a new window starts, with the counters it missed as a hole below the new ones.
 *
 * <p>What would break it: saves failing for longer than the horizon (the state cache unusable for
 * ten minutes) leave a sender's unsaved run, and so a replay, older than that; and a window given
 * up by the {@link #MAX_ORIGINS} bound rather than the horizon, which needs that many origins heard
 * from since, each within the horizon (logged when it happens).
 *
 * <p>Origins are agents and node boots: agents that come and go, nodes that restart, each one a
 * new origin for good, so without a bound the windows of one long-lived agent grow for ever (and
 * every saved record carries them all).
 */
final class OriginWindows {

    private static final Logger LOG = Logger.getLogger(OriginWindows.class.getName());

    /** How long a window is kept after its origin was last heard from ({@code siebog.replication.dedupe-horizon-ms}, 10 minutes). */
    static final long HORIZON_MS = Setting.DEDUPE_HORIZON_MS.longValue();

    /** Windows held at most, whatever the horizon: a bound on what a record carries (about 50 bytes each). */
    static final int MAX_ORIGINS = 4_096;

    private final LongSupplier clock;
    private final long horizon;
    private final int max;
    /**
     * By origin. A plain map, each window knowing when it was last heard from: an access-ordered
     * one relinked its entries at every admission, writing references into old objects, which the
     * garbage collector then had to refine (see {@code ReceiverCounters}).
     */
    private final HashMap<String, DedupWindow> windows = new HashMap<>();
    private boolean warned;
    /**
     * When the least recently heard window may be silent for longer than the horizon: until then an
     * admission does not look (every message is admitted here, and a look reads every window).
     * Earlier than needed once that window is heard again, which costs one look that finds nothing.
     */
    private long silentFrom = Long.MIN_VALUE;

    OriginWindows(LongSupplier clock, long horizon, int max) {
        this.clock = clock;
        this.horizon = horizon;
        this.max = max;
    }

    /** The production bounds, on the wall clock. */
    OriginWindows() {
        this(System::currentTimeMillis, HORIZON_MS, MAX_ORIGINS);
    }

    /** Copies of {@code saved}'s windows, each keeping when it was last heard from. */
    OriginWindows restore(Map<String, DedupWindow> saved) {
        saved.forEach((origin, window) -> windows.put(origin, window.copy()));
        giveUpOld(clock.getAsLong());
        return this;
    }

    boolean contains(MessageId id) {
        DedupWindow window = windows.get(id.origin());
        return window != null && window.contains(id.counter());
    }

    /** Records {@code id} as heard now; false if it was recorded before. */
    boolean add(MessageId id) {
        long now = clock.getAsLong();
        DedupWindow window = windows.get(id.origin());
        if (window == null) {
            window = new DedupWindow();
            windows.put(id.origin(), window);
        }
        boolean first = window.add(id.counter());
        window.heardAt(now);
        if (now > silentFrom || windows.size() > max) {
            giveUpOld(now);
        }
        return first;
    }

    /**
     * Gives up the windows silent past the horizon, and beyond the bound the least recently heard
     * (down to seven eighths of it, so that a flood of new origins sorts the windows once per
     * eighth, not at every admission); then notes when the next may fall silent.
     */
    private void giveUpOld(long now) {
        windows.values().removeIf(w -> now - w.heardAt() > horizon);
        if (windows.size() > max) {
            List<Map.Entry<String, DedupWindow>> byHeard = new ArrayList<>(windows.entrySet());
            byHeard.sort(Comparator.comparingLong(e -> e.getValue().heardAt()));
            List<Map.Entry<String, DedupWindow>> givenUp = byHeard.subList(0, byHeard.size() - (max - max / 8));
            if (!warned) {
                warned = true;
                String first = givenUp.get(0).getKey();
                LOG.warning(() -> "an agent has heard from more than " + max + " origins within "
                        + horizon / 1000 + " s: the least recent ones' windows (" + first
                        + " first) are given up before their horizon; a late repeat from them would be handled again");
            }
            givenUp.forEach(e -> windows.remove(e.getKey()));
        }
        long leastRecent = Long.MAX_VALUE;
        for (DedupWindow w : windows.values()) {
            leastRecent = Math.min(leastRecent, w.heardAt());
        }
        silentFrom = leastRecent == Long.MAX_VALUE ? Long.MAX_VALUE : leastRecent + horizon;
    }

    /** Copies of the windows, for a record. */
    Map<String, DedupWindow> copy() {
        Map<String, DedupWindow> copy = new HashMap<>();
        windows.forEach((origin, window) -> copy.put(origin, window.copy()));
        return copy;
    }

    int size() {
        return windows.size();
    }
}
