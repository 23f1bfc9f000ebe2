package org.siebog.device;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import org.siebog.agent.AgentClass;
import org.siebog.agentmanager.AgentClassRegistry;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AgentInfo;
import org.siebog.api.AgentManager;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.api.UnknownAgentClassException;
import org.siebog.api.UnknownAgentException;
import org.siebog.delivery.MessageRouter;
import org.siebog.message.ACLMessageJson;
import org.siebog.state.StateManager;
import org.siebog.state.StateRefusedException;

/**
 * The device → server half of docs/device-protocol.md: reads a frame, checks it, and acts. A
 * mistake inside a well-formed frame is answered with an {@code error} frame and changes nothing;
 * a frame that breaks the protocol closes the socket.
 */
@ApplicationScoped
public class DeviceProtocol {

    static final double MAX_COMPUTE_UNITS = 1_000_000;
    /** Close code 1008: the device broke a rule of admission (docs/device-protocol.md). */
    static final int POLICY_VIOLATION = 1008;

    @Inject
    WebClientManagerBean devices;

    @Inject
    MessageRouter router;

    @EJB
    AgentManager agents;

    @Inject
    AgentClassRegistry classes;

    @Inject
    StateManager states;

    @Resource
    ManagedExecutorService workers;

    /** A refusal inside a frame: answered, never thrown further. */
    private static final class BadField extends SiebogException {
        BadField(String message) {
            super(message);
        }
    }

    private static final class AlreadyJoined extends SiebogException {
        AlreadyJoined(String device) {
            super(device != null ? "this socket already joined as device " + device
                    : "this socket is already joining: answer its 'challenge' with 'solution'");
        }

        @Override
        public int status() {
            return 409;
        }
    }

    /** The frame a joined device sends most (every heartbeatMs), as the library writes it. */
    private static final String HEARTBEAT = "{\"op\":\"heartbeat\"}";

    void handle(DeviceConnection c, String text) {
        FrameRateLimiter.Verdict rate = c.rate();
        if (rate == FrameRateLimiter.Verdict.CLOSE) {
            tooFast(c);
            return;
        }
        if (c.joined() && text.equals(HEARTBEAT)) {
            // Answered without parsing: 19,000 idle devices send 3,800 of these a second.
            c.touch();
            c.send(rate == FrameRateLimiter.Verdict.ADMIT ? DeviceFrames.heartbeat() : slowDown(c, null, "heartbeat"));
            return;
        }
        DeviceFrame frame;
        try {
            frame = DeviceFrame.parse(text);
        } catch (ProtocolViolation v) {
            c.close(v.code, v.getMessage());
            return;
        }
        c.touch();
        String op = frame.op();
        if (!c.joined() && !op.equals("join") && !(op.equals("solution") && c.joining() != null)) {
            c.close(4001, c.joining() == null ? "send 'join' first" : "answer the 'challenge' with 'solution' first");
            return;
        }
        Long ref = null;
        try {
            ref = optionalRef(frame);
            if (rate == FrameRateLimiter.Verdict.REFUSE) {
                c.send(slowDown(c, ref, op));
                return;
            }
            switch (op) {
                case "join" -> join(c, frame);
                case "solution" -> solution(c, frame);
                case "heartbeat" -> c.send(DeviceFrames.heartbeat());
                case "computeUnits" -> reportComputeUnits(c, frame);
                case "send" -> send(c, frame, ref);
                case "spawn" -> spawn(c, frame, ref);
                case "stopAgent" -> stopAgent(c, aid(frame, "aid"), ref);
                case "saveState" -> saveState(c, frame, ref);
                case "loadState" -> loadState(c, frame, ref);
                case "started", "stopped" -> devices.fromDevice(c, op, aid(frame, "aid"), 0, null);
                case "ack" -> devices.fromDevice(c, op, aid(frame, "aid"), seq(frame), null);
                case "agentError" -> devices.fromDevice(c, "agentError:" + phase(frame), aid(frame, "aid"), 0,
                        Objects.requireNonNullElse(frame.string("error"), "(no message)"));
                case "leave" -> c.close(1000, "left");
                default -> throw new BadField("unknown op '" + DeviceFrames.quote(op, DeviceFrames.QUOTED_CHARS)
                        + "'; see docs/device-protocol.md");
            }
        } catch (SiebogException refusal) {
            c.send(errorFrame(ref, refusal));
        }
    }

