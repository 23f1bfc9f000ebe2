package org.siebog.cluster;

import java.io.EOFException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.Topics;
import org.siebog.api.Performative;
import org.siebog.api.SiebogException;
import org.siebog.message.MessageId;

/**
 * The values between nodes, which {@link NodeOp}s and {@link NodeAnswer}s are written in (and,
 * under a format version of their own, inbox segments): strings are length-prefixed UTF-8
 * (message contents can exceed {@code writeUTF}'s 64 KiB). An ACL message travels as its
 * fields in order, not as JSON: nodes of one build read what they wrote, and every message that
 * crosses the cluster is written and read once. A refusal travels as its kind, status and text
 * ({@link Refusal}), rebuilt by the caller's node (a full mailbox stays a 503, a taken name a 409):
 * nothing between nodes is Java-serialised, so nothing a peer sends is Java-deserialised.
 */
public final class Wire {

    private static final Performative[] PERFORMATIVES = Performative.values();

    /**
     * AIDs read from other nodes, by their text: every message between nodes names three or four,
     * mostly the same few thousand, and checking each one's characters again was 5–8% of a node's
     * samples in the two-node Sender/Receiver run. Bounded: cleared when full.
     */
    private static final ConcurrentMap<String, ParsedAid> PARSED_AIDS = new ConcurrentHashMap<>();
    private static final int MAX_PARSED_AIDS = 65_536;

    /**
     * An AID and the one string of its text that every reader hands on: a stateful sender's origin
     * is its AID's text ({@link Writer#delivery}), and this string's hash, computed once, serves every
     * map that origin is looked up in on this node.
     */
    private record ParsedAid(AID aid, String text) {
    }

    /** In a delivery's origin's place: the origin is the text of the sender of the message just written in full. */
    private static final int SENDERS_TEXT = -2;
    /** In a message's receiver count's place: its one receiver is the delivery's. */
    private static final int THE_DELIVERYS_RECEIVER = -1;

    private Wire() {
    }

    /** Big-endian ints and longs in and out of byte arrays. */
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /**
     * Writes into a growing array. Not a {@code DataOutputStream} over a
     * {@code ByteArrayOutputStream}: every byte of an int went through a synchronised
     * {@code write}, which showed up in the profiles of busy nodes. A thread that writes one
     * request after another keeps its writer and {@link #reset()}s it: growing a fresh buffer
     * for every batch, and every string's own UTF-8 copy, were 40% of the bytes a busy node allocated.
     */
    public static final class Writer {
        private static final int INITIAL_BYTES = 256;
        /** A buffer grown past this by one large request is dropped at the next reset, not kept for all. */
        private static final int MAX_KEPT_BYTES = 1 << 20;

        private byte[] buffer = new byte[INITIAL_BYTES];
        private int size;
        /**
         * The messages of several receivers written since the last reset, by instance, with their
         * place among all messages written in full ({@link #written}). Only those: a message to one
         * receiver is logged and sent once, and putting every message of a batch here made the map
         * as large as the batch and its clearing, slot by slot, 1% of a loaded node's CPU.
         */
        private IdentityHashMap<ACLMessage, Integer> shared;
        /** Messages written in full since the last reset: the reader numbers them all. */
        private int written;

        /** Empties the writer for the next request; its buffer stays unless one grew it past {@link #MAX_KEPT_BYTES}. */
        public Writer reset() {
            size = 0;
            if (buffer.length > MAX_KEPT_BYTES) {
                buffer = new byte[INITIAL_BYTES];
            }
            if (shared != null && !shared.isEmpty()) {
                shared.clear();
            }
            written = 0;
            return this;
        }

        public Writer string(String s) {
            if (s == null) {
                return integer(-1);
            }
            room(Integer.BYTES + s.length());
            int end = ascii(s, size + Integer.BYTES);
            return end < 0 ? bytes(s.getBytes(StandardCharsets.UTF_8)) : lengthPrefixed(end);
        }

        public Writer integer(int i) {
            room(Integer.BYTES);
            INT.set(buffer, size, i);
            size += Integer.BYTES;
            return this;
        }

        public Writer int64(long l) {
            room(Long.BYTES);
            LONG.set(buffer, size, l);
            size += Long.BYTES;
            return this;
        }

        public Writer bool(boolean b) {
            return octet(b ? 1 : 0);
        }

        public Writer map(Map<String, String> map) {
            integer(map.size());
            map.forEach((k, v) -> string(k).string(v));
            return this;
        }

        public Writer message(ACLMessage m) {
            return message(m, null);
        }

