package org.siebog.perf.ycsb;

/**
 * An agent placed on one of the pool's devices, and the state version that device believes is
 * current. Its monitor also orders the agent's state requests: like the JavaScript library, a device
 * has at most one {@code saveState} per agent in flight, so two YCSB threads updating the same record
 * take turns instead of racing each other into 409s.
 */
final class HostedAgent {

    private final String aid;
    private volatile SimulatedDevice device;
    private long version; // guarded by this

    HostedAgent(String aid, SimulatedDevice device, long version) {
        this.aid = aid;
        this.device = device;
        this.version = version;
    }

    String aid() {
        return aid;
    }

    SimulatedDevice device() {
        return device;
    }

    /** The agent was (re)started on {@code device} with that version ({@code start} frame). */
    synchronized void startedOn(SimulatedDevice device, long version) {
        this.device = device;
        observe(version);
    }

    synchronized long version() {
        return version;
    }

    /**
     * A version the server reported ({@code stateSaved}, a 409/503 error, {@code start}). Versions only
     * grow, and a {@code start} may be read after the first {@code stateSaved}, so the higher one wins.
     */
    synchronized void observe(long reported) {
        version = Math.max(version, reported);
    }
}
