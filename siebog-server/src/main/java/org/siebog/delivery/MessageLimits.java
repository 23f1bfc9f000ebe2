package org.siebog.delivery;

import org.siebog.api.ACLMessage;
import org.siebog.api.MalformedMessageException;
import org.siebog.api.MessageTooLargeException;
import org.siebog.platform.PlatformConfig;

/**
 * The bounds a message posted on this node is held to before any receiver admits it: a plain post
 * ({@link MessageRouter}) and a post under identities given beforehand ({@link IdentifiedPosts}),
 * which enters at {@link MessageRouter#admitHere}. What arrives there from another node was checked
 * where it was posted, so admitHere itself checks nothing.
 */
final class MessageLimits {

    private MessageLimits() {
    }

    static void check(ACLMessage message) {
        PlatformConfig limits = PlatformConfig.SYSTEM;
        int receivers = message.receivers().size();
        if (receivers == 0) {
            throw new MalformedMessageException("a message needs at least one receiver");
        }
        if (receivers > limits.maxReceivers()) {
            throw new MalformedMessageException("a message may name at most " + limits.maxReceivers()
                    + " receivers (siebog.message.max-receivers); this one names " + receivers);
        }
        if (message.content() != null && message.content().length() > limits.maxContentChars()) {
            throw new MessageTooLargeException("the content (in characters)", message.content().length(), limits.maxContentChars());
        }
        long envelope = message.envelopeChars();
        if (envelope > limits.maxEnvelopeChars()) {
            throw new MessageTooLargeException("everything but the content (AIDs, other fields, user properties; in characters)",
                    envelope, limits.maxEnvelopeChars());
        }
    }
}