        /** A message; when its one receiver is {@code implied} (a delivery's), that is not written again. */
        private Writer message(ACLMessage m, AID implied) {
            octet(m.performative().ordinal());
            aid(m.sender());
            List<AID> receivers = m.receivers();
            if (implied != null && receivers.size() == 1 && implied.equals(receivers.get(0))) {
                integer(THE_DELIVERYS_RECEIVER);
            } else {
                integer(receivers.size());
                receivers.forEach(this::aid);
            }
            aid(m.replyTo()).string(m.content()).string(m.language()).string(m.encoding()).string(m.ontology())
                    .string(m.protocol()).string(m.conversationId()).string(m.replyWith()).string(m.inReplyTo());
            bool(m.replyBy() != null);
            if (m.replyBy() != null) {
                int64(m.replyBy().getEpochSecond()).integer(m.replyBy().getNano());
            }
            return map(m.userProperties());
        }

        /**
         * A message, or a reference to the same instance written before by this writer (since
         * its last reset). A message to many receivers is sent and logged once per receiver:
         * written out each time, a coordinator's word to 1000 agents made a 50 MB inbox segment
         * (its 1000-AID receiver list 1000 times over).
         */
        public Writer sharedMessage(ACLMessage m) {
            sharedMessage(m, null);
            return this;
        }

        /** {@link #sharedMessage(ACLMessage)}; true when the message was written in full. */
        private boolean sharedMessage(ACLMessage m, AID implied) {
            if (m.receivers().size() != 1 || Topics.isTopic(m.receivers().get(0))) { // only these reach several agents
                if (shared == null) {
                    shared = new IdentityHashMap<>();
                }
                Integer earlier = shared.putIfAbsent(m, written);
                if (earlier != null) {
                    integer(earlier);
                    return false;
                }
            }
            written++;
            integer(-1).message(m, implied);
            return true;
        }

        /**
         * One message for one receiver under its identity: what a request to deliver messages and an
         * inbox segment hold, entry after entry. Written short, as most entries allow: the
         * message's receiver is not written again when it is the delivery's, nor the origin when it
         * is the sender's AID (a stateful agent's messages): two of the four AIDs an entry named,
         * about 110 of the 300 bytes a Sender/Receiver benchmark request took in a delivery.
         */
        public Writer delivery(AID receiver, MessageId id, ACLMessage m) {
            aid(receiver).int64(id.counter());
            if (sharedMessage(m, receiver) && m.sender() != null && isTextOf(id.origin(), m.sender())) {
                return integer(SENDERS_TEXT);
            }
            return string(id.origin());
        }

        private static boolean isTextOf(String text, AID aid) {
            String name = aid.name();
            String platform = aid.platform();
            return text != null && text.length() == name.length() + 1 + platform.length() && text.startsWith(name)
                    && text.charAt(name.length()) == '@' && text.endsWith(platform);
        }

        /** As {@code string(aid.toString())}, without building that string. */
        public Writer aid(AID aid) {
            if (aid == null) {
                return integer(-1);
            }
            room(Integer.BYTES + aid.name().length() + 1 + aid.platform().length());
            int at = ascii(aid.name(), size + Integer.BYTES);
            if (at < 0) {
                return string(aid.toString());
            }
            buffer[at] = '@';
            int end = ascii(aid.platform(), at + 1);
            return end < 0 ? string(aid.toString()) : lengthPrefixed(end);
        }

        /** null for success, or the refusal: its kind, status and text (see {@link Refusal}). */
        public Writer outcome(SiebogException refusal) {
            if (refusal == null) {
                return bool(true);
            }
            return refusal(Refusal.kindOf(refusal).ordinal(), refusal.status(), Refusal.textOf(refusal));
        }

        /** A refusal's three parts; {@link #outcome(SiebogException)} writes them (and the tests, any). */
        Writer refusal(int kind, int status, String text) {
            return bool(false).octet(kind).integer(status).string(text);
        }

        public byte[] toBytes() {
            return Arrays.copyOf(buffer, size);
        }

        /** Length-prefixed bytes. */
        private Writer bytes(byte[] b) {
            integer(b.length);
            room(b.length);
            System.arraycopy(b, 0, buffer, size, b.length);
            size += b.length;
            return this;
        }

