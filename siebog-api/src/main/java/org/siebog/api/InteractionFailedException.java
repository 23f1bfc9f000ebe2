package org.siebog.api;

/**
 * An interaction protocol ended without the result its initiator asked for: the other agent
 * refused ({@link Performative#REFUSE}), did not understand ({@link Performative#NOT_UNDERSTOOD}),
 * or failed ({@link Performative#FAILURE}), or, in a ballot or a call for proposals, no one gave a
 * usable answer. The answer that ended it, if any, is {@link #answer()}. Status 502: another agent,
 * not the platform or the caller, ended it.
 */
public class InteractionFailedException extends SiebogException {

    private static final long serialVersionUID = 1L;

    /** The message that ended the interaction, or null when none did (nobody answered usefully). */
    private final ACLMessage answer;

    /**
     * Says why, naming the answer.
     *
     * @param message what happened
     * @param answer  the message that ended the interaction, or null
     */
    public InteractionFailedException(String message, ACLMessage answer) {
        super(message);
        this.answer = answer;
    }

    /**
     * The message that ended the interaction.
     *
     * @return the REFUSE, NOT_UNDERSTOOD or FAILURE, or null when no message ended it
     */
    public ACLMessage answer() {
        return answer;
    }

    @Override
    public int status() {
        return 502;
    }
}
