package org.siebog.delivery;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.siebog.api.SiebogException;

/**
 * {@code siebog.messages.refused}, by reason: the refusal's type, so {@code MailboxFullException}
 * counts as {@code mailbox-full}. There are as many reasons as refusal classes, a bounded set, and
 * each counter is looked up once.
 */
final class RefusalCounters {

    private final MeterRegistry meters;
    private final Map<Class<?>, Counter> byType = new ConcurrentHashMap<>();

    RefusalCounters(MeterRegistry meters) {
        this.meters = meters;
    }

    /** Counts the refusal and gives it back, for {@code throw refused.count(e)}. */
    SiebogException count(SiebogException refusal) {
        byType.computeIfAbsent(refusal.getClass(), type -> Counter.builder("siebog.messages.refused")
                .description("Messages this node refused to admit, by reason")
                .tag("reason", reason(type))
                .register(meters)).increment();
        return refusal;
    }

    /** {@code MailboxFullException} → {@code mailbox-full}. */
    static String reason(Class<?> refusal) {
        String name = refusal.getSimpleName().replaceFirst("Exception$", "");
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }
}
