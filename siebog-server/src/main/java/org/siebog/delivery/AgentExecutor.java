package org.siebog.delivery;

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.siebog.cluster.ClusterNode;
import org.siebog.cluster.NodeLease;
import org.siebog.platform.Setting;

/**
 * The threads agents run on: one {@link Lane} per core by default ({@code siebog.executor.lanes}),
 * each agent placed on one lane round-robin when it starts, and one timer thread for delayed posts.
 *
 * <p>Threads come from the container's {@link ManagedThreadFactory}, so agent code runs with the
 * application's naming context and class loader, and can call EJBs.
 */
@ApplicationScoped
public class AgentExecutor {

    @Resource
    private ManagedThreadFactory threadFactory;

    @Inject
    ClusterNode cluster;

    private Lane[] lanes;
    private final AtomicInteger nextLane = new AtomicInteger();
    private ScheduledThreadPoolExecutor timer;

    @PostConstruct
    void start() {
        NodeLease lease = cluster.lease();
        lanes = new Lane[Setting.EXECUTOR_LANES.intValue()];
        for (int i = 0; i < lanes.length; i++) {
            lanes[i] = new Lane(lease::holds);
            Thread thread = threadFactory.newThread(lanes[i]);
            thread.setName("siebog-lane-" + i);
            lanes[i].start(thread);
        }
        timer = new ScheduledThreadPoolExecutor(1, threadFactory);
        timer.setRemoveOnCancelPolicy(true);
    }

    @PreDestroy
    void shutdown() {
        timer.shutdownNow();
        for (Lane lane : lanes) {
            lane.stop();
        }
    }

    /** The lane for a new agent: round-robin, so lanes hold equal numbers of agents. */
    public Executor nextLane() {
        return lanes[Math.floorMod(nextLane.getAndIncrement(), lanes.length)];
    }

    /** Fires delayed posts (it only posts; agents never run on it). */
    public ScheduledExecutorService timer() {
        return timer;
    }
}
