package org.siebog.replication;

import java.util.ArrayList;
import java.util.List;

import org.siebog.agent.AID;
import org.siebog.delivery.Envelope;
import org.siebog.message.ACLMessageJson;
import org.siebog.message.MessageId;

/**
 * The stored form of an {@link InboxSegment}: per message its agent, the agent's incarnation, its
 * inbox position, its identity and its JSON, as length-prefixed fields in one string (the caches
 * hold strings, see {@code StringCaches}).
 */
final class SegmentCodec {

    /**
     * One message read back from a segment. Its JSON is parsed only by {@link #envelope()}: a
     * takeover or a sweep reads many messages it does not replay, and parsing is most of a read.
     */
    record Entry(AID aid, long incarnation, long seq, MessageId id, String json) {

        Envelope envelope() {
            return new Envelope(id, seq, ACLMessageJson.read(json));
        }
    }

    private SegmentCodec() {
    }

    static String encode(List<LoggedMessage> messages) {
        StringBuilder out = new StringBuilder(messages.size() * 256);
        for (LoggedMessage m : messages) {
            field(out, m.aid().toString());
            field(out, Long.toString(m.incarnation()));
            field(out, Long.toString(m.seq()));
            field(out, m.id().origin());
            field(out, Long.toString(m.id().counter()));
            field(out, ACLMessageJson.write(m.message()));
        }
        return out.toString();
    }

    static List<Entry> decode(String segment) {
        List<Entry> entries = new ArrayList<>();
        int[] at = {0};
        while (at[0] < segment.length()) {
            AID aid = AID.parse(field(segment, at));
            long incarnation = Long.parseLong(field(segment, at));
            long seq = Long.parseLong(field(segment, at));
            MessageId id = new MessageId(field(segment, at), Long.parseLong(field(segment, at)));
            entries.add(new Entry(aid, incarnation, seq, id, field(segment, at)));
        }
        return entries;
    }

    private static void field(StringBuilder out, String value) {
        out.append(value.length()).append(':').append(value);
    }

    private static String field(String segment, int[] at) {
        int colon = segment.indexOf(':', at[0]);
        int length = Integer.parseInt(segment, at[0], colon, 10);
        at[0] = colon + 1 + length;
        return segment.substring(colon + 1, at[0]);
    }
}
