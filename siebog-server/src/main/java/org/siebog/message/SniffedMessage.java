package org.siebog.message;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;

/**
 * A copy of one message as a node admitted it for one of its receivers, for a sniffer.
 *
 * @param node     the node that admitted it (where {@code receiver} or its proxy is)
 * @param at       when, in milliseconds since the epoch (that node's clock)
 * @param receiver the receiver it was admitted for (a message to three receivers is three copies)
 * @param message  the message; its content cut to {@link #MAX_CONTENT_CHARS} when longer
 * @param recent   admitted before the watch began: one of the node's recent messages
 * @param missed   copies this watch did not get from that node since the last one, over its rate bound
 */
public record SniffedMessage(String node, long at, AID receiver, ACLMessage message, boolean recent, int missed) {

    /** A copy shows this much of a content: enough to read, never megabytes per copy. */
    public static final int MAX_CONTENT_CHARS = 4096;

    public SniffedMessage {
        message = shortened(message);
    }

    public SniffedMessage asRecent() {
        return recent ? this : new SniffedMessage(node, at, receiver, message, true, missed);
    }

    public SniffedMessage missing(int missedBefore) {
        return missedBefore == missed ? this : new SniffedMessage(node, at, receiver, message, recent, missedBefore);
    }

    /**
     * The message itself when it is small, else a copy that keeps every field but cut short: the content to
     * {@link #MAX_CONTENT_CHARS}, each other text to {@link #MAX_FIELD_CHARS}, the receivers to the first
     * {@link #MAX_RECEIVERS}, no user properties. A node keeps its recent copies, so each is bounded in size.
     */
    public static ACLMessage shortened(ACLMessage message) {
        String content = message.content();
        if ((content == null || content.length() <= MAX_CONTENT_CHARS) && message.envelopeChars() <= MAX_CONTENT_CHARS) {
            return message;
        }
        ACLMessage.Builder copy = ACLMessage.builder(message.performative()).sender(message.sender())
                .replyTo(message.replyTo()).language(cut(message.language(), MAX_FIELD_CHARS))
                .encoding(cut(message.encoding(), MAX_FIELD_CHARS)).ontology(cut(message.ontology(), MAX_FIELD_CHARS))
                .protocol(cut(message.protocol(), MAX_FIELD_CHARS)).conversationId(cut(message.conversationId(), MAX_FIELD_CHARS))
                .replyWith(cut(message.replyWith(), MAX_FIELD_CHARS)).inReplyTo(cut(message.inReplyTo(), MAX_FIELD_CHARS))
                .replyBy(message.replyBy()).content(cut(content, MAX_CONTENT_CHARS));
        message.receivers().stream().limit(MAX_RECEIVERS).forEach(copy::receiver);
        return copy.build();
    }

    private static final int MAX_FIELD_CHARS = 512;
    private static final int MAX_RECEIVERS = 16;

    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max) + "… (" + text.length() + " characters)";
    }
}
