package org.siebog.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Properties;

import org.junit.jupiter.api.Test;

class CassandraConfigTest {

    private static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(CassandraConfig.PREFIX + kv[i], kv[i + 1]);
        }
        return p;
    }

    @Test
    void noContactPointsMeansNoStore() {
        assertTrue(CassandraConfig.fromProperties(props(), null).isEmpty());
        assertTrue(CassandraConfig.fromProperties(props("contact-points", "  "), null).isEmpty());
    }

    @Test
    void defaultsAndContactPoints() {
        CassandraConfig c = CassandraConfig.fromProperties(
                props("contact-points", "10.0.0.1:9043, cass2 ,[::1]:9044", "local-datacenter", "dc1"), null).orElseThrow();
        assertEquals("10.0.0.1:9043,cass2:9042,::1:9044", c.contactPointsText());
        assertEquals("siebog", c.keyspace());
        assertEquals("SimpleStrategy:1", c.replication());
        assertEquals(16, c.maxInFlight());
        assertEquals(Duration.ofSeconds(5), c.requestTimeout());
        assertEquals(Duration.ofSeconds(60), c.schemaTimeout());
        assertNull(c.username());
        assertNull(c.password());
    }

    @Test
    void credentialsComeFromPropertiesOrTheEnvironment() {
        CassandraConfig c = CassandraConfig.fromProperties(
                props("contact-points", "h", "local-datacenter", "dc1", "username", "siebog"), "from-env").orElseThrow();
        assertEquals("siebog", c.username());
        assertEquals("from-env", c.password());
        assertThrows(IllegalArgumentException.class, () -> CassandraConfig.fromProperties(
                props("contact-points", "h", "local-datacenter", "dc1", "username", "siebog"), null));
    }

    @Test
    void replicationBecomesCql() {
        assertEquals("{'class': 'SimpleStrategy', 'replication_factor': 3}", CassandraConfig.replicationCql("SimpleStrategy:3"));
        assertEquals("{'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc-2': 2}",
                CassandraConfig.replicationCql("NetworkTopologyStrategy:dc1=3,dc-2=2"));
    }

    @Test
    void badSettingsAreRefusedWithTheirName() {
        for (String[] bad : new String[][] {
                {"contact-points", "h", "local-datacenter", ""},
                {"contact-points", "h:notaport", "local-datacenter", "dc1"},
                {"contact-points", "h:70000", "local-datacenter", "dc1"},
                {"contact-points", "h", "local-datacenter", "dc1", "keyspace", "drop table x;"},
                {"contact-points", "h", "local-datacenter", "dc1", "replication", "SimpleStrategy:0"},
                {"contact-points", "h", "local-datacenter", "dc1", "replication", "NetworkTopologyStrategy:dc1=3'}"},
                {"contact-points", "h", "local-datacenter", "dc1", "replication", "EverywhereStrategy:1"},
                {"contact-points", "h", "local-datacenter", "dc1", "max-in-flight", "0"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> CassandraConfig.fromProperties(props(bad), null), () -> String.join(" ", bad));
            assertTrue(e.getMessage().startsWith("siebog.cassandra."), e::getMessage);
        }
    }
}