    /** The 429 for a frame over the device's rate: it was not acted on. */
    private static String slowDown(DeviceConnection c, Long ref, String op) {
        DeviceLimits limits = c.limits();
        return DeviceFrames.error(ref, 429, "too many frames: a device may send " + limits.framesPerSecond() + " a second ("
                + limits.frameBurst() + " at once); this '" + DeviceFrames.quote(op, DeviceFrames.QUOTED_CHARS)
                + "' was not acted on", null);
    }

    /** A device that went on sending long after being told to slow down: closed, and its agents move. */
    private void tooFast(DeviceConnection c) {
        c.shutDown();
        c.close(POLICY_VIOLATION, "kept sending over " + c.limits().framesPerSecond() + " frames a second after "
                + c.limits().maxRefusedFrames() + " refusals (429)");
        devices.closed(c);
    }

    private void join(DeviceConnection c, DeviceFrame frame) {
        if (c.joined()) {
            throw new AlreadyJoined(c.deviceId());
        }
        if (c.joining() != null) {
            throw new AlreadyJoined(null);
        }
        String refusal = JoinToken.refusal(JoinToken.configured(), frame.string("token"));
        if (refusal != null) {
            // Before the close, and nothing else is queued to a socket that has not joined: the device reads why.
            c.send(DeviceFrames.error(null, 403, refusal, null));
            c.close(POLICY_VIOLATION, "join refused: " + refusal);
            return;
        }
        String label = Objects.requireNonNullElse(frame.string("label"), "");
        if (label.length() > 100) {
            throw new BadField("'label' must have at most 100 characters");
        }
        if (ComputeUnitPolicy.current().trustClaims() && !frame.absent("computeUnits")) {
            devices.join(c, computeUnits(frame), label); // a test deployment: the claim is taken
            return;
        }
        // Measured, never taken on trust: the device's speed is what it shows on a fresh workload.
        ComputeUnitChallenge challenge = ComputeUnitChallenge.issue();
        c.challenged(new DeviceConnection.Joining(challenge, label));
        c.send(DeviceFrames.challenge(challenge.seedHex(), ComputeUnitChallenge.PUZZLES, ComputeUnitChallenge.ZERO_BITS));
    }

    /** The answer to a join's challenge: a right one joins the device with the units its time shows, a wrong one is refused. */
    private void solution(DeviceConnection c, DeviceFrame frame) {
        long answeredAt = System.nanoTime();
        DeviceConnection.Joining joining = c.joining();
        if (c.joined() || joining == null) {
            throw new BadField("no challenge to answer: this device has joined");
        }
        String wrong = joining.challenge().refusal(ComputeUnitChallenge.nonces(frame.array("nonces")));
        if (wrong != null) {
            // As for a wrong join token: the reason first, then the close; nothing was registered.
            c.send(DeviceFrames.error(null, 403, "join refused: the answer to the compute-unit challenge is wrong: " + wrong
                    + " (docs/device-protocol.md, 'Compute units')", null));
            c.close(POLICY_VIOLATION, "join refused: wrong answer to the compute-unit challenge");
            return;
        }
        devices.join(c, joining.challenge().computeUnits(answeredAt, ComputeUnitPolicy.current().maxComputeUnits()), joining.label());
    }

    /** A device's new figure: taken only where claims are trusted (otherwise units are measured, once, at the join). */
    private void reportComputeUnits(DeviceConnection c, DeviceFrame frame) {
        double claimed = computeUnits(frame);
        if (ComputeUnitPolicy.current().trustClaims()) {
            devices.reportComputeUnits(c, claimed);
        }
    }

