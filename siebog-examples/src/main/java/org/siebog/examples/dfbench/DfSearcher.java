package org.siebog.examples.dfbench;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.ejb.Stateless;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;
import org.siebog.api.StatelessAgent;

/**
 * The DF benchmark's searcher: a REQUEST {@code "SEARCHES TYPES LIMIT"} makes it ask
 * {@code df@<platform>} SEARCHES searches one after another, each for a random one of TYPES service
 * types ({@code bench-0} ...) with at most LIMIT results, as a JADE agent asks JADE's DF; it then
 * answers with each search's round trip in microseconds, comma-separated, followed by
 * {@code ";"} and the entries found in all. The searches are chained stages, so the agent's lane
 * is free while each waits for df.
 */
@Stateless
public class DfSearcher extends AbstractAgent implements StatelessAgent {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    /** One batch of searches, carried from stage to stage (a stateless agent keeps nothing in fields). */
    private static final class Batch {
        final ACLMessage request;
        final int searches;
        final int types;
        final int limit;
        final StringBuilder micros = new StringBuilder();
        long found;

        Batch(ACLMessage request, int searches, int types, int limit) {
            this.request = request;
            this.searches = searches;
            this.types = types;
            this.limit = limit;
        }
    }

    @Override
    protected void onMessage(ACLMessage message) {
        if (message.performative() != Performative.REQUEST) {
            return;
        }
        String[] words = message.content().split(" ");
        search(new Batch(message, Integer.parseInt(words[0]), Integer.parseInt(words[1]), Integer.parseInt(words[2])), 0);
    }

    private void search(Batch batch, int done) {
        if (done == batch.searches) {
            send(reply(batch.request, Performative.INFORM).content(batch.micros + ";" + batch.found));
            return;
        }
        String type = "bench-" + ThreadLocalRandom.current().nextInt(batch.types);
        long began = System.nanoTime();
        ask(ACLMessage.builder(Performative.REQUEST)
                .receiver(new AID("df", aid().platform()))
                .language("json")
                .ontology("siebog-df")
                .content("{\"action\": \"search\", \"template\": {\"type\": \"" + type + "\"}, \"limit\": " + batch.limit + "}"), PATIENCE)
                .thenAccept(answer -> {
                    long micros = (System.nanoTime() - began) / 1_000;
                    if (answer.performative() != Performative.INFORM) {
                        throw new IllegalStateException("df refused a search: " + answer.content());
                    }
                    batch.micros.append(done == 0 ? "" : ",").append(micros);
                    batch.found += entries(answer.content());
                    search(batch, done + 1);
                })
                .exceptionally(failure -> {
                    send(reply(batch.request, Performative.FAILURE).content("search " + done + " failed: " + failure));
                    return null;
                });
    }

    /** The entries in df's answer, counted by their "agent" fields: no JSON parser on the measured path. */
    private static int entries(String answer) {
        int count = 0;
        for (int at = answer.indexOf("\"agent\""); at >= 0; at = answer.indexOf("\"agent\"", at + 1)) {
            count++;
        }
        return count;
    }
}
