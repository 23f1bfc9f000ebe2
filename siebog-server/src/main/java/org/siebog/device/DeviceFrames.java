package org.siebog.device;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.SiebogException;
import org.siebog.message.ACLMessageJson;
import org.siebog.state.SavedState;

/**
 * The device protocol's frames (docs/device-protocol.md), defined once: one record per op, in both
 * directions, each writing itself ({@link Frame#write()}) and reading itself from a parsed
 * {@link DeviceFrame} ({@code read}). A read refuses a missing or mistyped field with a
 * {@link BadFrame} (an {@code error} 400) that names it; an unknown op is refused by
 * {@link #fromDevice}. The normative examples, valid and invalid with the node's answer, are
 * {@code siebog-client-js/test/fixtures/device-frames.json}: {@code DeviceFramesTest}, the
 * library's tests and both load generators in {@code perf/} test against them.
 *
 * <p>Frames are written by a streaming generator, never built as trees. A state goes in and out as
 * the JSON text the device wrote (the store holds it as such), so it is neither parsed nor escaped
 * again (a state may be 64 KiB); a {@code deliver} frame is written once per message and kept as
 * text until acknowledged ({@link ClientAgentProxy}). Fields are written in the order the fixtures
 * pin; a reader takes them in any order.
 */
final class DeviceFrames {

    private static final JsonFactory FRAMES = new JsonFactory();
    /** The longest {@code error} text a frame carries; a value it quotes is cut to {@link #QUOTED_CHARS}. */
    static final int MAX_ERROR_CHARS = 300;
    static final int QUOTED_CHARS = 100;
    /** The largest claim of compute units a device may make ({@code join}, {@code computeUnits}). */
    static final double MAX_COMPUTE_UNITS = 1_000_000;

    private DeviceFrames() {
    }

    /** A frame of either direction. */
    sealed interface Frame permits FromDevice, ToDevice {

        /** The frame's {@code "op"}. */
        String op();

        /** Writes the frame's fields after its {@code op}, in the fixtures' order. */
        void writeFields(JsonGenerator frame) throws IOException;

        /** The frame's text, as it goes over the socket. */
        default String write() {
            StringWriter text = new StringWriter(64);
            try (JsonGenerator frame = FRAMES.createGenerator(text)) {
                frame.writeStartObject();
                frame.writeStringField("op", op());
                writeFields(frame);
                frame.writeEndObject();
            } catch (IOException e) {
                throw new UncheckedIOException("writing to a string cannot fail", e);
            }
            return text.toString();
        }
    }

    /** A frame a device sends to its node ("Device → server"). */
    sealed interface FromDevice extends Frame permits Join, Solution, Heartbeat, ComputeUnits, Send, Spawn, StopAgent, Move,
            Started, Stopped, Ack, AgentError, SaveState, LoadState, Leave {
    }

    /** A frame a node sends to a device ("Server → device"). */
    sealed interface ToDevice extends Frame permits Challenge, Welcome, Heartbeat, Start, Stop, Deliver, Sent, Spawned,
            AgentStopped, Moved, StateSaved, State, ErrorFrame {
    }

    /** A mistake inside a well-formed frame (a missing or mistyped field, an unknown op): {@code error} 400, nothing done. */
    static final class BadFrame extends SiebogException {
        BadFrame(String message) {
            super(message);
        }
    }

    /**
     * The device's frame as its record.
     *
     * @throws BadFrame for an unknown op, or a field missing or of the wrong kind
     */
    static FromDevice fromDevice(DeviceFrame frame) {
        String op = frame.op();
        return switch (op) {
            case Ack.OP -> Ack.read(frame);
            case Send.OP -> Send.read(frame);
            case SaveState.OP -> SaveState.read(frame);
            case LoadState.OP -> LoadState.read(frame);
            case Heartbeat.OP -> Heartbeat.INSTANCE;
            case Started.OP -> Started.read(frame);
            case Stopped.OP -> Stopped.read(frame);
            case AgentError.OP -> AgentError.read(frame);
            case Spawn.OP -> Spawn.read(frame);
            case StopAgent.OP -> StopAgent.read(frame);
            case Move.OP -> Move.read(frame);
            case Join.OP -> Join.read(frame);
            case Solution.OP -> Solution.read(frame);
            case ComputeUnits.OP -> ComputeUnits.read(frame);
            case Leave.OP -> Leave.INSTANCE;
            default -> throw new BadFrame("unknown op '" + quote(op, QUOTED_CHARS) + "'; see docs/device-protocol.md");
        };
    }

