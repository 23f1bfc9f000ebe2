package org.siebog.perf.ycsb;

/** One operation type's latencies over one status interval, as YCSB prints them (microseconds). */
public record IntervalLatency(long count, double avgUs, long p99Us) {
}
