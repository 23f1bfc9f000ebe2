package org.siebog.perf.senderreceiver.pekko;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;

import org.siebog.perf.senderreceiver.child.ChildArgs;
import org.siebog.perf.senderreceiver.child.ChildMain;

/** What the Pekko child JVMs share: Pekko's defaults, quiet, and on two nodes Artery TCP on the loopback. */
final class PekkoChild {

    static final String NAME = "Pekko";
    static final String RECEIVERS = "receivers";
    private static final Duration RESOLVE_TIMEOUT = Duration.ofSeconds(30);

    private PekkoChild() {
    }

    /** One actor system for everything: local actors only. */
    static ActorSystem local(String name) {
        return ActorSystem.create(name, quiet(""));
    }

    /** An actor system that other JVMs reach at {@code port} on the loopback (Artery over TCP, Pekko's default remoting). */
    static ActorSystem remote(String name, int port) {
        return ActorSystem.create(name, quiet("""
                pekko.actor.provider = remote
                pekko.remote.artery.transport = tcp
                pekko.remote.artery.canonical.hostname = "%s"
                pekko.remote.artery.canonical.port = %d
                """.formatted(ChildMain.LOOPBACK, port)));
    }

    /** Run {@code run}'s Receivers in the actor system {@value #RECEIVERS} at {@code port}, one per pair, in pair order. */
    static List<ActorRef> receivers(ActorSystem system, int port, int run, int pairs) throws Exception {
        List<ActorRef> receivers = new ArrayList<>(pairs);
        for (int i = 0; i < pairs; i++) {
            String path = "pekko://%s@%s:%d/user/%s".formatted(RECEIVERS, ChildMain.LOOPBACK, port, ChildArgs.receiverName(run, i));
            receivers.add(system.actorSelection(path).resolveOne(RESOLVE_TIMEOUT).toCompletableFuture().get());
        }
        return receivers;
    }

    private static Config quiet(String config) {
        return ConfigFactory.parseString(config + """
                pekko.loglevel = WARNING
                pekko.stdout-loglevel = WARNING
                """).withFallback(ConfigFactory.load());
    }
}