    /** A node's frame as its record (what a device reads; the server's tests read the fixtures with it). */
    static ToDevice toDevice(DeviceFrame frame) {
        String op = frame.op();
        return switch (op) {
            case Deliver.OP -> Deliver.read(frame);
            case Heartbeat.OP -> Heartbeat.INSTANCE;
            case Challenge.OP -> Challenge.read(frame);
            case Welcome.OP -> Welcome.read(frame);
            case Start.OP -> Start.read(frame);
            case Stop.OP -> Stop.read(frame);
            case Sent.OP -> Sent.read(frame);
            case Spawned.OP -> Spawned.read(frame);
            case AgentStopped.OP -> AgentStopped.read(frame);
            case Moved.OP -> Moved.read(frame);
            case StateSaved.OP -> StateSaved.read(frame);
            case State.OP -> State.read(frame);
            case ErrorFrame.OP -> ErrorFrame.read(frame);
            default -> throw new BadFrame("unknown op '" + quote(op, QUOTED_CHARS) + "'; see docs/device-protocol.md");
        };
    }

    // --- both ways ------------------------------------------------------------------------------

    /** {@code heartbeat}, either way: the frame sent most, so its text is a constant. */
    record Heartbeat() implements FromDevice, ToDevice {
        static final String OP = "heartbeat";
        static final Heartbeat INSTANCE = new Heartbeat();
        /** The frame as the library writes it and the node answers it (DeviceProtocol compares a frame's text with it). */
        static final String TEXT = "{\"op\":\"heartbeat\"}";

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator frame) {
        }

