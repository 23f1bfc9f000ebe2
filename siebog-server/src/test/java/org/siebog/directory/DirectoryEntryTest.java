package org.siebog.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.siebog.api.AID;
import org.siebog.api.AgentKind;

class DirectoryEntryTest {

    private static final AID AID_ = AID.parse("pong@siebog");

    @Test
    void survivesTheCachesStringForm() {
        DirectoryEntry entry = new DirectoryEntry(AID_, "Pong", AgentKind.STATELESS, "node2", true,
                Map.of("limit", "10", "quote", "say \"hi\"\n"));
        assertEquals(entry, DirectoryEntry.fromJson(AID_, entry.toJson()));
    }

    @Test
    void onlyUnpinnedStatelessAgentsAreBalanced() {
        assertTrue(new DirectoryEntry(AID_, "Pong", AgentKind.STATELESS, "node1", false, Map.of()).balanced());
        assertFalse(new DirectoryEntry(AID_, "Pong", AgentKind.STATELESS, "node1", true, Map.of()).balanced());
        assertFalse(new DirectoryEntry(AID_, "Ping", AgentKind.STATEFUL, "node1", false, Map.of()).balanced());
    }

    @Test
    void movingKeepsEverythingButTheNode() {
        DirectoryEntry entry = new DirectoryEntry(AID_, "Ping", AgentKind.STATEFUL, "node1", false, Map.of("a", "b"));
        assertEquals(new DirectoryEntry(AID_, "Ping", AgentKind.STATEFUL, "node3", false, Map.of("a", "b")), entry.movedTo("node3"));
    }

    @Test
    void aClientAgentIsLocatedOnItsDevice() {
        DirectoryEntry entry = new DirectoryEntry(AID_, "Echo", AgentKind.CLIENT, "node1", false, Map.of(), "d-00000001");
        assertEquals(entry, DirectoryEntry.fromJson(AID_, entry.toJson()));
        assertEquals("d-00000001", entry.info().location());
        assertEquals("node1", entry.onDevice(null).info().location(), "while it waits for a device, its proxy's node");
    }
}
