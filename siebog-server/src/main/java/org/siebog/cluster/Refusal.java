package org.siebog.cluster;

import java.io.IOException;

import org.siebog.api.MailboxFullException;
import org.siebog.api.RemoteNodeException;
import org.siebog.api.SiebogException;
import org.siebog.api.UnknownAgentException;

/**
 * How a refusal crosses the cluster: its kind, its HTTP status and its text, and nothing else. The
 * node that asked rebuilds it from those (a full mailbox stays a 503 with Retry-After, an unknown
 * agent a 404, a taken name a 409), so no node ever deserialises an object another node sent: a
 * refusal used to travel as a serialised exception, which let whoever could speak on the cluster make
 * a node run Java deserialisation of bytes of its choosing.
 *
 * <p>The kinds are the refusals that callers tell apart by type ({@link UnknownAgentException}:
 * stopping a balanced agent skips the nodes that never had an instance; {@link MailboxFullException}:
 * REST adds Retry-After; {@link RemoteNodeException}); every other refusal needs only its status and
 * text and comes back as a {@link RefusedByNodeException}.
 */
final class Refusal {

    /** On the wire as its ordinal: append new kinds at the end (nodes of one cluster run one build). */
    enum Kind {
        OTHER, UNKNOWN_AGENT, MAILBOX_FULL, NODE_UNREACHABLE
    }

    private static final Kind[] KINDS = Kind.values();

    /**
     * The longest text a refusal keeps from another node: refusals end up in REST answers, device
     * frames and logs, and Siebog's own are a sentence or two.
     */
    static final int MAX_TEXT_CHARS = 2_000;

    private Refusal() {
    }

    static Kind kindOf(SiebogException refusal) {
        if (refusal instanceof UnknownAgentException) {
            return Kind.UNKNOWN_AGENT;
        }
        if (refusal instanceof MailboxFullException) {
            return Kind.MAILBOX_FULL;
        }
        if (refusal instanceof RemoteNodeException) {
            return Kind.NODE_UNREACHABLE;
        }
        return Kind.OTHER;
    }

    /** The text a refusal crosses with: its message, never null, at most {@link #MAX_TEXT_CHARS}. */
    static String textOf(SiebogException refusal) {
        String text = refusal.getMessage();
        return clip(text == null ? refusal.getClass().getSimpleName() : text);
    }

    /**
     * The refusal another node sent as {@code kind}, {@code status} and {@code text}.
     *
     * @throws IOException a kind this build does not know, or a status that is not an error (4xx, 5xx)
     */
    static SiebogException rebuild(int kind, int status, String text) throws IOException {
        if (kind < 0 || kind >= KINDS.length) {
            throw new IOException("a refusal of unknown kind " + kind);
        }
        if (status < 400 || status > 599) {
            throw new IOException("a refusal with status " + status + ", which is not an error status");
        }
        String said = clip(text == null ? "refused, without a reason" : text);
        return switch (KINDS[kind]) {
            case UNKNOWN_AGENT -> UnknownAgentException.asReported(said);
            case MAILBOX_FULL -> MailboxFullException.asReported(said);
            case NODE_UNREACHABLE -> new RemoteNodeException(said);
            case OTHER -> new RefusedByNodeException(status, said);
        };
    }

    private static String clip(String text) {
        return text.length() <= MAX_TEXT_CHARS ? text : text.substring(0, MAX_TEXT_CHARS) + "...";
    }

    /** A refusal of another node that callers need not tell apart by type: its status and its words. */
    public static final class RefusedByNodeException extends SiebogException {

        private static final long serialVersionUID = 1L;

        private final int status;

        RefusedByNodeException(int status, String message) {
            super(message);
            this.status = status;
        }

        @Override
        public int status() {
            return status;
        }
    }
}
