package org.siebog.api;

import java.io.Serializable;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A FIPA ACL message: a {@link Performative} (what the message does), who sends it to whom, its
 * content, and the fields that tie it to a conversation. Every field but the performative may be
 * absent (null; no receivers, no user properties).
 *
 * <p>Messages are immutable, so the platform hands the same instance from agent to agent on one
 * node without copying or serialising it, and an agent may keep one in its state. Build one with
 * {@link #builder(Performative)} and answer one with {@link #reply(Performative)}, which fills in
 * the receiver and the conversation:
 *
 * <pre>{@code
 * ACLMessage ask = ACLMessage.builder(Performative.REQUEST)
 *         .receiver(AID.parse("pong@siebog"))
 *         .conversationId("game-7")
 *         .replyWith("ping-1")
 *         .content("ping")
 *         .build();
 *
 * // in the receiver's onMessage(msg): to the sender, conversation "game-7", inReplyTo "ping-1"
 * send(reply(msg, Performative.INFORM).content("pong"));
 * }</pre>
 *
 * <p>A receiver named twice gets the message once. User properties are kept sorted by key: that is
 * the canonical JSON form the REST API and the JavaScript library share. The platform bounds what a
 * message may hold ({@code siebog.message.max-content-chars} for the content,
 * {@code siebog.message.max-envelope-chars} for {@linkplain #envelopeChars() everything else}, and
 * {@code siebog.message.max-receivers}); a message over a bound is refused whole.
 *
 * @param performative   what the message does; never null
 * @param sender         who sends it; an agent's sends name the agent unless they name another sender
 * @param receivers      whom it goes to, without duplicates; never null
 * @param replyTo        where answers go instead of the sender
 * @param content        the content, in any {@code language} the agents agree on
 * @param language       the language the content is written in
 * @param encoding       how the content is encoded
 * @param ontology       the vocabulary of the content
 * @param protocol       the interaction protocol the message is part of
 * @param conversationId the conversation it belongs to
 * @param replyWith      what an answer names in its {@code inReplyTo}
 * @param inReplyTo      the {@code replyWith} of the message this one answers
 * @param replyBy        when an answer is expected by
 * @param userProperties further fields, sorted by name; never null
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

    /**
     * Makes a message; prefer {@link #builder(Performative)}. Receivers are de-duplicated, and
     * both collections are copied.
     *
     * @param performative what the message does; never null
     * @param sender who sends it; an agent's sends name the agent unless they name another sender
     * @param receivers whom it goes to, without duplicates; never null
     * @param replyTo where answers go instead of the sender
     * @param content the content, in any {@code language} the agents agree on
     * @param language the language the content is written in
     * @param encoding how the content is encoded
     * @param ontology the vocabulary of the content
     * @param protocol the interaction protocol the message is part of
     * @param conversationId the conversation it belongs to
     * @param replyWith what an answer names in its {@code inReplyTo}
     * @param inReplyTo the {@code replyWith} of the message this one answers
     * @param replyBy when an answer is expected by
     * @param userProperties further fields, sorted by name; never null
     * @throws NullPointerException the performative, a receiver or a user property is null
     */
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

    /**
     * Starts a message.
     *
     * @param performative what the message does
     * @return a builder with no other field set
     */
    public static Builder builder(Performative performative) {
        return new Builder(performative);
    }

    /**
     * Starts the answer to this message: addressed to {@code replyTo} (or the sender), in the same
     * conversation, protocol, language, encoding and ontology, and in reply to {@code replyWith}.
     * An agent answers with {@code AbstractAgent.reply(msg, performative)}, which also names the agent
     * as sender.
     *
     * @param performative what the answer does
     * @return a builder for the answer
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

    /**
     * This message with other receivers: one message fanned out to several agents keeps its content.
     *
     * @param newReceivers the receivers of the copy
     * @return a copy of this message
     */
    public ACLMessage withReceivers(List<AID> newReceivers) {
        return new ACLMessage(performative, sender, newReceivers, replyTo, content, language, encoding, ontology,
                protocol, conversationId, replyWith, inReplyTo, replyBy, userProperties);
    }

    /**
     * This message with another sender.
     *
     * @param newSender the sender of the copy
     * @return a copy of this message
     */
    public ACLMessage withSender(AID newSender) {
        return new ACLMessage(performative, newSender, receivers, replyTo, content, language, encoding, ontology,
                protocol, conversationId, replyWith, inReplyTo, replyBy, userProperties);
    }

    /**
     * This message with answers going to {@code newReplyTo} instead of the sender.
     *
     * @param newReplyTo where answers to the copy go
     * @return a copy of this message
     */
    public ACLMessage withReplyTo(AID newReplyTo) {
        return new ACLMessage(performative, sender, receivers, newReplyTo, content, language, encoding, ontology,
                protocol, conversationId, replyWith, inReplyTo, replyBy, userProperties);
    }

    /**
     * One user property.
     *
     * @param key the property's name
     * @return its value, or null when the message has none of that name
     */
    public String userProperty(String key) {
        return userProperties.get(key);
    }

    /**
     * The characters this message holds outside its content: every other field, the AIDs and the
     * user properties (what {@code siebog.message.max-envelope-chars} bounds). A length per field,
     * no text is scanned: cheap enough for every message a node routes.
     *
     * @return the characters outside the content; an AID counts as its string form
     */
    public long envelopeChars() {
        long chars = aidChars(sender) + aidChars(replyTo) + chars(language) + chars(encoding) + chars(ontology)
                + chars(protocol) + chars(conversationId) + chars(replyWith) + chars(inReplyTo);
        for (int i = 0; i < receivers.size(); i++) { // no iterator: most messages have one receiver and no properties
            chars += aidChars(receivers.get(i));
        }
        if (!userProperties.isEmpty()) {
            for (Map.Entry<String, String> property : userProperties.entrySet()) {
                chars += chars(property.getKey()) + chars(property.getValue());
            }
        }
        return chars;
    }

    /**
     * What holding this message costs a node, estimated from its lengths alone: 2 bytes a character
     * (a Java string at most; its UTF-8 on the wire is no more than 3 for the rare character outside
     * Latin-1) plus the objects around them. The bounds on what callers can make a node hold count
     * in this unit ({@code siebog.message.max-delayed-bytes}, {@code siebog.replication.max-log-bytes},
     * {@code siebog.cluster.max-link-bytes}).
     *
     * @return the estimate in bytes
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

    /**
     * Collects the fields of a message. Each setter replaces the field's value, except
     * {@code receiver}, {@code receivers} and the user property setters, which add; {@link #build()}
     * may be called more than once. Not thread-safe: build a message on one thread, then share the
     * message.
     */
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

        /**
         * Sets the sender.
         *
         * @param value the sender; null: the sending agent
         * @return this builder
         */
        public Builder sender(AID value) { sender = value; return this; }

        /**
         * Adds a receiver.
         *
         * @param value a receiver to add
         * @return this builder
         */
        public Builder receiver(AID value) { receivers.add(Objects.requireNonNull(value)); return this; }

        /**
         * Adds receivers.
         *
         * @param values receivers to add
         * @return this builder
         */
        public Builder receivers(List<AID> values) { receivers.addAll(values); return this; }

        /**
         * Sets where answers go.
         *
         * @param value where answers go instead of the sender
         * @return this builder
         */
        public Builder replyTo(AID value) { replyTo = value; return this; }

        /**
         * Sets the content.
         *
         * @param value the content
         * @return this builder
         */
        public Builder content(String value) { content = value; return this; }

        /**
         * Sets the content's language.
         *
         * @param value the content's language
         * @return this builder
         */
        public Builder language(String value) { language = value; return this; }

        /**
         * Sets the content's encoding.
         *
         * @param value the content's encoding
         * @return this builder
         */
        public Builder encoding(String value) { encoding = value; return this; }

        /**
         * Sets the content's ontology.
         *
         * @param value the content's ontology
         * @return this builder
         */
        public Builder ontology(String value) { ontology = value; return this; }

        /**
         * Sets the interaction protocol.
         *
         * @param value the interaction protocol
         * @return this builder
         */
        public Builder protocol(String value) { protocol = value; return this; }

        /**
         * Sets the conversation.
         *
         * @param value the conversation
         * @return this builder
         */
        public Builder conversationId(String value) { conversationId = value; return this; }

        /**
         * Sets what answers refer to.
         *
         * @param value what an answer names in its {@code inReplyTo}
         * @return this builder
         */
        public Builder replyWith(String value) { replyWith = value; return this; }

        /**
         * Sets the message this one answers.
         *
         * @param value the {@code replyWith} of the message this one answers
         * @return this builder
         */
        public Builder inReplyTo(String value) { inReplyTo = value; return this; }

        /**
         * Sets the deadline for answers.
         *
         * @param value when an answer is expected by
         * @return this builder
         */
        public Builder replyBy(Instant value) { replyBy = value; return this; }

        /**
         * Adds a user property.
         *
         * @param key a user property's name
         * @param value its value
         * @return this builder
         */
        public Builder userProperty(String key, String value) { userProperties.put(key, value); return this; }

        /**
         * Adds user properties.
         *
         * @param values user properties to add
         * @return this builder
         */
        public Builder userProperties(Map<String, String> values) { userProperties.putAll(values); return this; }

        /**
         * Makes the message from the fields collected so far.
         *
         * @return a new immutable message
         */
        public ACLMessage build() {
            return new ACLMessage(performative, sender, receivers, replyTo, content, language, encoding, ontology,
                    protocol, conversationId, replyWith, inReplyTo, replyBy, userProperties);
        }
    }
}