        /**
         * Copies an all-ASCII string (its UTF-8 form, byte for byte) to {@code at}, for which
         * there is room; returns where it ends, or -1 if a character is not ASCII.
         */
        private int ascii(String s, int at) {
            for (int i = 0, n = s.length(); i < n; i++) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    return -1;
                }
                buffer[at++] = (byte) c;
            }
            return at;
        }

        /** Completes the string that was copied to just after its length's place, ending at {@code end}. */
        private Writer lengthPrefixed(int end) {
            INT.set(buffer, size, end - size - Integer.BYTES);
            size = end;
            return this;
        }

        /** One byte, 0 to 255: versions and codes. */
        public Writer octet(int b) {
            room(1);
            buffer[size++] = (byte) b;
            return this;
        }

        private void room(int n) {
            if (size + n > buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + n));
            }
        }
    }

    /** Reads what a {@link Writer} wrote; reading past the end is an {@link EOFException}. */
    public static final class Reader {
        private final byte[] buffer;
        private int at;
        private final int end;
        /** The messages read so far in full, for {@link #sharedMessage()}'s references. */
        private List<ACLMessage> shared;
        /** The text of the last AID read ({@link ParsedAid#text()}). */
        private String aidText;
        /** The text of the sender of the last message read in full, while it is the last one read. */
        private String senderText;

        public Reader(byte[] buffer, int offset, int length) {
            this.buffer = buffer;
            this.at = offset;
            this.end = offset + length;
        }

        public String string() throws IOException {
            return string(integer());
        }

        /** The string of {@code n} bytes that follows (null for -1), its length already read. */
        private String string(int n) throws IOException {
            if (n == -1) {
                return null;
            }
            if (n < 0) {
                throw new IOException("a string of " + n + " bytes");
            }
            return new String(buffer, take(n), n, StandardCharsets.UTF_8);
        }

        public int integer() throws IOException {
            return (int) INT.get(buffer, take(Integer.BYTES));
        }

        public long int64() throws IOException {
            return (long) LONG.get(buffer, take(Long.BYTES));
        }

        public boolean bool() throws IOException {
            return octet() != 0;
        }

        /** True when everything has been read. */
        public boolean atEnd() {
            return at == end;
        }

        public Map<String, String> map() throws IOException {
            int n = integer();
            Map<String, String> map = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                map.put(string(), string());
            }
            return map;
        }

        public ACLMessage message() throws IOException {
            return message(null);
        }

        /** What {@link Writer#message(ACLMessage, AID)} wrote, {@code implied} the delivery's receiver. */
        private ACLMessage message(AID implied) throws IOException {
            int p = octet();
            if (p >= PERFORMATIVES.length) {
                throw new IOException("unknown performative " + p);
            }
            Performative performative = PERFORMATIVES[p];
            AID sender = aid();
            String text = aidText;
            List<AID> receivers;
            int n = integer();
            if (n == THE_DELIVERYS_RECEIVER && implied != null) {
                receivers = List.of(implied);
            } else if (n < 0) {
                throw new IOException("a message with " + n + " receivers");
            } else {
                receivers = new ArrayList<>();
                for (int i = n; i > 0; i--) {
                    receivers.add(aid());
                }
            }
            ACLMessage m = new ACLMessage(performative, sender, receivers, aid(), string(), string(), string(), string(),
                    string(), string(), string(), string(), bool() ? Instant.ofEpochSecond(int64(), integer()) : null,
                    new TreeMap<>(map()));
            senderText = sender == null ? null : text;
            return m;
        }

        /** What {@link Writer#sharedMessage(ACLMessage)} wrote: a repeated message is the same instance. */
        public ACLMessage sharedMessage() throws IOException {
            return sharedMessage(null);
        }

        private ACLMessage sharedMessage(AID implied) throws IOException {
            senderText = null;
            int earlier = integer();
            if (shared == null) {
                shared = new ArrayList<>();
            }
            if (earlier < 0) {
                ACLMessage m = message(implied);
                shared.add(m);
                return m;
            }
            if (earlier >= shared.size()) {
                throw new IOException("a reference to message " + earlier + " where " + shared.size() + " were read");
            }
            return shared.get(earlier);
        }

        /** What {@link Writer#delivery(AID, MessageId, ACLMessage)} wrote. */
        public NodeOp.Delivery delivery() throws IOException {
            AID receiver = aid();
            long counter = int64();
            ACLMessage m = sharedMessage(receiver);
            int n = integer();
            String origin;
            if (n == SENDERS_TEXT) {
                if (senderText == null) {
                    throw new IOException("an origin named as the sender of a message that was not read in full");
                }
                origin = senderText;
            } else {
                origin = string(n);
            }
            return new NodeOp.Delivery(receiver, new MessageId(origin, counter), m);
        }

        /** An AID another node wrote; see {@link #PARSED_AIDS}. */
        public AID aid() throws IOException {
            String text = string();
            if (text == null) {
                return null;
            }
            ParsedAid parsed = PARSED_AIDS.get(text);
            if (parsed == null) {
                if (PARSED_AIDS.size() >= MAX_PARSED_AIDS) {
                    PARSED_AIDS.clear(); // agents come and go: start again rather than grow without bound
                }
                parsed = new ParsedAid(AID.parse(text), text);
                PARSED_AIDS.put(text, parsed);
            }
            aidText = parsed.text();
            return parsed.aid();
        }

        /** null for success, or the refusal the other node sent, rebuilt from its kind, status and text. */
        public SiebogException outcome() throws IOException {
            if (bool()) {
                return null;
            }
            int kind = octet();
            int status = integer();
            return Refusal.rebuild(kind, status, string());
        }

        /** One byte, 0 to 255. */
        public int octet() throws IOException {
            return Byte.toUnsignedInt(buffer[take(1)]);
        }

        /** Consumes {@code n} bytes, returning where they start. */
        private int take(int n) throws EOFException {
            if (n > end - at) {
                throw new EOFException("truncated: " + n + " bytes wanted, " + (end - at) + " left");
            }
            int start = at;
            at += n;
            return start;
        }
    }
}
