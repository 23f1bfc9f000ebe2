package org.siebog.api;

/**
 * Status 400: a start (or another request about agents) that cannot be carried out as given: a bad
 * name or arguments, a place that does not fit, or an {@code onStart} that threw. Nothing was
 * started. Agents and resources may throw it themselves to refuse bad arguments:
 *
 * <pre>{@code
 * @Override
 * protected void onStart(Map<String, String> args) {
 *     if (!args.containsKey("pong")) {
 *         throw new InvalidAgentRequestException("Ping needs the AID of its Pong as 'pong'");
 *     }
 * }
 * }</pre>
 */
public class InvalidAgentRequestException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /**
     * A refusal that says why.
     *
     * @param message what is wrong with the request, for a person
     */
    public InvalidAgentRequestException(String message) {
        super(message);
    }

    /**
     * A refusal that says why, and the failure behind it.
     *
     * @param message what is wrong with the request, for a person
     * @param cause   the failure that led to it
     */
    public InvalidAgentRequestException(String message, Throwable cause) {
        super(message, cause);
    }
}