    private void send(DeviceConnection c, DeviceFrame frame, Long ref) {
        JsonObject json = frame.object("message");
        if (json == null) {
            throw new BadField("'send' needs a 'message' object (an ACL message)");
        }
        ACLMessage message = ACLMessageJson.fromJson(json);
        if (message.sender() != null && !devices.hosts(c, message.sender())) {
            throw new NotYourAgentException(c.deviceId(), message.sender());
        }
        CompletableFuture<Void> admitted = router.post(message);
        admitted.whenComplete((ok, failure) -> {
            if (failure != null) {
                c.send(errorFrame(ref, failure));
            } else if (ref != null) {
                c.send(DeviceFrames.sent(ref));
            }
        });
    }

    private void spawn(DeviceConnection c, DeviceFrame frame, Long ref) {
        requireRef(ref, "spawn");
        String agentClass = requiredString(frame, "agentClass");
        String name = requiredString(frame, "name");
        Map<String, String> args = args(frame);
        String device = frame.absent("device") ? null : requiredString(frame, "device");
        if (device != null && !device.equals(c.deviceId())) {
            throw SpawnRefusedException.onAnotherDevice(c.deviceId(), device);
        }
        answerFromWorker(c, ref, () -> {
            // Here, not on the socket's thread: finding a class lists the deployments.
            AgentClass type = classes.find(agentClass).orElseThrow(() -> new UnknownAgentClassException(agentClass));
            SpawnPolicy policy = SpawnPolicy.current();
            if (!policy.allows(type)) {
                throw SpawnRefusedException.notSpawnable(agentClass, policy);
            }
            AgentInfo info = agents.start(agentClass, name, args, null, device);
            return DeviceFrames.spawned(ref, info.aid().toString(), info.location());
        });
    }

    /** A device stops only its own agents (others go through the REST API, where admins are). */
    private void stopAgent(DeviceConnection c, AID aid, Long ref) {
        requireRef(ref, "stopAgent");
        requireOwn(c, aid);
        answerFromWorker(c, ref, () -> {
            agents.stop(aid);
            return DeviceFrames.agentStopped(ref, aid.toString());
        });
    }

    /**
     * Saves a state of one of this device's agents; answered once the store acknowledged it. The
     * checks that need no store come first, so a refused frame costs the store nothing.
     */
    private void saveState(DeviceConnection c, DeviceFrame frame, Long ref) {
        requireRef(ref, "saveState");
        AID aid = aid(frame, "aid");
        long version = nonNegative(frame, "version");
        if (!frame.has("state")) {
            throw new BadField("'saveState' needs a 'state' (any JSON value)");
        }
        String state = frame.json("state");
        long bytes = DeviceConnection.utf8Length(state);
        if (bytes > WebClientManagerBean.MAX_STATE_BYTES) {
            throw StateRefusedException.tooLarge(aid, bytes, WebClientManagerBean.MAX_STATE_BYTES);
        }
        requireOwn(c, aid);
        beginStateRequest(c);
        states.save(aid, version, state, c.deviceId()).whenComplete((saved, failure) -> {
            c.endStateRequest();
            c.send(failure == null ? DeviceFrames.stateSaved(ref, aid, saved) : errorFrame(ref, failure));
        });
    }

    private void loadState(DeviceConnection c, DeviceFrame frame, Long ref) {
        requireRef(ref, "loadState");
        AID aid = aid(frame, "aid");
        requireOwn(c, aid);
        beginStateRequest(c);
        states.load(aid).whenComplete((saved, failure) -> {
            c.endStateRequest();
            c.send(failure == null ? DeviceFrames.state(ref, aid, saved) : errorFrame(ref, failure));
        });
    }

