package org.siebog.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.NodeHealth;
import org.siebog.message.MessageId;
import org.siebog.message.SniffFilter;
import org.siebog.message.SniffedMessage;
import org.siebog.platform.NodeEvent;

/**
 * What one node asks of another: the whole node-to-node protocol, one type per operation, each
 * writing and reading its own fields ({@link Wire} writes the values). Every request starts with the
 * protocol's {@link #VERSION} and the operation's code; a node that reads another version or an
 * unknown code refuses the request whole, says which it got, and logs it (see
 * {@code NodeRequests}). The answers are {@link NodeAnswer}s.
 *
 * <p>The nodes of one cluster run one build; the version is there so that a node of another build
 * that got the cluster secret is refused clearly rather than misread.
 */
public sealed interface NodeOp {

    /** The version of the protocol this build speaks; raised whenever any operation's fields change. */
    int VERSION = 5;

    /** Its code on the wire: never reused for another operation. */
    int code();

    /** Its fields, after the version and the code. */
    void writeFields(Wire.Writer out);

    /** The request's bytes, written into {@code out} (emptied first: a sending thread keeps its writer). */
    default byte[] write(Wire.Writer out) {
        out.reset().octet(VERSION).octet(code());
        writeFields(out);
        return out.toBytes();
    }

    default byte[] toBytes() {
        return write(new Wire.Writer());
    }

    /** Reads a whole request; a version or code this node does not know is an {@link IOException} naming it. */
    static NodeOp read(Wire.Reader in) throws IOException {
        int version = in.octet();
        if (version != VERSION) {
            throw new IOException("node protocol version " + version + " (this node speaks version " + VERSION
                    + "; the cluster's nodes must run one build)");
        }
        int code = in.octet();
        return switch (code) {
            case Deliver.CODE -> Deliver.readFields(in);
            case StartAgent.CODE -> StartAgent.readFields(in);
            case StopAgent.CODE -> StopAgent.readFields(in);
            case PushToDevice.CODE -> PushToDevice.readFields(in);
            case DeviceEvent.CODE -> DeviceEvent.readFields(in);
            case Health.CODE -> new Health();
            case Event.CODE -> Event.readFields(in);
            case Watch.CODE -> Watch.readFields(in);
            case Sniffed.CODE -> Sniffed.readFields(in);
            case DeviceRates.CODE -> new DeviceRates();
            case MoveAgent.CODE -> MoveAgent.readFields(in);
            case AdoptAgent.CODE -> AdoptAgent.readFields(in);
            case Heartbeat.CODE -> Heartbeat.readFields(in);
            case LinkPort.CODE -> new LinkPort();
            default -> throw new IOException("unknown node operation " + code + " (version " + VERSION + " has codes 1 to 14)");
        };
    }

    /** One message for one agent on the receiving node, under its sender's identity for it. */
    record Delivery(AID receiver, MessageId id, ACLMessage message) {
    }

    /**
     * Messages for agents on the receiving node, admitted in this order; answered with one outcome
     * per message. A message instance sent to several receivers in one batch is written once.
     * {@code from} and its lease's {@code session}: a node that has since left the sender out of its
     * view in that session admits none of them ({@link NodeLease#leftOutIn}).
     */
    record Deliver(String from, long session, List<Delivery> deliveries) implements NodeOp {
        static final int CODE = 1;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
            out.string(from).int64(session).integer(deliveries.size());
            for (Delivery d : deliveries) {
                out.delivery(d.receiver(), d.id(), d.message());
            }
        }

