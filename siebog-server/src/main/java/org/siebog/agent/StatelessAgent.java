package org.siebog.agent;

/**
 * The business interface of a {@code @Stateless} agent: instances are pooled and any of them may
 * handle a given message, so keep nothing in fields between messages.
 */
public interface StatelessAgent extends Agent {
}
