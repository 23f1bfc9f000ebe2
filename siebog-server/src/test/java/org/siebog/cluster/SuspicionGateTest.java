package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.stack.Protocol;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Test;

class SuspicionGateTest {

    private final Address node1 = UUID.randomUUID();
    private final Address node2 = UUID.randomUUID();
    private final Address node3 = UUID.randomUUID();

    /** What reaches the protocol above the gate (GMS in a node's stack). */
    private static final class Above extends Protocol {
        final List<Event> events = new ArrayList<>();

        @Override
        public Object up(Event event) {
            events.add(event);
            return null;
        }
    }

    private static SuspicionGate gate(Set<Address> onlyALinkFails, Above above) {
        SuspicionGate gate = new SuspicionGate(onlyALinkFails::contains);
        gate.setUpProtocol(above);
        return gate;
    }

    @Test
    void aSuspectBehindAFailingLinkIsHeldBackAndTheOthersPass() {
        Above above = new Above();
        SuspicionGate gate = gate(Set.of(node1), above);
        gate.up(new Event(Event.SUSPECT, List.of(node1, node2)));
        assertEquals(1, above.events.size());
        assertEquals(List.of(node2), above.events.get(0).arg());
    }

    @Test
    void aSuspicionOfOnlyNodesBehindFailingLinksGoesNoFurther() {
        Above above = new Above();
        SuspicionGate gate = gate(Set.of(node1), above);
        gate.up(new Event(Event.SUSPECT, List.of(node1)));
        gate.up(new Event(Event.SUSPECT, node1));
        assertEquals(List.of(), above.events);
    }

    @Test
    void otherEventsPassUntouched() {
        Above above = new Above();
        SuspicionGate gate = gate(Set.of(node3), above);
        Event unsuspect = new Event(Event.UNSUSPECT, node3);
        gate.up(unsuspect);
        assertEquals(List.of(unsuspect), above.events);
    }
}
