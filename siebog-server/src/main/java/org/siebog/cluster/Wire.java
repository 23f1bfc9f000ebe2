package org.siebog.cluster;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.siebog.agent.AID;
import org.siebog.message.ACLMessage;
import org.siebog.message.Performative;
import org.siebog.platform.SiebogException;

/**
 * The bytes between nodes: a request is an {@link Op} and its fields; strings are length-prefixed
 * UTF-8 (message contents can exceed {@code writeUTF}'s 64 KiB). An ACL message travels as its
 * fields in order, not as JSON: nodes of one build read what they wrote, and every message that
 * crosses the cluster is written and read once. A refusal travels as the serialised
 * {@link SiebogException}, so the caller's node rethrows the very type the owner threw (a full
 * mailbox stays a 503, a taken name a 409).
 */
public final class Wire {

    public enum Op {
        /** Messages for agents on the receiving node, in order. */
        DELIVER,
        /** Start an agent on the receiving node. */
        START,
        /** Stop an agent on the receiving node. */
        STOP,
        /** A frame for a device whose socket is on the receiving node. */
        PUSH,
        /** A device's report about a client agent whose proxy is on the receiving node. */
        DEVICE_EVENT
    }

    private static final Performative[] PERFORMATIVES = Performative.values();

    /**
     * AIDs read from other nodes, by their text: every message between nodes names three or four,
     * mostly the same few thousand, and checking each one's characters again was 5–8% of a node's
     * samples in the two-node Sender/Receiver run. Bounded: cleared when full.
     */
    private static final ConcurrentMap<String, AID> PARSED_AIDS = new ConcurrentHashMap<>();
    private static final int MAX_PARSED_AIDS = 65_536;

    private Wire() {
    }

    public static final class Writer {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        private final DataOutputStream out = new DataOutputStream(bytes);

        public Writer op(Op op) {
            return write(() -> out.writeByte(op.ordinal()));
        }

        public Writer string(String s) {
            return write(() -> {
                if (s == null) {
                    out.writeInt(-1);
                } else {
                    byte[] b = s.getBytes(StandardCharsets.UTF_8);
                    out.writeInt(b.length);
                    out.write(b);
                }
            });
        }

        public Writer integer(int i) {
            return write(() -> out.writeInt(i));
        }

        public Writer int64(long l) {
            return write(() -> out.writeLong(l));
        }

        public Writer bool(boolean b) {
            return write(() -> out.writeBoolean(b));
        }

        public Writer map(Map<String, String> map) {
            integer(map.size());
            map.forEach((k, v) -> string(k).string(v));
            return this;
        }

        public Writer message(ACLMessage m) {
            write(() -> out.writeByte(m.performative().ordinal()));
            aid(m.sender()).integer(m.receivers().size());
            m.receivers().forEach(this::aid);
            aid(m.replyTo()).string(m.content()).string(m.language()).string(m.encoding()).string(m.ontology())
                    .string(m.protocol()).string(m.conversationId()).string(m.replyWith()).string(m.inReplyTo());
            bool(m.replyBy() != null);
            if (m.replyBy() != null) {
                int64(m.replyBy().getEpochSecond()).integer(m.replyBy().getNano());
            }
            return map(m.userProperties());
        }

        public Writer aid(AID aid) {
            return string(aid == null ? null : aid.toString());
        }

        /** null for success, or the refusal. */
        public Writer outcome(SiebogException refusal) {
            if (refusal == null) {
                return bool(true);
            }
            bool(false);
            return write(() -> {
                ByteArrayOutputStream serialised = new ByteArrayOutputStream();
                try (ObjectOutputStream oos = new ObjectOutputStream(serialised)) {
                    oos.writeObject(refusal);
                }
                out.writeInt(serialised.size());
                serialised.writeTo(out);
            });
        }

        public byte[] toBytes() {
            return bytes.toByteArray();
        }

        private Writer write(IoAction action) {
            try {
                action.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e); // a byte array does not fail
            }
            return this;
        }
    }

    public static final class Reader {
        private final DataInputStream in;

        public Reader(byte[] buffer, int offset, int length) {
            in = new DataInputStream(new ByteArrayInputStream(buffer, offset, length));
        }

        public Op op() throws IOException {
            return Op.values()[in.readUnsignedByte()];
        }

        public String string() throws IOException {
            int n = in.readInt();
            if (n < 0) {
                return null;
            }
            byte[] b = in.readNBytes(n);
            return new String(b, StandardCharsets.UTF_8);
        }

        public int integer() throws IOException {
            return in.readInt();
        }

        public long int64() throws IOException {
            return in.readLong();
        }

        public boolean bool() throws IOException {
            return in.readBoolean();
        }

        /** True when everything has been read. */
        public boolean atEnd() throws IOException {
            return in.available() == 0;
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
            Performative performative = PERFORMATIVES[in.readUnsignedByte()];
            AID sender = aid();
            List<AID> receivers = new ArrayList<>();
            for (int i = integer(); i > 0; i--) {
                receivers.add(aid());
            }
            return new ACLMessage(performative, sender, receivers, aid(), string(), string(), string(), string(),
                    string(), string(), string(), string(), bool() ? Instant.ofEpochSecond(int64(), integer()) : null,
                    new TreeMap<>(map()));
        }

        /** An AID another node wrote; see {@link #PARSED_AIDS}. */
        public AID aid() throws IOException {
            String text = string();
            if (text == null) {
                return null;
            }
            AID aid = PARSED_AIDS.get(text);
            if (aid == null) {
                if (PARSED_AIDS.size() >= MAX_PARSED_AIDS) {
                    PARSED_AIDS.clear(); // agents come and go: start again rather than grow without bound
                }
                aid = AID.parse(text);
                PARSED_AIDS.put(text, aid);
            }
            return aid;
        }

        /** null for success, or the refusal the other node sent. */
        public SiebogException outcome() throws IOException {
            if (bool()) {
                return null;
            }
            byte[] serialised = in.readNBytes(in.readInt());
            try (ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(serialised)) {
                @Override
                protected Class<?> resolveClass(java.io.ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                    return Class.forName(desc.getName(), false, Wire.class.getClassLoader());
                }
            }) {
                return (SiebogException) ois.readObject();
            } catch (ClassNotFoundException | ClassCastException e) {
                throw new IOException("unreadable refusal from another node", e);
            }
        }
    }

    @FunctionalInterface
    private interface IoAction {
        void run() throws IOException;
    }
}
