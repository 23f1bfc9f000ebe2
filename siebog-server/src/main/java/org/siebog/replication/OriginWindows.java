package org.siebog.replication;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
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
     * By origin, least recently heard from first: in access order, so the one look-up that finds an
     * origin's window also moves it to the end (a {@link #contains} just before its {@link #add}
     * moves it early, which changes nothing).
     */
    private final LinkedHashMap<String, DedupWindow> windows = new LinkedHashMap<>(16, 0.75f, true);
    private boolean warned;
    /**
     * When the least recently heard window may be silent for longer than the horizon: until then an
     * admission does not look (every message is admitted here, and the look cost an iterator each).
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

    /** Copies of {@code saved}'s windows, in the order they were last heard from. */
    OriginWindows restore(Map<String, DedupWindow> saved) {
        List<Map.Entry<String, DedupWindow>> byHeard = new ArrayList<>(saved.entrySet());
        byHeard.sort(Comparator.comparingLong(e -> e.getValue().heardAt()));
        byHeard.forEach(e -> windows.put(e.getKey(), e.getValue().copy()));
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
        DedupWindow window = windows.computeIfAbsent(id.origin(), origin -> new DedupWindow());
        boolean first = window.add(id.counter());
        window.heardAt(now);
        if (now > silentFrom || windows.size() > max) {
            giveUpOld(now);
        }
        return first;
    }

    private void giveUpOld(long now) {
        for (Iterator<Map.Entry<String, DedupWindow>> eldest = windows.entrySet().iterator(); eldest.hasNext();) {
            Map.Entry<String, DedupWindow> e = eldest.next();
            boolean silent = now - e.getValue().heardAt() > horizon;
            if (!silent && windows.size() <= max) {
                silentFrom = e.getValue().heardAt() + horizon;
                return;
            }
            if (!silent && !warned) {
                warned = true;
                LOG.warning(() -> "an agent has heard from more than " + max + " origins within "
                        + horizon / 1000 + " s: the least recent one's window (" + e.getKey()
                        + ") is given up before its horizon; a late repeat from it would be handled again");
            }
            eldest.remove();
        }
        silentFrom = Long.MAX_VALUE;
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
