package org.siebog.it.agents;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.AbstractAgent;
import org.siebog.api.Performative;
import org.siebog.api.StatefulAgent;
import org.siebog.api.Tuples;

/**
 * Uses the tuple space on command ({@link Tuples}), for TuplesIT, and answers the command when the
 * operation ends: a REQUEST {@code out <leaseMs|-> f1,f2,...}, {@code rdp|inp <fields>} or
 * {@code rd|in <timeoutMs> <fields>} ({@code _} a null field) → INFORM {@code ok}, {@code got f1,f2,...},
 * {@code none}, or {@code refused <status>}. Any other REQUEST → INFORM {@code here} at once.
 */
@Stateful
public class TupleUser extends AbstractAgent implements StatefulAgent {

    @Override
    protected void onMessage(ACLMessage command) {
        if (command.performative() != Performative.REQUEST) {
            return;
        }
        String[] words = command.content().split(" ");
        CompletionStage<String> outcome = switch (words[0]) {
            case "out" -> Tuples.out(this, fields(words[2]), words[1].equals("-") ? null : Duration.ofMillis(Long.parseLong(words[1])))
                    .thenApply(done -> "ok");
            case "rdp" -> Tuples.rdp(this, fields(words[1])).thenApply(TupleUser::found);
            case "inp" -> Tuples.inp(this, fields(words[1])).thenApply(TupleUser::found);
            case "rd" -> Tuples.rd(this, fields(words[2]), Duration.ofMillis(Long.parseLong(words[1]))).thenApply(TupleUser::found);
            case "in" -> Tuples.in(this, fields(words[2]), Duration.ofMillis(Long.parseLong(words[1]))).thenApply(TupleUser::found);
            default -> java.util.concurrent.CompletableFuture.completedFuture("here");
        };
        outcome.exceptionally(failure -> "refused " + (failure.getCause() instanceof org.siebog.api.SiebogException refused ? refused.status() : failure))
                .thenAccept(text -> send(reply(command, Performative.INFORM).content(text)));
    }

    private static List<String> fields(String text) {
        return Arrays.stream(text.split(",")).map(f -> f.equals("_") ? null : f).toList();
    }

    private static String found(Optional<List<String>> tuple) {
        return tuple.map(fields -> "got " + String.join(",", fields)).orElse("none");
    }
}
