package org.siebog.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.siebog.agent.AID;
import org.siebog.message.MailboxFullException;
import org.siebog.platform.SiebogException;

class WireTest {

    @Test
    void fieldsComeBackInOrder() throws Exception {
        String big = "x".repeat(100_000); // beyond writeUTF's 64 KiB
        byte[] bytes = new Wire.Writer().op(Wire.Op.START).string("Ping").string(null).string(big)
                .map(Map.of("pong", "pong@siebog")).integer(42).bool(true).toBytes();
        Wire.Reader in = new Wire.Reader(bytes, 0, bytes.length);
        assertEquals(Wire.Op.START, in.op());
        assertEquals("Ping", in.string());
        assertNull(in.string());
        assertEquals(big, in.string());
        assertEquals(Map.of("pong", "pong@siebog"), in.map());
        assertEquals(42, in.integer());
        assertEquals(true, in.bool());
    }

    @Test
    void aRefusalKeepsItsTypeAndMessage() throws Exception {
        MailboxFullException full = new MailboxFullException(AID.parse("busy@siebog"), 50);
        byte[] bytes = new Wire.Writer().outcome(null).outcome(full).toBytes();
        Wire.Reader in = new Wire.Reader(bytes, 0, bytes.length);
        assertNull(in.outcome());
        SiebogException back = in.outcome();
        assertInstanceOf(MailboxFullException.class, back);
        assertEquals(full.getMessage(), back.getMessage());
    }
}
