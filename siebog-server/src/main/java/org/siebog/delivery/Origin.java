package org.siebog.delivery;

import org.siebog.api.AID;
import org.siebog.message.MessageId;

/** Gives each message a sender addresses to a receiver its identity. */
public interface Origin {

    MessageId next(AID receiver);
}
