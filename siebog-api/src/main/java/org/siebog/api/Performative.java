package org.siebog.api;

/**
 * What a message does: the 22 communicative acts of the FIPA ACL specification (SC00037J). Siebog
 * does not interpret performatives, with one exception: the platform tells a sender that a
 * {@linkplain AgentContext#send(ACLMessage, java.time.Duration) delayed message} could not be
 * delivered with a {@link #FAILURE}. Agents give them their FIPA meaning: ask with {@link #REQUEST}
 * or {@link #QUERY_REF}, answer with {@link #INFORM}, {@link #AGREE}, {@link #REFUSE},
 * {@link #FAILURE} or {@link #NOT_UNDERSTOOD}, and so on.
 *
 * <p>In JSON a performative is its constant's name ({@code "CALL_FOR_PROPOSAL"}).
 */
public enum Performative {
    /** Accepts a proposal made earlier (FIPA: accept-proposal). */
    ACCEPT_PROPOSAL,
    /** Agrees to do something requested, possibly later (agree). */
    AGREE,
    /** Withdraws an earlier request (cancel). */
    CANCEL,
    /** Calls for proposals to do something (cfp). */
    CALL_FOR_PROPOSAL,
    /** Says that a proposition the receiver doubted is true (confirm). */
    CONFIRM,
    /** Says that a proposition the receiver believed is false (disconfirm). */
    DISCONFIRM,
    /** Says that an attempted action failed, and why (failure). */
    FAILURE,
    /** Says that a proposition is true (inform). */
    INFORM,
    /** Asks the receiver to say whether a proposition is true (inform-if, a macro act). */
    INFORM_IF,
    /** Asks the receiver to say what an expression refers to (inform-ref, a macro act). */
    INFORM_REF,
    /** Says the receiver did not understand a message it got (not-understood). */
    NOT_UNDERSTOOD,
    /** Asks the receiver to pass the message on to agents it chooses (propagate). */
    PROPAGATE,
    /** Proposes to do something on conditions (propose). */
    PROPOSE,
    /** Asks the receiver to forward the message to agents it chooses, as a proxy (proxy). */
    PROXY,
    /** Asks whether a proposition is true (query-if). */
    QUERY_IF,
    /** Asks for the object an expression refers to (query-ref). */
    QUERY_REF,
    /** Refuses to do something requested, and why (refuse). */
    REFUSE,
    /** Rejects a proposal (reject-proposal). */
    REJECT_PROPOSAL,
    /** Asks the receiver to do something (request). */
    REQUEST,
    /** Asks the receiver to do something once a proposition becomes true (request-when). */
    REQUEST_WHEN,
    /** Asks the receiver to do something each time a proposition becomes true (request-whenever). */
    REQUEST_WHENEVER,
    /** Asks to be told whenever what an expression refers to changes (subscribe). */
    SUBSCRIBE
}
