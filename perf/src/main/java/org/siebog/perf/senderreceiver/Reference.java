package org.siebog.perf.senderreceiver;

import java.util.Arrays;
import java.util.Optional;

/** The systems {@code perf/sender-receiver} can measure beside Siebog, each by its own flag. */
public enum Reference {

    /** JADE 4.3, the paper's reference: one container, or two containers in two JVMs over RMI. */
    JADE("jade"),
    /** Apache Pekko's classic actors: local, or two actor systems over Artery TCP remoting. Nothing is durable. */
    PEKKO("pekko"),
    /** Raw blocking TCP between two JVMs, a socket and a thread per pair: the floor of a message across nodes. */
    TCP("tcp");

    private final String system;

    Reference(String system) {
        this.system = system;
    }

    /** Its name in the CSV's {@code system} column and in the chart. */
    public String system() {
        return system;
    }

    public String flag() {
        return "--" + system;
    }

    static Optional<Reference> byFlag(String flag) {
        return Arrays.stream(values()).filter(reference -> reference.flag().equals(flag)).findFirst();
    }
}