        static Deliver readFields(Wire.Reader in) throws IOException {
            String from = in.string();
            long session = in.int64();
            int n = in.integer();
            if (n < 0) {
                throw new IOException("a delivery of " + n + " messages");
            }
            // Not sized by n: a list grows with what is really there, a made-up count costs nothing.
            List<Delivery> deliveries = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                deliveries.add(in.delivery());
            }
            return new Deliver(from, session, deliveries);
        }
    }

    /** Start an agent on the receiving node ({@code device}: where a client agent runs; its proxy is on that node). */
    record StartAgent(String agentClass, String name, Map<String, String> args, boolean pinned, String device) implements NodeOp {
        static final int CODE = 2;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
            out.string(agentClass).string(name).map(args).bool(pinned).string(device);
        }

        static StartAgent readFields(Wire.Reader in) throws IOException {
            return new StartAgent(in.string(), in.string(), in.map(), in.bool(), in.string());
        }
    }

    /** Stop an agent (or a balanced agent's instance) on the receiving node. */
    record StopAgent(AID aid, boolean unregister) implements NodeOp {
        static final int CODE = 3;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
            out.aid(aid).bool(unregister);
        }

        static StopAgent readFields(Wire.Reader in) throws IOException {
            return new StopAgent(in.aid(), in.bool());
        }
    }

    /** A frame for a device whose socket is on the receiving node. */
    record PushToDevice(String device, String frame) implements NodeOp {
        static final int CODE = 4;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
            out.string(device).string(frame);
        }

        static PushToDevice readFields(Wire.Reader in) throws IOException {
            return new PushToDevice(in.string(), in.string());
        }
    }

    /** A device's report ({@code op}: started, ack, ...) about a client agent whose proxy is on the receiving node. */
    record DeviceEvent(AID aid, String device, String op, long seq, String detail) implements NodeOp {
        static final int CODE = 5;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
            out.aid(aid).string(device).string(op).int64(seq).string(detail);
        }

        static DeviceEvent readFields(Wire.Reader in) throws IOException {
            return new DeviceEvent(in.aid(), in.string(), in.string(), in.int64(), in.string());
        }
    }

    /** How is the receiving node doing? Answered with a success and its {@link NodeHealth}, written by {@link #answer}. */
    record Health() implements NodeOp {
        static final int CODE = 6;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
        }

        /** The answer: a success, then the figures (a rate or a load as its IEEE bits). */
        public static byte[] answer(NodeHealth h) {
            return NodeAnswer.successWriter().int64(h.heapUsedBytes()).int64(h.heapMaxBytes())
                    .int64(Double.doubleToLongBits(h.cpuLoad())).integer(h.devices())
                    .int64(Double.doubleToLongBits(h.admittedPerSecond())).int64(Double.doubleToLongBits(h.deliveredPerSecond()))
                    .int64(h.mailboxBacklog()).int64(h.replicationLagBytes()).int64(h.uptimeMillis()).toBytes();
        }

        /** Reads {@link #answer}; a refusal in its place is thrown. */
        public static NodeHealth read(byte[] answer) throws IOException {
            Wire.Reader in = NodeAnswer.afterSuccess(answer);
            return new NodeHealth(in.int64(), in.int64(), Double.longBitsToDouble(in.int64()), in.integer(),
                    Double.longBitsToDouble(in.int64()), Double.longBitsToDouble(in.int64()), in.int64(), in.int64(), in.int64());
        }
    }

    /** Something the asking node saw, for the receiving node's event streams (see {@link NodeEvent.Type#relayed()}). */
    record Event(NodeEvent event) implements NodeOp {
        static final int CODE = 7;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
            out.string(event.type().wire()).string(event.node()).int64(event.at()).map(event.details());
        }

        static Event readFields(Wire.Reader in) throws IOException {
            String wire = in.string();
            NodeEvent.Type type = NodeEvent.Type.of(wire);
            if (type == null) {
                throw new IOException("unknown event type " + wire);
            }
            return new Event(new NodeEvent(type, in.string(), in.int64(), in.map()));
        }
    }

    /**
     * A sniffer's watch on the asking node ({@code watcher}): the receiving node copies the matching
     * messages it admits back to it ({@link Sniffed}) for {@code leaseMillis}, unless told again; a lease
     * of 0 ends the watch there.
     */
    record Watch(String id, String watcher, SniffFilter filter, long leaseMillis) implements NodeOp {
        static final int CODE = 8;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
            out.string(id).string(watcher).int64(leaseMillis).integer(filter.agents().size());
            filter.agents().forEach(out::aid);
            out.integer(filter.conversations().size());
            filter.conversations().forEach(out::string);
        }

        static Watch readFields(Wire.Reader in) throws IOException {
            String id = in.string();
            String watcher = in.string();
            long lease = in.int64();
            Set<AID> agents = new HashSet<>();
            for (int i = in.integer(); i > 0 && agents.size() <= SniffFilter.MAX_TERMS; i--) {
                agents.add(in.aid());
            }
            Set<String> conversations = new HashSet<>();
            for (int i = in.integer(); i > 0 && conversations.size() <= SniffFilter.MAX_TERMS; i--) {
                conversations.add(in.string());
            }
            return new Watch(id, watcher, new SniffFilter(agents, conversations), lease); // more terms than allowed: refused here
        }
    }

    /** A copy of a message for the receiving node's watch {@code watchId} (see {@link Watch}). */
    record Sniffed(String watchId, SniffedMessage copy) implements NodeOp {
        static final int CODE = 9;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
            out.string(watchId).string(copy.node()).int64(copy.at()).aid(copy.receiver()).message(copy.message())
                    .bool(copy.recent()).integer(copy.missed());
        }

        static Sniffed readFields(Wire.Reader in) throws IOException {
            return new Sniffed(in.string(), new SniffedMessage(in.string(), in.int64(), in.aid(), in.message(), in.bool(), in.integer()));
        }
    }

    /**
     * The messages per second of each device joined to the receiving node ({@code GET /api/devices}),
     * answered with a success and the rates, written by {@link #answer}.
     */
    record DeviceRates() implements NodeOp {
        static final int CODE = 10;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
        }

        /** The answer: a success, the number of devices, then each one's id and rate (its IEEE bits). */
        public static byte[] answer(Map<String, Double> rates) {
            Wire.Writer out = NodeAnswer.successWriter().integer(rates.size());
            rates.forEach((device, rate) -> out.string(device).int64(Double.doubleToLongBits(rate)));
            return out.toBytes();
        }

        /** Reads {@link #answer}; a refusal in its place is thrown. */
        public static Map<String, Double> read(byte[] answer) throws IOException {
            Wire.Reader in = NodeAnswer.afterSuccess(answer);
            Map<String, Double> rates = new HashMap<>();
            for (int i = in.integer(); i > 0; i--) {
                rates.put(in.string(), Double.longBitsToDouble(in.int64()));
            }
            return rates;
        }
    }

    /**
     * Move an agent of the receiving node ({@code POST /api/agents/{aid}/move} arrived elsewhere): a
     * stateful agent to {@code node}, or a client agent whose proxy is there to {@code device} (null:
     * one the node picks); answered with where it goes once it runs there (a client agent: once its
     * move is under way, unless {@code untilStarted}), or with the refusal.
     */
    record MoveAgent(AID aid, String node, String device, boolean untilStarted) implements NodeOp {
        static final int CODE = 11;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
            out.aid(aid).string(node).string(device).bool(untilStarted);
        }

        static MoveAgent readFields(Wire.Reader in) throws IOException {
            return new MoveAgent(in.aid(), in.string(), in.string(), in.bool());
        }

        /** The answer: a success, then where the agent runs now. */
        public static byte[] answer(String location) {
            return NodeAnswer.successWriter().string(location).toBytes();
        }

        /** Reads {@link #answer}; a refusal in its place is thrown. */
        public static String read(byte[] answer) throws IOException {
            return NodeAnswer.afterSuccess(answer).string();
        }
    }

    /**
     * Take in an agent that the asking node moves here (its directory entry still names the asking
     * node); answered once it runs here, or with the refusal.
     */
    record AdoptAgent(AID aid) implements NodeOp {
        static final int CODE = 12;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
            out.aid(aid);
        }

        static AdoptAgent readFields(Wire.Reader in) throws IOException {
            return new AdoptAgent(in.aid());
        }
    }

    /**
     * {@code node} asks whether it is in the receiving node's view, as the member it has been since
     * {@code session} began (a node starts a new session whenever it rejoins): answered with a
     * {@link Answer}. Renews the asking node's {@link NodeLease}.
     */
    record Heartbeat(String node, long session) implements NodeOp {
        static final int CODE = 13;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
            out.string(node).int64(session);
        }

        static Heartbeat readFields(Wire.Reader in) throws IOException {
            return new Heartbeat(in.string(), in.int64());
        }

        /** What the answering node says of the asking one. */
        public enum Verdict {
            /** In its view, as the member it has been all along: renews the lease. */
            IN_VIEW,
            /** Not in its view (or not on the node list): renews nothing. */
            NOT_IN_VIEW,
            /**
             * In its view again, but it was left out of it since the asking node's session began: the
             * others may have taken its agents over meanwhile, so it must give them up and rejoin.
             */
            LEFT_OUT
        }

        /**
         * @param verdict    what the answering node says of the asking one
         * @param members    the answering node's view, so that a node about to take over a departed
         *                   node's agents knows when the others stopped renewing its lease
         * @param lastYesAgo for each node it has said yes to, how long ago it last did (ms): the latest
         *                   a node it has left out can have renewed its lease with its help
         */
        public record Answer(Verdict verdict, List<String> members, Map<String, Long> lastYesAgo) {
            public Answer {
                members = List.copyOf(members);
                lastYesAgo = Map.copyOf(lastYesAgo);
            }

            public byte[] toBytes() {
                Wire.Writer out = NodeAnswer.successWriter().octet(verdict.ordinal()).integer(members.size());
                members.forEach(out::string);
                out.integer(lastYesAgo.size());
                lastYesAgo.forEach((node, ago) -> out.string(node).int64(ago));
                return out.toBytes();
            }

            /** Reads {@link #toBytes}: empty for a refusal or an unreadable answer (neither renews a lease). */
            static Optional<Answer> read(byte[] answer) {
                try {
                    Wire.Reader in = NodeAnswer.afterSuccess(answer);
                    int verdict = in.octet();
                    int n = in.integer();
                    if (verdict >= Verdict.values().length || n < 0) {
                        return Optional.empty();
                    }
                    List<String> members = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        members.add(in.string());
                    }
                    int m = in.integer();
                    Map<String, Long> lastYesAgo = new HashMap<>();
                    for (int i = 0; i < m; i++) {
                        lastYesAgo.put(in.string(), in.int64());
                    }
                    return Optional.of(new Answer(Verdict.values()[verdict], members, lastYesAgo));
                } catch (IOException | RuntimeException e) {
                    return Optional.empty();
                }
            }
        }
    }

    /**
     * Asks the receiving node for the port it takes deliveries on ({@link LinkServer}): the asking node
     * connects there, at the address JGroups reaches the receiving node at. Answered with the port.
     */
    record LinkPort() implements NodeOp {
        static final int CODE = 14;

        @Override
        public int code() {
            return CODE;
        }

        @Override
        public void writeFields(Wire.Writer out) {
        }

        /** The answer: a success, then the port. */
        public static byte[] answer(int port) {
            return NodeAnswer.successWriter().integer(port).toBytes();
        }

        /** Reads {@link #answer}; a refusal in its place is thrown. */
        static int read(byte[] answer) throws IOException {
            int port = NodeAnswer.afterSuccess(answer).integer();
            if (port <= 0 || port > 0xFFFF) {
                throw new IOException("port " + port);
            }
            return port;
        }
    }
}
