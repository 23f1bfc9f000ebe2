package org.siebog.perf.df;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Level;
import java.util.logging.Logger;

import jade.core.AID;
import jade.core.Agent;
import jade.core.Profile;
import jade.core.ProfileImpl;
import jade.core.Runtime;
import jade.core.behaviours.OneShotBehaviour;
import jade.domain.DFService;
import jade.domain.FIPAAgentManagement.DFAgentDescription;
import jade.domain.FIPAAgentManagement.SearchConstraints;
import jade.domain.FIPAAgentManagement.ServiceDescription;
import jade.wrapper.ContainerController;

/**
 * The DF benchmark on JADE, in a JVM of its own ({@link DfBenchmark} starts it): a main container
 * on the loopback with JADE's DF; the same registrations as Siebog's run (32 services of type
 * {@code bench-(i % types)} per holder, registered on the holders' behalf by one loader, which JADE's
 * DF accepts); then {@code searchers} agents that each search {@code searches} times to warm up and
 * {@code searches} times measured, one after another, with the same {@code maxResults}. Prints one
 * line, {@code searchesPerSecond p50Micros p99Micros meanMicros loadSeconds entriesPerSearch}, and ends the JVM.
 * Arguments: registrations types searchers searches limit port.
 */
public final class JadeDfRun {

    private static int types;
    private static int searches;
    private static long limit;
    private static CountDownLatch measuring;
    private static CountDownLatch done;
    private static final List<long[]> MICROS = new ArrayList<>();
    private static final long[] FOUND = new long[1];

    private JadeDfRun() {
    }

    public static void main(String[] args) throws Exception {
        Logger.getLogger("").setLevel(Level.WARNING);
        int registrations = Integer.parseInt(args[0]);
        types = Integer.parseInt(args[1]);
        int searchers = Integer.parseInt(args[2]);
        searches = Integer.parseInt(args[3]);
        limit = Long.parseLong(args[4]);
        Runtime runtime = Runtime.instance();
        runtime.setCloseVM(false);
        Profile profile = new ProfileImpl();
        profile.setParameter(Profile.GUI, "false");
        profile.setParameter(Profile.NO_MTP, "true");
        profile.setParameter(Profile.LOCAL_HOST, "127.0.0.1");
        profile.setParameter(Profile.LOCAL_PORT, args[5]);
        ContainerController main = runtime.createMainContainer(profile);

        CountDownLatch loaded = new CountDownLatch(1);
        long loadStart = System.nanoTime();
        main.createNewAgent("loader", Loader.class.getName(), new Object[] {registrations, loaded}).start();
        loaded.await();
        double loadSeconds = (System.nanoTime() - loadStart) / 1e9;

        measuring = new CountDownLatch(searchers);
        done = new CountDownLatch(searchers);
        for (int i = 0; i < searchers; i++) {
            main.createNewAgent("searcher-" + i, Searcher.class.getName(), new Object[0]).start();
        }
        measuring.await();
        long began = System.nanoTime();
        done.await();
        double seconds = (System.nanoTime() - began) / 1e9;
        long[] all = MICROS.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        System.out.println(String.format(Locale.ROOT, "%d %d %d %d %.3f %.1f", Math.round(all.length / seconds), all[all.length / 2],
                all[(int) (all.length * 0.99)], Math.round(Arrays.stream(all).average().orElse(0)), loadSeconds,
                (double) FOUND[0] / all.length));
        System.out.flush();
        java.lang.Runtime.getRuntime().halt(0); // JADE leaves non-daemon threads behind
    }

    /** Registers the holders' descriptions with JADE's DF, then counts down. */
    public static final class Loader extends Agent {
        @Override
        protected void setup() {
            int registrations = (Integer) getArguments()[0];
            CountDownLatch loaded = (CountDownLatch) getArguments()[1];
            addBehaviour(new OneShotBehaviour() {
                @Override
                public void action() {
                    try {
                        for (int h = 0; h * 32 < registrations; h++) {
                            DFAgentDescription holder = new DFAgentDescription();
                            holder.setName(new AID("df-holder-" + h, AID.ISLOCALNAME));
                            for (int i = h * 32; i < Math.min(registrations, (h + 1) * 32); i++) {
                                ServiceDescription service = new ServiceDescription();
                                service.setType("bench-" + (i % types));
                                service.setName("service-" + i);
                                holder.addServices(service);
                            }
                            DFService.register(myAgent, holder);
                        }
                    } catch (Exception e) {
                        e.printStackTrace();
                        java.lang.Runtime.getRuntime().halt(1);
                    }
                    loaded.countDown();
                }
            });
        }
    }

    /** Searches to warm up, then measured, one search after another. */
    public static final class Searcher extends Agent {
        @Override
        protected void setup() {
            addBehaviour(new OneShotBehaviour() {
                @Override
                public void action() {
                    try {
                        SearchConstraints constraints = new SearchConstraints();
                        constraints.setMaxResults(limit);
                        for (int s = 0; s < searches; s++) {
                            search(constraints);
                        }
                        measuring.countDown();
                        measuring.await();
                        long[] micros = new long[searches];
                        long found = 0;
                        for (int s = 0; s < searches; s++) {
                            long began = System.nanoTime();
                            found += search(constraints);
                            micros[s] = (System.nanoTime() - began) / 1_000;
                        }
                        synchronized (MICROS) {
                            MICROS.add(micros);
                            FOUND[0] += found;
                        }
                    } catch (Exception e) {
                        e.printStackTrace();
                        java.lang.Runtime.getRuntime().halt(1);
                    }
                    done.countDown();
                }

                private int search(SearchConstraints constraints) throws Exception {
                    DFAgentDescription template = new DFAgentDescription();
                    ServiceDescription service = new ServiceDescription();
                    service.setType("bench-" + ThreadLocalRandom.current().nextInt(types));
                    template.addServices(service);
                    return DFService.search(myAgent, template, constraints).length;
                }
            });
        }
    }
}
