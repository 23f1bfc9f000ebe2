package org.siebog.message;

import java.io.Serializable;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

import org.siebog.agent.AID;

/**
 * A FIPA ACL message. Immutable, so the same instance can be handed from agent to agent on one
 * node without copying or serialising it.
 *
 * <p>Build one with {@link #builder(Performative)}, answer one with {@link #reply(Performative)}.
 * {@code userProperties} are kept sorted by key: that is the canonical JSON form shared with the
 * JavaScript library.
 */
public record ACLMessage(
        Performative performative,
        AID sender,
        List<AID> receivers,
        AID replyTo,
        String content,
        String language,
        String encoding,
        String ontology,
        String protocol,
        String conversationId,
        String replyWith,
        String inReplyTo,
        Instant replyBy,
        SortedMap<String, String> userProperties) implements Serializable {

    public ACLMessage {
        Objects.requireNonNull(performative, "a message needs a performative");
        // A receiver named twice gets the message once, as FIPA's receiver set means.
        receivers = receivers == null ? List.of()
                : receivers.size() <= 1 ? List.copyOf(receivers)
                : List.copyOf(new LinkedHashSet<>(receivers));
        userProperties = userProperties == null || userProperties.isEmpty()
                ? Collections.emptySortedMap()
                : Collections.unmodifiableSortedMap(new TreeMap<>(userProperties));
    }

    public static Builder builder(Performative performative) {
        return new Builder(performative);
    }

    /**
     * Starts the answer to this message: addressed to {@code replyTo} (or the sender), in the same
     * conversation, protocol, language, encoding and ontology, and in reply to {@code replyWith}.
     */
    public Builder reply(Performative performative) {
        AID to = replyTo != null ? replyTo : sender;
        Builder reply = new Builder(performative)
                .conversationId(conversationId)
                .inReplyTo(replyWith)
                .protocol(protocol)
                .language(language)
                .encoding(encoding)
                .ontology(ontology);
        return to == null ? reply : reply.receiver(to);
    }

    /** This message with other receivers: one message fanned out to several agents keeps its content. */
    public ACLMessage withReceivers(List<AID> newReceivers) {
        return new ACLMessage(performative, sender, newReceivers, replyTo, content, language, encoding, ontology,
                protocol, conversationId, replyWith, inReplyTo, replyBy, userProperties);
    }

    /** This message with another sender. */
    public ACLMessage withSender(AID newSender) {
        return new ACLMessage(performative, newSender, receivers, replyTo, content, language, encoding, ontology,
                protocol, conversationId, replyWith, inReplyTo, replyBy, userProperties);
    }

    /** This message with answers going to {@code newReplyTo} instead of the sender. */
    public ACLMessage withReplyTo(AID newReplyTo) {
        return new ACLMessage(performative, sender, receivers, newReplyTo, content, language, encoding, ontology,
                protocol, conversationId, replyWith, inReplyTo, replyBy, userProperties);
    }

    public String userProperty(String key) {
        return userProperties.get(key);
    }

    /**
     * The characters this message holds outside its content: every other field, the AIDs and the
     * user properties (what {@code siebog.message.max-envelope-chars} bounds). A length per field,
     * no text is scanned: cheap enough for every message a node routes.
     */
    public long envelopeChars() {
        long chars = aidChars(sender) + aidChars(replyTo) + chars(language) + chars(encoding) + chars(ontology)
                + chars(protocol) + chars(conversationId) + chars(replyWith) + chars(inReplyTo);
        for (AID receiver : receivers) {
            chars += aidChars(receiver);
        }
        for (Map.Entry<String, String> property : userProperties.entrySet()) {
            chars += chars(property.getKey()) + chars(property.getValue());
        }
        return chars;
    }

    /**
     * What holding this message costs a node, estimated from its lengths alone: 2 bytes a character
     * (a Java string at most; its UTF-8 on the wire is no more than 3 for the rare character outside
     * Latin-1) plus the objects around them. The bounds on what callers can make a node hold count
     * in this unit.
     */
    public long estimatedBytes() {
        return OVERHEAD_BYTES + 2 * (envelopeChars() + chars(content));
    }

    /** The record, its lists, the AIDs and the envelope a node keeps it in. */
    private static final long OVERHEAD_BYTES = 512;

    private static int chars(String text) {
        return text == null ? 0 : text.length();
    }

    private static int aidChars(AID aid) {
        return aid == null ? 0 : aid.name().length() + 1 + aid.platform().length();
    }

    /** Collects the fields of a message; {@link #build()} may be called more than once. */
    public static final class Builder {
        private final Performative performative;
        private AID sender;
        private final java.util.ArrayList<AID> receivers = new java.util.ArrayList<>(1);
        private AID replyTo;
        private String content;
        private String language;
        private String encoding;
        private String ontology;
        private String protocol;
        private String conversationId;
        private String replyWith;
        private String inReplyTo;
        private Instant replyBy;
        private final TreeMap<String, String> userProperties = new TreeMap<>();

        private Builder(Performative performative) {
            this.performative = Objects.requireNonNull(performative, "a message needs a performative");
        }

        public Builder sender(AID value) { sender = value; return this; }
        public Builder receiver(AID value) { receivers.add(Objects.requireNonNull(value)); return this; }
        public Builder receivers(List<AID> values) { receivers.addAll(values); return this; }
        public Builder replyTo(AID value) { replyTo = value; return this; }
        public Builder content(String value) { content = value; return this; }
        public Builder language(String value) { language = value; return this; }
        public Builder encoding(String value) { encoding = value; return this; }
        public Builder ontology(String value) { ontology = value; return this; }
        public Builder protocol(String value) { protocol = value; return this; }
        public Builder conversationId(String value) { conversationId = value; return this; }
        public Builder replyWith(String value) { replyWith = value; return this; }
        public Builder inReplyTo(String value) { inReplyTo = value; return this; }
        public Builder replyBy(Instant value) { replyBy = value; return this; }
        public Builder userProperty(String key, String value) { userProperties.put(key, value); return this; }
        public Builder userProperties(Map<String, String> values) { userProperties.putAll(values); return this; }

        public ACLMessage build() {
            return new ACLMessage(performative, sender, receivers, replyTo, content, language, encoding, ontology,
                    protocol, conversationId, replyWith, inReplyTo, replyBy, userProperties);
        }
    }
}
