package org.siebog.device;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JoinTokenTest {

    @Test
    void withoutAConfiguredTokenEveryJoinPasses() {
        assertNull(JoinToken.refusal(null, null));
        assertNull(JoinToken.refusal(null, "anything"));
    }

    @Test
    void withATokenOnlyThatTokenPasses() {
        assertNull(JoinToken.refusal("s3cret", "s3cret"));
        assertTrue(JoinToken.refusal("s3cret", null).contains("needs a 'token'"));
        assertTrue(JoinToken.refusal("s3cret", "s3cre").contains("not this node's"));
        assertTrue(JoinToken.refusal("s3cret", "s3cret ").contains("not this node's"));
    }
}
