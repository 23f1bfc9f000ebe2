package org.siebog.replication;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.siebog.agent.AID;
import org.siebog.delivery.Envelope;

/**
 * Every message in the inbox log at one moment, by agent: read once when nodes have left, so that
 * taking over many agents costs one pass over the log, not one per agent. Complete for a departed
 * node's agents once the view without it is in: only the node hosting an agent logs messages to it.
 */
public final class InboxSnapshot {

    private final Map<AID, Map<Long, SegmentCodec.Entry>> byAgent = new HashMap<>();

    InboxSnapshot(Iterable<String> segments) {
        for (String segment : segments) {
            for (SegmentCodec.Entry e : SegmentCodec.decode(segment)) {
                byAgent.computeIfAbsent(e.aid(), a -> new HashMap<>()).put(e.envelope().seq(), e);
            }
        }
    }

    /** The logged messages of this incarnation of {@code aid} after {@code handledSeq}, in order, up to the first position never written. */
    List<Envelope> pending(AID aid, long incarnation, long handledSeq) {
        Map<Long, SegmentCodec.Entry> logged = byAgent.getOrDefault(aid, Map.of());
        List<Envelope> pending = new ArrayList<>();
        for (long seq = handledSeq + 1;; seq++) {
            SegmentCodec.Entry e = logged.get(seq);
            if (e == null || e.incarnation() != incarnation) {
                return pending;
            }
            pending.add(e.envelope());
        }
    }
}
