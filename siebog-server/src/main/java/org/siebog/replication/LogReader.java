package org.siebog.replication;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;
import java.util.function.Supplier;

import org.siebog.api.AID;
import org.siebog.delivery.Envelope;
import org.siebog.message.MessageId;

/**
 * Reads the inbox log for the takeovers of one view change on this node. Each takeover asks for
 * its own agent's unsaved messages and reads only the segments its record's {@link LogRange}s
 * name, by key: no takeover waits for a pass over the whole log, and a live node's segments are
 * never read. Segments are fetched in blocks of consecutive numbers, each block once for all the
 * takeovers that need it (they mostly share the dead node's last second of segments), and decoded
 * once.
 */
public final class LogReader {

    /** Segment numbers per fetch: one {@code getAll} per block. */
    static final long BLOCK = 64;

    /** A message of a block with the number of the segment that holds it. */
    private record Located(long segment, SegmentCodec.Entry entry) {
    }

    private final Function<Set<String>, Map<String, byte[]>> store;
    private final ConcurrentMap<String, CompletableFuture<Optional<WriterManifest>>> manifests = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, CompletableFuture<Map<AID, List<Located>>>> blocks = new ConcurrentHashMap<>();

    /** @param store reads the inbox entries with the given keys (absent keys are left out) */
    LogReader(Function<Set<String>, Map<String, byte[]>> store) {
        this.store = store;
    }

    /**
     * The logged messages of {@code record}'s incarnation of {@code aid} after its handled
     * position, in order; a message id seen twice is replayed once. A position may be missing (its
     * segment's write failed and its sender was told so); the messages after it are replayed all
     * the same, as their senders were told they were admitted.
     */
    public List<Envelope> pending(AID aid, AgentRecord record) {
        TreeMap<Long, SegmentCodec.Entry> bySeq = new TreeMap<>();
        for (LogRange range : record.ranges()) {
            Optional<WriterManifest> manifest = manifest(range.writer());
            if (manifest.isEmpty()) {
                continue; // that writer stored no segment, or all of them are dropped
            }
            for (long b : blocksFrom(manifest.get(), range.fromSegment())) {
                for (Located m : block(range.writer(), b, manifest.get()).getOrDefault(aid, List.of())) {
                    SegmentCodec.Entry e = m.entry();
                    if (m.segment() >= range.fromSegment() && e.incarnation() == record.incarnation()
                            && e.seq() > record.handledSeq() && e.seq() <= range.lastSeq()) {
                        bySeq.putIfAbsent(e.seq(), e);
                    }
                }
            }
        }
        List<Envelope> pending = new ArrayList<>();
        Set<MessageId> seen = new HashSet<>();
        for (SegmentCodec.Entry e : bySeq.values()) {
            if (seen.add(e.id())) {
                pending.add(e.envelope());
            }
        }
        return pending;
    }

    /** The blocks holding {@code manifest}'s candidate numbers at or past {@code from}, ascending. */
    private static List<Long> blocksFrom(WriterManifest manifest, long from) {
        List<Long> blocks = new ArrayList<>();
        manifest.candidates(from, Long.MAX_VALUE, n -> {
            if (blocks.isEmpty() || blocks.get(blocks.size() - 1) != n / BLOCK) {
                blocks.add(n / BLOCK);
            }
        });
        return blocks;
    }

    private Optional<WriterManifest> manifest(String writer) {
        return once(manifests, writer, () -> {
            byte[] encoded = store.apply(Set.of(LogKeys.manifest(writer))).get(LogKeys.manifest(writer));
            return Optional.ofNullable(encoded).map(WriterManifest::decode);
        });
    }

    /** The messages in {@code writer}'s segments numbered {@code b * BLOCK} up to the next block, by agent. */
    private Map<AID, List<Located>> block(String writer, long b, WriterManifest manifest) {
        return once(blocks, writer + "#" + b, () -> {
            Map<String, Long> numbers = new HashMap<>();
            manifest.candidates(b * BLOCK, (b + 1) * BLOCK - 1, n -> numbers.put(LogKeys.segment(writer, n), n));
            Map<AID, List<Located>> byAgent = new HashMap<>();
            store.apply(numbers.keySet()).forEach((key, segment) -> {
                for (SegmentCodec.Entry e : SegmentCodec.decode(segment)) {
                    byAgent.computeIfAbsent(e.aid(), a -> new ArrayList<>()).add(new Located(numbers.get(key), e));
                }
            });
            return byAgent;
        });
    }

    /**
     * The value loaded for {@code key} by the first takeover that asked; the others wait for it.
     * A failed load is forgotten, so a later takeover tries again.
     */
    private static <V> V once(ConcurrentMap<String, CompletableFuture<V>> memo, String key, Supplier<V> load) {
        CompletableFuture<V> mine = new CompletableFuture<>();
        CompletableFuture<V> first = memo.putIfAbsent(key, mine);
        if (first != null) {
            return first.join();
        }
        try {
            mine.complete(load.get());
        } catch (RuntimeException e) {
            memo.remove(key, mine);
            mine.completeExceptionally(e);
            throw e;
        }
        return mine.join();
    }
}