        @Override
        public String write() {
            return TEXT;
        }
    }

    // --- device → node ----------------------------------------------------------------------------

    /** {@code join}: {@code label} and {@code token} may be null; {@code computeUnits} is a claim, or null. */
    record Join(Double computeUnits, String label, String token) implements FromDevice {
        static final String OP = "join";
        static final int MAX_LABEL_CHARS = 100;

        static Join read(DeviceFrame f) {
            String label = f.string("label");
            if (label != null && label.length() > MAX_LABEL_CHARS) {
                throw new BadFrame("'label' must have at most " + MAX_LABEL_CHARS + " characters");
            }
            return new Join(f.absent("computeUnits") ? null : claimedUnits(f), label, f.string("token"));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            if (computeUnits != null) {
                writeNumber(f, "computeUnits", computeUnits);
            }
            writeOptional(f, "label", label);
            writeOptional(f, "token", token);
        }
    }

    /**
     * {@code solution}: the nonces as {@link ComputeUnitChallenge#nonces} reads them (null for no array
     * of the right length, -1 for an entry that is no nonce). Never refused as a frame: a wrong answer
     * is the challenge's refusal (403, then close 1008).
     */
    record Solution(long[] nonces) implements FromDevice {
        static final String OP = "solution";

        static Solution read(DeviceFrame f) {
            return new Solution(ComputeUnitChallenge.nonces(f.array("nonces")));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            if (nonces != null) {
                f.writeFieldName("nonces");
                f.writeArray(nonces, 0, nonces.length);
            }
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Solution s && Arrays.equals(nonces, s.nonces);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(nonces);
        }

        @Override
        public String toString() {
            return "Solution[nonces=" + Arrays.toString(nonces) + "]";
        }
    }

    /** {@code computeUnits}: a new claim. */
    record ComputeUnits(double computeUnits) implements FromDevice {
        static final String OP = "computeUnits";

        static ComputeUnits read(DeviceFrame f) {
            return new ComputeUnits(claimedUnits(f));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            writeNumber(f, "computeUnits", computeUnits);
        }
    }

    /** {@code send}: {@code ref} is null when the device wants only errors answered. */
    record Send(ACLMessage message, Long ref) implements FromDevice {
        static final String OP = "send";

        static Send read(DeviceFrame f) {
            Long ref = optionalRef(f);
            JsonObject json = f.object("message");
            if (json == null) {
                throw new BadFrame("'send' needs a 'message' object (an ACL message)");
            }
            return new Send(ACLMessageJson.fromJson(json), ref);
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeFieldName("message");
            f.writeRawValue(ACLMessageJson.write(message));
            writeOptional(f, "ref", ref);
        }
    }

    /** {@code spawn}: {@code device} is null for wherever compute units place it. */
    record Spawn(String agentClass, String name, Map<String, String> args, String device, long ref) implements FromDevice {
        static final String OP = "spawn";

        static Spawn read(DeviceFrame f) {
            long ref = requiredRef(f, OP);
            String agentClass = requiredString(f, "agentClass");
            String name = requiredString(f, "name");
            Map<String, String> args = argsField(f);
            String device = f.absent("device") ? null : requiredString(f, "device");
            return new Spawn(agentClass, name, args, device, ref);
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("agentClass", agentClass);
            f.writeStringField("name", name);
            writeArgs(f, args);
            writeOptional(f, "device", device);
            f.writeNumberField("ref", ref);
        }
    }

    /** {@code stopAgent}: a device stops an agent it hosts. */
    record StopAgent(AID aid, long ref) implements FromDevice {
        static final String OP = "stopAgent";

        static StopAgent read(DeviceFrame f) {
            AID aid = aidField(f, "aid");
            return new StopAgent(aid, requiredRef(f, OP));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("aid", aid.toString());
            f.writeNumberField("ref", ref);
        }
    }

    /**
     * {@code move}: moves one of the device's own agents to another device through its saved state
     * ({@code device}: that device; absent, one the node picks); answered with {@code moved}.
     */
    record Move(AID aid, String device, long ref) implements FromDevice {
        static final String OP = "move";

        static Move read(DeviceFrame f) {
            long ref = requiredRef(f, OP);
            AID aid = aidField(f, "aid");
            return new Move(aid, f.absent("device") ? null : requiredString(f, "device"), ref);
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("aid", aid.toString());
            writeOptional(f, "device", device);
            f.writeNumberField("ref", ref);
        }
    }

    /** {@code started}: the agent's {@code onStart} ran. */
    record Started(AID aid) implements FromDevice {
        static final String OP = "started";

        static Started read(DeviceFrame f) {
            return new Started(aidField(f, "aid"));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("aid", aid.toString());
        }
    }

    /** {@code stopped}: the agent's {@code onStop} ran and its Worker ended. */
    record Stopped(AID aid) implements FromDevice {
        static final String OP = "stopped";

        static Stopped read(DeviceFrame f) {
            return new Stopped(aidField(f, "aid"));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("aid", aid.toString());
        }
    }

    /** {@code ack}: the agent handled every delivery up to {@code seq}. */
    record Ack(AID aid, long seq) implements FromDevice {
        static final String OP = "ack";

        static Ack read(DeviceFrame f) {
            AID aid = aidField(f, "aid");
            Long seq = f.integer("seq");
            if (seq == null || seq < 1) {
                throw new BadFrame("'seq' must be a positive integer");
            }
            return new Ack(aid, seq);
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("aid", aid.toString());
            f.writeNumberField("seq", seq);
        }
    }

    /** {@code agentError}: an agent threw in {@code phase} ({@code start}, {@code message} or {@code stop}). */
    record AgentError(AID aid, String phase, String error) implements FromDevice {
        static final String OP = "agentError";
        /** What an {@code agentError} without a string {@code error} reports. */
        static final String NO_MESSAGE = "(no message)";

        static AgentError read(DeviceFrame f) {
            String phase = requiredString(f, "phase");
            if (!phase.equals("start") && !phase.equals("message") && !phase.equals("stop")) {
                throw new BadFrame("'phase' must be start, message or stop");
            }
            AID aid = aidField(f, "aid");
            return new AgentError(aid, phase, Objects.requireNonNullElse(f.string("error"), NO_MESSAGE));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("aid", aid.toString());
            f.writeStringField("phase", phase);
            f.writeStringField("error", error);
        }
    }

    /** {@code saveState}: {@code state} is the JSON text the device wrote, any kind of value, kept as it is. */
    record SaveState(AID aid, long version, String state, long ref) implements FromDevice {
        static final String OP = "saveState";

        static SaveState read(DeviceFrame f) {
            long ref = requiredRef(f, OP);
            AID aid = aidField(f, "aid");
            Long version = f.integer("version");
            if (version == null || version < 0) {
                throw new BadFrame("'version' must be an integer, 0 or more");
            }
            if (!f.has("state")) {
                throw new BadFrame("'saveState' needs a 'state' (any JSON value)");
            }
            return new SaveState(aid, version, f.json("state"), ref);
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("aid", aid.toString());
            f.writeNumberField("version", version);
            writeState(f, state);
            f.writeNumberField("ref", ref);
        }
    }

    /** {@code loadState}. */
    record LoadState(AID aid, long ref) implements FromDevice {
        static final String OP = "loadState";

        static LoadState read(DeviceFrame f) {
            long ref = requiredRef(f, OP);
            return new LoadState(aidField(f, "aid"), ref);
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("aid", aid.toString());
            f.writeNumberField("ref", ref);
        }
    }

    /** {@code leave}. */
    record Leave() implements FromDevice {
        static final String OP = "leave";
        static final Leave INSTANCE = new Leave();

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) {
        }
    }

    // --- node → device ----------------------------------------------------------------------------

    /** {@code challenge}: the compute-unit workload of docs/device-protocol.md, "Compute units". */
    record Challenge(String seed, int puzzles, int zeroBits) implements ToDevice {
        static final String OP = "challenge";

        static Challenge read(DeviceFrame f) {
            return new Challenge(requiredString(f, "seed"), (int) nonNegative(f, "puzzles"), (int) nonNegative(f, "zeroBits"));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("seed", seed);
            f.writeNumberField("puzzles", puzzles);
            f.writeNumberField("zeroBits", zeroBits);
        }
    }

    /** {@code welcome}: the device joined. */
    record Welcome(String device, String platform, double computeUnits, long heartbeatMs, int maxFrameBytes, int maxStateBytes,
            int maxPendingState) implements ToDevice {
        static final String OP = "welcome";

        static Welcome read(DeviceFrame f) {
            Double units = f.number("computeUnits");
            if (units == null) {
                throw new BadFrame("'computeUnits' must be a number");
            }
            return new Welcome(requiredString(f, "device"), requiredString(f, "platform"), units, nonNegative(f, "heartbeatMs"),
                    (int) nonNegative(f, "maxFrameBytes"), (int) nonNegative(f, "maxStateBytes"), (int) nonNegative(f, "maxPendingState"));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("device", device);
            f.writeStringField("platform", platform);
            writeNumber(f, "computeUnits", computeUnits);
            f.writeNumberField("heartbeatMs", heartbeatMs);
            f.writeNumberField("maxFrameBytes", maxFrameBytes);
            f.writeNumberField("maxStateBytes", maxStateBytes);
            f.writeNumberField("maxPendingState", maxPendingState);
        }
    }

    /** {@code start}: {@code state} is the saved state's JSON text as the store holds it (null when none), at {@code version}. */
    record Start(AID aid, String agentClass, String module, Map<String, String> args, long version, String state) implements ToDevice {
        static final String OP = "start";

        Start(AID aid, String agentClass, String module, Map<String, String> args, SavedState saved) {
            this(aid, agentClass, module, args, saved.version(), saved.state());
        }

        static Start read(DeviceFrame f) {
            AID aid = aidField(f, "aid");
            String agentClass = requiredString(f, "agentClass");
            String module = requiredString(f, "module");
            Map<String, String> args = argsField(f);
            long version = nonNegative(f, "version");
            return new Start(aid, agentClass, module, args, version, f.absent("state") ? null : f.json("state"));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("aid", aid.toString());
            f.writeStringField("agentClass", agentClass);
            f.writeStringField("module", module);
            writeArgs(f, args);
            f.writeNumberField("version", version);
            writeState(f, state);
        }
    }

    /**
     * {@code stop}; {@code moved}: the agent has not stopped but moves to another device, so the
     * device ends it without its {@code onStop} (written only when true).
     */
    record Stop(AID aid, boolean moved) implements ToDevice {
        static final String OP = "stop";

        Stop(AID aid) {
            this(aid, false);
        }

        static Stop read(DeviceFrame f) {
            return new Stop(aidField(f, "aid"), flag(f, "moved"));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("aid", aid.toString());
            if (moved) {
                f.writeBooleanField("moved", true);
            }
        }
    }

    /**
     * {@code deliver}: written once per message to a client agent (the hot path to devices) and kept
     * as text until the device acknowledges it; the message as ACLMessageJson writes it.
     */
    record Deliver(AID aid, long seq, ACLMessage message) implements ToDevice {
        static final String OP = "deliver";

        static Deliver read(DeviceFrame f) {
            AID aid = aidField(f, "aid");
            Long seq = f.integer("seq");
            if (seq == null || seq < 1) {
                throw new BadFrame("'seq' must be a positive integer");
            }
            JsonObject json = f.object("message");
            if (json == null) {
                throw new BadFrame("'deliver' needs a 'message' object (an ACL message)");
            }
            return new Deliver(aid, seq, ACLMessageJson.fromJson(json));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeStringField("aid", aid.toString());
            f.writeNumberField("seq", seq);
            f.writeFieldName("message");
            f.writeRawValue(ACLMessageJson.write(message));
        }
    }

    /** {@code sent}: every receiver's node admitted the message. */
    record Sent(long ref) implements ToDevice {
        static final String OP = "sent";

        static Sent read(DeviceFrame f) {
            return new Sent(requiredRef(f, OP));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeNumberField("ref", ref);
        }
    }

    /** {@code spawned}: the agent started, at {@code location}. */
    record Spawned(long ref, AID aid, String location) implements ToDevice {
        static final String OP = "spawned";

        static Spawned read(DeviceFrame f) {
            long ref = requiredRef(f, OP);
            return new Spawned(ref, aidField(f, "aid"), requiredString(f, "location"));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeNumberField("ref", ref);
            f.writeStringField("aid", aid.toString());
            f.writeStringField("location", location);
        }
    }

    /** {@code agentStopped}: the agent takes no more messages. */
    record AgentStopped(long ref, AID aid) implements ToDevice {
        static final String OP = "agentStopped";

        static AgentStopped read(DeviceFrame f) {
            long ref = requiredRef(f, OP);
            return new AgentStopped(ref, aidField(f, "aid"));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeNumberField("ref", ref);
            f.writeStringField("aid", aid.toString());
        }
    }

    /** {@code moved}: the answer to {@code move}, once the agent has started on {@code location}, its new device. */
    record Moved(long ref, AID aid, String location) implements ToDevice {
        static final String OP = "moved";

        static Moved read(DeviceFrame f) {
            long ref = requiredRef(f, OP);
            return new Moved(ref, aidField(f, "aid"), requiredString(f, "location"));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeNumberField("ref", ref);
            f.writeStringField("aid", aid.toString());
            f.writeStringField("location", location);
        }
    }

    /** {@code stateSaved}: the store acknowledged the state, now at {@code version}. */
    record StateSaved(long ref, AID aid, long version) implements ToDevice {
        static final String OP = "stateSaved";

        static StateSaved read(DeviceFrame f) {
            long ref = requiredRef(f, OP);
            return new StateSaved(ref, aidField(f, "aid"), nonNegative(f, "version"));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeNumberField("ref", ref);
            f.writeStringField("aid", aid.toString());
            f.writeNumberField("version", version);
        }
    }

    /** {@code state}: the answer to {@code loadState}; {@code state} is JSON text, null when nothing is saved. */
    record State(long ref, AID aid, long version, String state) implements ToDevice {
        static final String OP = "state";

        State(long ref, AID aid, SavedState saved) {
            this(ref, aid, saved.version(), saved.state());
        }

        static State read(DeviceFrame f) {
            long ref = requiredRef(f, OP);
            AID aid = aidField(f, "aid");
            return new State(ref, aid, nonNegative(f, "version"), f.absent("state") ? null : f.json("state"));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeNumberField("ref", ref);
            f.writeStringField("aid", aid.toString());
            f.writeNumberField("version", version);
            writeState(f, state);
        }
    }

    /**
     * {@code error}: {@code ref} is null when the failed frame had none; {@code version} is a state
     * refusal's version of the agent's state now, else null. The text is cut to {@link #MAX_ERROR_CHARS}.
     */
    record ErrorFrame(int status, String error, Long ref, Long version) implements ToDevice {
        static final String OP = "error";

        static ErrorFrame read(DeviceFrame f) {
            long status = nonNegative(f, "status");
            String error = f.string("error");
            if (error == null) {
                throw new BadFrame("'error' must be a string");
            }
            return new ErrorFrame((int) status, error, optionalRef(f), f.absent("version") ? null : nonNegative(f, "version"));
        }

        @Override
        public String op() {
            return OP;
        }

        @Override
        public void writeFields(JsonGenerator f) throws IOException {
            f.writeNumberField("status", status);
            // Refusals name what they refuse (a class, an AID, a field's value): never all of a large one.
            f.writeStringField("error", quote(error, MAX_ERROR_CHARS));
            writeOptional(f, "ref", ref);
            writeOptional(f, "version", version);
        }
    }

    // --- fields -----------------------------------------------------------------------------------

    /**
     * A frame's {@code ref}, or null when it has none: read before anything else, so that every
     * refusal of a request (its other fields included) answers to it.
     */
    static Long optionalRef(DeviceFrame f) {
        if (f.absent("ref")) {
            return null;
        }
        Long ref = f.integer("ref");
        if (ref == null) {
            throw new BadFrame("'ref' must be an integer");
        }
        return ref;
    }

    private static long requiredRef(DeviceFrame f, String op) {
        Long ref = optionalRef(f);
        if (ref == null) {
            throw new BadFrame("'" + op + "' needs a numeric 'ref' to answer to");
        }
        return ref;
    }

    private static String requiredString(DeviceFrame f, String field) {
        String value = f.string(field);
        if (value == null || value.isEmpty()) {
            throw new BadFrame("'" + field + "' must be a non-empty string");
        }
        return value;
    }

    /** An optional boolean field: absent or null is false. */
    private static boolean flag(DeviceFrame f, String field) {
        if (f.absent(field)) {
            return false;
        }
        Boolean value = f.bool(field);
        if (value == null) {
            throw new BadFrame("'" + field + "' must be true or false");
        }
        return value;
    }

    private static AID aidField(DeviceFrame f, String field) {
        try {
            return AID.parse(requiredString(f, field));
        } catch (IllegalArgumentException e) {
            throw new BadFrame("'" + field + "': " + e.getMessage());
        }
    }

    private static long nonNegative(DeviceFrame f, String field) {
        Long n = f.integer(field);
        if (n == null || n < 0) {
            throw new BadFrame("'" + field + "' must be an integer, 0 or more");
        }
        return n;
    }

    private static double claimedUnits(DeviceFrame f) {
        Double units = f.number("computeUnits");
        if (units == null || !(units > 0) || units > MAX_COMPUTE_UNITS) {
            throw new BadFrame("'computeUnits' must be a number above 0 and at most " + (long) MAX_COMPUTE_UNITS);
        }
        return units;
    }

    private static Map<String, String> argsField(DeviceFrame f) {
        if (f.absent("args")) {
            return Map.of();
        }
        JsonObject object = f.object("args");
        if (object == null) {
            throw new BadFrame("'args' must be an object of strings");
        }
        Map<String, String> args = new LinkedHashMap<>();
        object.forEach((k, v) -> {
            if (!(v instanceof JsonString s)) {
                throw new BadFrame("'args." + quote(k, QUOTED_CHARS) + "' must be a string");
            }
            args.put(k, s.getString());
        });
        return args;
    }

    private static void writeArgs(JsonGenerator f, Map<String, String> args) throws IOException {
        f.writeObjectFieldStart("args");
        for (Map.Entry<String, String> arg : args.entrySet()) {
            f.writeStringField(arg.getKey(), arg.getValue());
        }
        f.writeEndObject();
    }

    private static void writeState(JsonGenerator f, String stateJson) throws IOException {
        f.writeFieldName("state");
        if (stateJson == null) {
            f.writeNull();
        } else {
            f.writeRawValue(stateJson);
        }
    }

    private static void writeOptional(JsonGenerator f, String field, String value) throws IOException {
        if (value != null) {
            f.writeStringField(field, value);
        }
    }

    private static void writeOptional(JsonGenerator f, String field, Long value) throws IOException {
        if (value != null) {
            f.writeNumberField(field, value);
        }
    }

    /** A number as JavaScript writes it: a whole one without a fraction (700, not 700.0). */
    private static void writeNumber(JsonGenerator f, String field, double value) throws IOException {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            f.writeNumberField(field, (long) value);
        } else {
            f.writeNumberField(field, value);
        }
    }

    /**
     * At most {@code max} characters of {@code text}, marked when cut: what a refusal repeats of what
     * it refuses, so that a large refused value does not come back as large (or fill a log).
     */
    static String quote(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end) + "...(" + text.length() + " characters)";
    }
}
