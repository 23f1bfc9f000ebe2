package org.siebog.examples.topicbench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AgentInfo;
import org.siebog.api.AgentManager;
import org.siebog.api.AgentNameInUseException;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.MessageManager;
import org.siebog.api.Performative;
import org.siebog.api.Topics;
import org.siebog.examples.web.BodyFields;

/**
 * The topic fan-out benchmark inside the platform, for {@code perf/topics}: {@code POST
 * /siebog-examples/api/topic-bench/runs} {@code {"subscribers", "messages", "window", "mode"}}
 * (admins) makes {@code subscribers} {@code Counter}s (stateful: each message goes through their
 * journal) subscribe to one topic, placed on the nodes as any agent, unless they are there already;
 * then sends {@code messages} numbered INFORMs to all of them, at most {@code window} messages in
 * flight (not yet admitted by every subscriber), and answers with what was delivered per second.
 * {@code mode} {@code "topic"}: one publish per message; {@code "sends"}: for each message, one post
 * per subscriber, all at once (what an agent does without topics), for the ratio in one run. A QUERY_REF to each subscriber, sent after the last message, comes
 * behind it (one sender's messages stay in order), so the clock stops at the last answer; each
 * answer must count the run's messages without a gap or a repeat. {@code subscribers: 0} stops them.
 */
@Path("topic-bench/runs")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@RolesAllowed("siebog-admin")
public class TopicBenchResource {

    private static final String SUBSCRIBER = "topic-bench-";
    private static final String TOPIC = "topic-bench";
    private static final int STARTERS = 8;
    private static final Pattern REPORT = Pattern.compile("handled=(\\d+) highest=\\d+ gaps=(\\d+) repeats=(\\d+) outOfOrder=(\\d+)");

    @EJB(lookup = AgentManager.JNDI_NAME)
    AgentManager agents;

    @EJB(lookup = MessageManager.JNDI_NAME)
    MessageManager messages;

    @EJB(lookup = Topics.JNDI_NAME)
    Topics topics;

    @POST
    public Map<String, Object> run(JsonObject body) {
        if (body == null) {
            throw new InvalidAgentRequestException("the request needs a JSON object body");
        }
        int subscribers = BodyFields.whole(body, "subscribers", 1_000, 0, 10_000);
        int count = BodyFields.whole(body, "messages", 100, 1, 100_000);
        int window = BodyFields.whole(body, "window", 16, 1, 1_000);
        String mode = body.getString("mode", "topic");
        if (!mode.equals("topic") && !mode.equals("sends")) {
            throw new InvalidAgentRequestException("'mode' must be \"topic\" or \"sends\", got '" + mode + "'");
        }
        long setup = System.nanoTime();
        List<AgentInfo> subscribed = subscribers(subscribers);
        double setupSeconds = (System.nanoTime() - setup) / 1e9;
        if (subscribers == 0) {
            return Map.of("subscribers", 0, "setupSeconds", setupSeconds);
        }
        List<AID> receivers = subscribed.stream().map(AgentInfo::aid).toList();
        List<Long> handledBefore = reports(receivers).stream().map(r -> r[0]).toList();
        String conversation = "run-" + System.nanoTime();
        AID topic = Topics.topic(TOPIC, receivers.get(0).platform());

        long began = System.nanoTime();
        Semaphore inFlight = new Semaphore(window);
        List<CompletableFuture<Void>> posted = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            ACLMessage message = ACLMessage.builder(Performative.INFORM).conversationId(conversation).content(Integer.toString(i))
                    .receiver(topic).build();
            inFlight.acquireUninterruptibly();
            CompletableFuture<Void> admitted = mode.equals("topic") ? messages.postAsync(message).toCompletableFuture()
                    : CompletableFuture.allOf(receivers.stream()
                            .map(receiver -> messages.postAsync(message.withReceivers(List.of(receiver))).toCompletableFuture())
                            .toArray(CompletableFuture[]::new));
            posted.add(admitted.whenComplete((ok, failed) -> inFlight.release()));
        }
        List<long[]> after = reports(receivers);
        double seconds = (System.nanoTime() - began) / 1e9;
        posted.forEach(CompletableFuture::join);
        for (int i = 0; i < receivers.size(); i++) {
            long[] r = after.get(i);
            if (r[0] - handledBefore.get(i) != count || r[1] + r[2] + r[3] != 0) {
                throw new IllegalStateException(receivers.get(i) + " handled " + (r[0] - handledBefore.get(i)) + " of " + count
                        + " messages (gaps, repeats, out of order: " + r[1] + ", " + r[2] + ", " + r[3] + ")");
            }
        }
        Map<String, Long> perNode = new TreeMap<>();
        subscribed.forEach(a -> perNode.merge(a.location(), 1L, Long::sum));
        return Map.of("mode", mode, "subscribers", subscribers, "messages", count, "window", window, "perNode", perNode,
                "seconds", seconds, "setupSeconds", setupSeconds,
                "deliveredPerSecond", Math.round((double) count * subscribers / seconds),
                "messagesPerSecond", Math.round(count / seconds));
    }

    /** Each subscriber's {@code handled, gaps, repeats, outOfOrder}, asked all at once; answered behind what was sent before. */
    private List<long[]> reports(List<AID> receivers) {
        List<CompletableFuture<ACLMessage>> answers = receivers.stream()
                .map(r -> messages.askAsync(ACLMessage.builder(Performative.QUERY_REF).receiver(r).build(), Duration.ofMinutes(5))
                        .toCompletableFuture())
                .toList();
        return answers.stream().map(CompletableFuture::join).map(answer -> {
            Matcher m = REPORT.matcher(answer.content());
            if (!m.lookingAt()) {
                throw new IllegalStateException("a subscriber answered " + answer.content());
            }
            return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4))};
        }).toList();
    }

    /**
     * The {@code count} subscribing Counters {@code topic-bench-0} ... : those already running are
     * kept, the missing ones started and subscribed, any beyond {@code count} stopped.
     */
    private List<AgentInfo> subscribers(int count) {
        Map<String, AgentInfo> existing = new TreeMap<>();
        agents.agents().stream().filter(a -> a.aid().name().startsWith(SUBSCRIBER)).forEach(a -> existing.put(a.aid().name(), a));
        ExecutorService starters = Executors.newFixedThreadPool(STARTERS);
        try {
            inParallel(starters, existing.values().stream().filter(a -> index(a) >= count).toList(), a -> {
                agents.stop(a.aid());
                return null;
            });
            return inParallel(starters, IntStream.range(0, count).boxed().toList(), i -> {
                AgentInfo running = existing.get(SUBSCRIBER + i);
                return running != null ? running : startSubscriber(SUBSCRIBER + i);
            });
        } finally {
            starters.shutdown();
        }
    }

    private static int index(AgentInfo subscriber) {
        return Integer.parseInt(subscriber.aid().name().substring(SUBSCRIBER.length()));
    }

    /** Starts and subscribes one; the name may still be held for a moment by one just stopped (its stop is under way). */
    private AgentInfo startSubscriber(String name) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                AgentInfo started = agents.start("Counter", name, Map.of());
                topics.subscribe(started.aid(), TOPIC, null);
                return started;
            } catch (AgentNameInUseException stillStopping) {
                if (System.nanoTime() > deadline) {
                    throw stillStopping;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }
    }

    private static <T, R> List<R> inParallel(ExecutorService pool, List<T> items, Function<T, R> action) {
        List<CompletableFuture<R>> done = items.stream().map(item -> CompletableFuture.supplyAsync(() -> action.apply(item), pool)).toList();
        return done.stream().map(CompletableFuture::join).toList();
    }
}
