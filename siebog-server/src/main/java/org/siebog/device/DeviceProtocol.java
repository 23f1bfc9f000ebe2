package org.siebog.device;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.agent.AgentClass;
import org.siebog.agentmanager.AgentClassRegistry;
import org.siebog.agentmanager.Mobility;
import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AgentInfo;
import org.siebog.api.AgentManager;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.api.UnknownAgentClassException;
import org.siebog.api.UnknownAgentException;
import org.siebog.delivery.MessageRouter;
import org.siebog.device.DeviceFrames.Ack;
import org.siebog.device.DeviceFrames.AgentError;
import org.siebog.device.DeviceFrames.AgentStopped;
import org.siebog.device.DeviceFrames.BadFrame;
import org.siebog.device.DeviceFrames.Challenge;
import org.siebog.device.DeviceFrames.ComputeUnits;
import org.siebog.device.DeviceFrames.ErrorFrame;
import org.siebog.device.DeviceFrames.FromDevice;
import org.siebog.device.DeviceFrames.Heartbeat;
import org.siebog.device.DeviceFrames.Join;
import org.siebog.device.DeviceFrames.Leave;
import org.siebog.device.DeviceFrames.LoadState;
import org.siebog.device.DeviceFrames.SaveState;
import org.siebog.device.DeviceFrames.Send;
import org.siebog.device.DeviceFrames.Sent;
import org.siebog.device.DeviceFrames.Solution;
import org.siebog.device.DeviceFrames.Spawn;
import org.siebog.device.DeviceFrames.Spawned;
import org.siebog.device.DeviceFrames.Started;
import org.siebog.device.DeviceFrames.State;
import org.siebog.device.DeviceFrames.StateSaved;
import org.siebog.device.DeviceFrames.StopAgent;
import org.siebog.device.DeviceFrames.Stopped;
import org.siebog.platform.Failures;
import org.siebog.state.StateManager;
import org.siebog.state.StateRefusedException;

/**
 * The device → server half of docs/device-protocol.md: reads a frame into its record
 * ({@link DeviceFrames}), and acts. A mistake inside a well-formed frame is answered with an
 * {@code error} frame and changes nothing; a frame that breaks the protocol closes the socket.
 */
@ApplicationScoped
public class DeviceProtocol {

    /** Close code 1008: the device broke a rule of admission (docs/device-protocol.md). */
    static final int POLICY_VIOLATION = 1008;

    @Inject
    DeviceSockets sockets;

    @Inject
    ClientAgentProxies proxies;

    @Inject
    DevicePlacement placement;

    @Inject
    MessageRouter router;

    @EJB
    AgentManager agents;

    @Inject
    Mobility mobility;

    @Inject
    AgentClassRegistry classes;

    @Inject
    StateManager states;

    @Resource
    ManagedExecutorService workers;

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

    void handle(DeviceConnection c, String text) {
        FrameRateLimiter.Verdict rate = c.rate();
        if (rate == FrameRateLimiter.Verdict.CLOSE) {
            tooFast(c);
            return;
        }
        if (c.joined() && text.equals(Heartbeat.TEXT)) {
            // Answered without parsing: 19,000 idle devices send 3,800 of these a second.
            c.touch();
            c.send(rate == FrameRateLimiter.Verdict.ADMIT ? Heartbeat.TEXT : slowDown(c, null, Heartbeat.OP));
            return;
        }
        DeviceFrame parsed;
        try {
            parsed = DeviceFrame.parse(text);
        } catch (ProtocolViolation v) {
            c.close(v.code, v.getMessage());
            return;
        }
        c.touch();
        String op = parsed.op();
        if (!c.joined() && !op.equals(Join.OP) && !(op.equals(Solution.OP) && c.joining() != null)) {
            c.close(4001, c.joining() == null ? "send 'join' first" : "answer the 'challenge' with 'solution' first");
            return;
        }
        Long ref = null;
        try {
            ref = DeviceFrames.optionalRef(parsed);
            if (rate == FrameRateLimiter.Verdict.REFUSE) {
                c.send(slowDown(c, ref, op));
                return;
            }
            // The frame's own fields first (a BadFrame, 400, naming the field), then what it asks for.
            FromDevice frame = DeviceFrames.fromDevice(parsed);
            if (frame instanceof Ack ack) {
                c.countMessage();
                proxies.fromDevice(c, Ack.OP, ack.aid(), ack.seq(), null);
            } else if (frame instanceof Send send) {
                c.countMessage();
                send(c, send);
            } else if (frame instanceof SaveState save) {
                saveState(c, save);
            } else if (frame instanceof LoadState load) {
                loadState(c, load);
            } else if (frame instanceof Heartbeat) {
                c.send(Heartbeat.TEXT);
            } else if (frame instanceof Started started) {
                proxies.fromDevice(c, Started.OP, started.aid(), 0, null);
            } else if (frame instanceof Stopped stopped) {
                proxies.fromDevice(c, Stopped.OP, stopped.aid(), 0, null);
            } else if (frame instanceof AgentError error) {
                proxies.fromDevice(c, AgentError.OP + ":" + error.phase(), error.aid(), 0, error.error());
            } else if (frame instanceof Spawn spawn) {
                spawn(c, spawn);
            } else if (frame instanceof DeviceFrames.Move move) {
                move(c, move);
            } else if (frame instanceof StopAgent stop) {
                stopAgent(c, stop);
            } else if (frame instanceof Join join) {
                join(c, join);
            } else if (frame instanceof Solution solution) {
                solution(c, solution);
            } else if (frame instanceof ComputeUnits units) {
                reportComputeUnits(c, units.computeUnits());
            } else if (frame instanceof Leave) {
                c.close(1000, "left");
            }
        } catch (SiebogException refusal) {
            c.send(errorFrame(ref, refusal));
        }
    }