    private void requireOwn(DeviceConnection c, AID aid) {
        if (!devices.hosts(c, aid)) {
            throw agents.find(aid).isPresent() ? new NotYourAgentException(c.deviceId(), aid) : new UnknownAgentException(aid);
        }
    }

    private static void beginStateRequest(DeviceConnection c) {
        if (!c.beginStateRequest(WebClientManagerBean.MAX_PENDING_STATE)) {
            throw StateRefusedException.tooManyPending(WebClientManagerBean.MAX_PENDING_STATE);
        }
    }

    /**
     * Runs a request that waits (an agent's start or stop goes over the network to its device) on a
     * worker thread, never the socket's, and answers with its frame or the refusal.
     */
    private void answerFromWorker(DeviceConnection c, Long ref, Supplier<String> request) {
        workers.execute(() -> {
            String answer;
            try {
                answer = request.get();
            } catch (RuntimeException e) {
                answer = errorFrame(ref, e);
            }
            c.send(answer);
        });
    }

    /** The {@code error} frame for a failure: the refusal's status and message, and a state refusal's version. */
    private static String errorFrame(Long ref, Throwable failure) {
        SiebogException refusal = unwrap(failure);
        Long version = refusal instanceof StateRefusedException s ? s.version() : null;
        return DeviceFrames.error(ref, refusal.status(), refusal.getMessage(), version);
    }

    private static SiebogException unwrap(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SiebogException se) {
                return se;
            }
        }
        return new RemoteNodeException("failed: " + failure);
    }

    private static double computeUnits(DeviceFrame frame) {
        Double units = frame.number("computeUnits");
        if (units == null || !(units > 0) || units > MAX_COMPUTE_UNITS) {
            throw new BadField("'computeUnits' must be a number above 0 and at most " + (long) MAX_COMPUTE_UNITS);
        }
        return units;
    }

    private static Long optionalRef(DeviceFrame frame) {
        if (frame.absent("ref")) {
            return null;
        }
        Long ref = frame.integer("ref");
        if (ref == null) {
            throw new BadField("'ref' must be an integer");
        }
        return ref;
    }

    private static void requireRef(Long ref, String op) {
        if (ref == null) {
            throw new BadField("'" + op + "' needs a numeric 'ref' to answer to");
        }
    }

    private static long nonNegative(DeviceFrame frame, String field) {
        Long n = frame.integer(field);
        if (n == null || n < 0) {
            throw new BadField("'" + field + "' must be an integer, 0 or more");
        }
        return n;
    }

    private static long seq(DeviceFrame frame) {
        Long seq = frame.integer("seq");
        if (seq == null || seq < 1) {
            throw new BadField("'seq' must be a positive integer");
        }
        return seq;
    }

    private static String phase(DeviceFrame frame) {
        String phase = requiredString(frame, "phase");
        if (!phase.equals("start") && !phase.equals("message") && !phase.equals("stop")) {
            throw new BadField("'phase' must be start, message or stop");
        }
        return phase;
    }

    private static AID aid(DeviceFrame frame, String field) {
        try {
            return AID.parse(requiredString(frame, field));
        } catch (IllegalArgumentException e) {
            throw new BadField("'" + field + "': " + e.getMessage());
        }
    }

    private static String requiredString(DeviceFrame frame, String field) {
        String value = frame.string(field);
        if (value == null || value.isEmpty()) {
            throw new BadField("'" + field + "' must be a non-empty string");
        }
        return value;
    }

    private static Map<String, String> args(DeviceFrame frame) {
        if (frame.absent("args")) {
            return Map.of();
        }
        JsonObject object = frame.object("args");
        if (object == null) {
            throw new InvalidAgentRequestException("'args' must be an object of strings");
        }
        Map<String, String> args = new LinkedHashMap<>();
        object.forEach((k, v) -> {
            if (!(v instanceof JsonString s)) {
                throw new InvalidAgentRequestException("'args." + k + "' must be a string");
            }
            args.put(k, s.getString());
        });
        return args;
    }
}
