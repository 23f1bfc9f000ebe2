package org.siebog.api;

import jakarta.ejb.ApplicationException;

/**
 * The root of everything the platform refuses: bad input, an unknown agent or class, a full
 * mailbox, a node out of reach. A refusal means the operation did not happen (nothing was sent,
 * nothing was started) and says why in its message, a sentence meant for a person.
 *
 * <p>Each refusal carries the HTTP status the REST API answers it with ({@link #status()}), which
 * also tells a Java caller what to do: a 4xx is the caller's to fix, a 503 or 504 may succeed when
 * tried again later. The subclasses in this package are the refusals callers tell apart by type;
 * the platform has a few more of its own, which callers see as a {@code SiebogException} with
 * their status.
 *
 * <pre>{@code
 * try {
 *     send(ACLMessage.builder(Performative.INFORM).receiver(peer).content(result));
 * } catch (MailboxFullException busy) {
 *     sendLater(ACLMessage.builder(Performative.INFORM).receiver(peer).content(result).build(), Duration.ofSeconds(1));
 * } catch (SiebogException refused) {
 *     // refused.status() says whether trying again can help
 * }
 * }</pre>
 *
 * <p>Refusals are unchecked, and an EJB application exception: they cross EJB calls as they are
 * (not wrapped, no rollback). An agent's handler need not catch them: one that escapes is logged
 * with the agent and the message, and the agent goes on with its next message.
 */
@ApplicationException(rollback = false, inherited = true)
public abstract class SiebogException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * A refusal that says why.
     *
     * @param message what was refused and why, for a person
     */
    protected SiebogException(String message) {
        super(message);
    }

    /**
     * A refusal that says why, and the failure behind it.
     *
     * @param message what was refused and why, for a person
     * @param cause   the failure that led to it
     */
    protected SiebogException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * The HTTP status this refusal maps to: what the REST API answers and devices get in their error
     * frames.
     *
     * @return 400 unless a subclass says otherwise
     */
    public int status() {
        return 400;
    }
}