    /** The 429 for a frame over the device's rate: it was not acted on. */
    private static String slowDown(DeviceConnection c, Long ref, String op) {
        DeviceLimits limits = c.limits();
        return new ErrorFrame(429, "too many frames: a device may send " + limits.framesPerSecond() + " a second ("
                + limits.frameBurst() + " at once); this '" + DeviceFrames.quote(op, DeviceFrames.QUOTED_CHARS)
                + "' was not acted on", ref, null).write();
    }

    /** A device that went on sending long after being told to slow down: closed, and its agents move. */
    private void tooFast(DeviceConnection c) {
        c.shutDown();
        c.close(POLICY_VIOLATION, "kept sending over " + c.limits().framesPerSecond() + " frames a second after "
                + c.limits().maxRefusedFrames() + " refusals (429)");
        sockets.closed(c);
    }

    private void join(DeviceConnection c, Join join) {
        if (c.joined()) {
            throw new AlreadyJoined(c.deviceId());
        }
        if (c.joining() != null) {
            throw new AlreadyJoined(null);
        }
        String refusal = JoinToken.refusal(JoinToken.configured(), join.token());
        if (refusal != null) {
            // Before the close, and nothing else is queued to a socket that has not joined: the device reads why.
            c.send(new ErrorFrame(403, refusal, null, null).write());
            c.close(POLICY_VIOLATION, "join refused: " + refusal);
            return;
        }
        String label = Objects.requireNonNullElse(join.label(), "");
        if (ComputeUnitPolicy.current().trustClaims() && join.computeUnits() != null) {
            sockets.join(c, join.computeUnits(), label); // a test deployment: the claim is taken
            return;
        }
        // Measured, never taken on trust: the device's speed is what it shows on a fresh workload.
        ComputeUnitChallenge challenge = ComputeUnitChallenge.issue();
        c.challenged(new DeviceConnection.Joining(challenge, label));
        c.send(new Challenge(challenge.seedHex(), ComputeUnitChallenge.PUZZLES, ComputeUnitChallenge.ZERO_BITS).write());
    }

    /** The answer to a join's challenge: a right one joins the device with the units its time shows, a wrong one is refused. */
    private void solution(DeviceConnection c, Solution solution) {
        long answeredAt = System.nanoTime();
        DeviceConnection.Joining joining = c.joining();
        if (c.joined() || joining == null) {
            throw new BadFrame("no challenge to answer: this device has joined");
        }
        String wrong = joining.challenge().refusal(solution.nonces());
        if (wrong != null) {
            // As for a wrong join token: the reason first, then the close; nothing was registered.
            c.send(new ErrorFrame(403, "join refused: the answer to the compute-unit challenge is wrong: " + wrong
                    + " (docs/device-protocol.md, 'Compute units')", null, null).write());
            c.close(POLICY_VIOLATION, "join refused: wrong answer to the compute-unit challenge");
            return;
        }
        sockets.join(c, joining.challenge().computeUnits(answeredAt, ComputeUnitPolicy.current().maxComputeUnits()), joining.label());
    }

    /** A device's new figure: taken only where claims are trusted (otherwise units are measured, once, at the join). */
    private void reportComputeUnits(DeviceConnection c, double claimed) {
        if (ComputeUnitPolicy.current().trustClaims()) {
            placement.reportComputeUnits(c.deviceId(), claimed);
        }
    }

