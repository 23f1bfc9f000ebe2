package org.siebog.it.agents;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import org.siebog.api.ACLMessage;

/**
 * What the test agents saw, by agent name, for the tests to read (in-container, or over HTTP through
 * {@link AgentRecordsResource}): every message in the order handled, lifecycle events, and the most
 * handlers of one agent ever running at once. Also the gates that hold a {@link Slow} agent inside
 * its handler until a test opens them.
 */
@ApplicationScoped
public class AgentRecords {

    /** A message as a test agent handled it; {@code atNanos} is {@link System#nanoTime()} at handling. */
    public record Entry(String performative, String sender, String content, String conversationId, String replyWith,
                        String inReplyTo, long atMillis, long atNanos, List<String> receivers) {
    }

    /** One agent's record. */
    public static final class Log {
        private final List<Entry> messages = new ArrayList<>();
        private final List<String> events = new ArrayList<>();
        private final AtomicInteger inFlight = new AtomicInteger();
        private final AtomicInteger maxInFlight = new AtomicInteger();
        private volatile Map<String, String> args = Map.of();
        private volatile CountDownLatch gate;

        public synchronized List<Entry> messages() {
            return List.copyOf(messages);
        }

        public synchronized List<String> events() {
            return List.copyOf(events);
        }

        public int maxInFlight() {
            return maxInFlight.get();
        }

        public Map<String, String> args() {
            return args;
        }
    }

    /** How long a gate holds a handler at most, so that a failed test never wedges an agent lane for good. */
    static final long GATE_TIMEOUT_SECONDS = 60;

    private final Map<String, Log> logs = new ConcurrentHashMap<>();

    public Log of(String agent) {
        return logs.computeIfAbsent(agent, name -> new Log());
    }

    void started(String agent, Map<String, String> args) {
        Log log = of(agent);
        log.args = Map.copyOf(args);
        if ("closed".equals(args.get("gate"))) {
            log.gate = new CountDownLatch(1);
        }
        event(agent, "started");
    }

    void event(String agent, String event) {
        Log log = of(agent);
        synchronized (log) {
            log.events.add(event);
        }
    }

    /** Marks a handler of {@code agent} as running, keeping the most that ever ran at once. */
    void enter(String agent) {
        Log log = of(agent);
        int now = log.inFlight.incrementAndGet();
        log.maxInFlight.accumulateAndGet(now, Math::max);
    }

    void exit(String agent) {
        of(agent).inFlight.decrementAndGet();
    }

    void record(String agent, ACLMessage message) {
        Entry entry = new Entry(message.performative().name(), str(message.sender()), message.content(),
                message.conversationId(), message.replyWith(), message.inReplyTo(), System.currentTimeMillis(), System.nanoTime(),
                message.receivers().stream().map(Object::toString).toList());
        Log log = of(agent);
        synchronized (log) {
            log.messages.add(entry);
        }
    }

    /** Holds the caller while {@code agent}'s gate is closed (at most {@link #GATE_TIMEOUT_SECONDS}). */
    void passGate(String agent) {
        CountDownLatch gate = of(agent).gate;
        if (gate != null) {
            try {
                gate.await(GATE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public void openGate(String agent) {
        CountDownLatch gate = of(agent).gate;
        if (gate != null) {
            gate.countDown();
        }
    }

    private static String str(Object value) {
        return value == null ? null : value.toString();
    }
}