    private void send(DeviceConnection c, Send send) {
        ACLMessage message = send.message();
        Long ref = send.ref();
        if (message.sender() != null && !proxies.hostedBy(c, message.sender())) {
            throw new NotYourAgentException(c.deviceId(), message.sender());
        }
        CompletableFuture<Void> admitted = router.post(message);
        admitted.whenComplete((ok, failure) -> {
            if (failure != null) {
                c.send(errorFrame(ref, failure));
            } else if (ref != null) {
                c.send(new Sent(ref).write());
            }
        });
    }

    private void spawn(DeviceConnection c, Spawn spawn) {
        String device = spawn.device();
        if (device != null && !device.equals(c.deviceId())) {
            throw SpawnRefusedException.onAnotherDevice(c.deviceId(), device);
        }
        long ref = spawn.ref();
        answerFromWorker(c, ref, () -> {
            // Here, not on the socket's thread: finding a class lists the deployments.
            AgentClass type = classes.find(spawn.agentClass()).orElseThrow(() -> new UnknownAgentClassException(spawn.agentClass()));
            SpawnPolicy policy = SpawnPolicy.current();
            if (!policy.allows(type)) {
                throw SpawnRefusedException.notSpawnable(spawn.agentClass(), policy);
            }
            AgentInfo info = agents.start(spawn.agentClass(), spawn.name(), spawn.args(), null, device);
            return new Spawned(ref, info.aid(), info.location()).write();
        });
    }

    /** A device stops only its own agents (others go through the REST API, where admins are). */
    /** A device moves one of its own agents to another device (a named one, or one the node picks). */
    private void move(DeviceConnection c, DeviceFrames.Move move) {
        AID aid = move.aid();
        requireOwn(c, aid);
        answerFromWorker(c, move.ref(), () -> {
            // Answered once the move is under way: the agent's handler, awaiting it, returns before its device ends it.
            AgentInfo info = mobility.moveClientAgent(aid, move.device(), false);
            return new DeviceFrames.Moved(move.ref(), aid, info.location()).write();
        });
    }

    private void stopAgent(DeviceConnection c, StopAgent stop) {
        AID aid = stop.aid();
        requireOwn(c, aid);
        answerFromWorker(c, stop.ref(), () -> {
            agents.stop(aid);
            return new AgentStopped(stop.ref(), aid).write();
        });
    }

    /**
     * Saves a state of one of this device's agents; answered once the store acknowledged it. The
     * checks that need no store come first, so a refused frame costs the store nothing.
     */
    private void saveState(DeviceConnection c, SaveState save) {
        AID aid = save.aid();
        long ref = save.ref();
        long bytes = DeviceConnection.utf8Length(save.state());
        if (bytes > DeviceSockets.MAX_STATE_BYTES) {
            throw StateRefusedException.tooLarge(aid, bytes, DeviceSockets.MAX_STATE_BYTES);
        }
        requireOwn(c, aid);
        beginStateRequest(c);
        states.save(aid, save.version(), save.state(), c.deviceId()).whenComplete((saved, failure) -> {
            c.endStateRequest();
            c.send(failure == null ? new StateSaved(ref, aid, saved).write() : errorFrame(ref, failure));
        });
    }

    private void loadState(DeviceConnection c, LoadState load) {
        AID aid = load.aid();
        long ref = load.ref();
        requireOwn(c, aid);
        beginStateRequest(c);
        states.load(aid).whenComplete((saved, failure) -> {
            c.endStateRequest();
            c.send(failure == null ? new State(ref, aid, saved).write() : errorFrame(ref, failure));
        });
    }

    private void requireOwn(DeviceConnection c, AID aid) {
        if (!proxies.hostedBy(c, aid)) {
            throw agents.find(aid).isPresent() ? new NotYourAgentException(c.deviceId(), aid) : new UnknownAgentException(aid);
        }
    }

    private static void beginStateRequest(DeviceConnection c) {
        if (!c.beginStateRequest(DeviceSockets.MAX_PENDING_STATE)) {
            throw StateRefusedException.tooManyPending(DeviceSockets.MAX_PENDING_STATE);
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
        SiebogException found = Failures.find(failure, SiebogException.class);
        SiebogException refusal = found != null ? found : new RemoteNodeException("failed: " + failure);
        Long version = refusal instanceof StateRefusedException s ? s.version() : null;
        return new ErrorFrame(refusal.status(), refusal.getMessage(), ref, version).write();
    }
}
