package org.siebog.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ToolOptionsTest {

    private static final Map<String, String> DEFAULTS = Map.of("--url", "http://127.0.0.1:8080/siebog", "--rounds", "3");
    private static final Set<String> FLAGS = Set.of("--no-jade");

    @Test
    void optionsOverrideTheirDefaultsAndFlagsAreOffUnlessGiven() throws ToolOptions.Refused {
        ToolOptions options = ToolOptions.parse(new String[] {"--rounds", "5", "--no-jade"}, DEFAULTS, FLAGS);
        assertEquals(5, options.intValue("--rounds"));
        assertEquals("http://127.0.0.1:8080/siebog", options.get("--url"));
        assertTrue(options.flag("--no-jade"));
        assertFalse(ToolOptions.parse(new String[0], DEFAULTS, FLAGS).flag("--no-jade"));
    }

    @Test
    void helpAnywhereAsksForTheUsageAndNothingElse() {
        for (String help : new String[] {"--help", "-h"}) {
            ToolOptions.Refused refused = assertThrows(ToolOptions.Refused.class,
                    () -> ToolOptions.parse(new String[] {"--rounds", "5", help}, DEFAULTS, FLAGS));
            assertTrue(refused.help());
        }
    }

    @Test
    void anUnknownOptionOrOneWithoutItsValueIsRefusedByName() {
        ToolOptions.Refused unknown = assertThrows(ToolOptions.Refused.class, () -> ToolOptions.parse(new String[] {"--round", "5"}, DEFAULTS, FLAGS));
        assertFalse(unknown.help());
        assertEquals("unknown option --round", unknown.getMessage());
        ToolOptions.Refused incomplete = assertThrows(ToolOptions.Refused.class, () -> ToolOptions.parse(new String[] {"--rounds"}, DEFAULTS, FLAGS));
        assertEquals("--rounds needs a value", incomplete.getMessage());
    }

    @Test
    void aNumberThatIsNotOneSaysWhichOption() throws ToolOptions.Refused {
        ToolOptions options = ToolOptions.parse(new String[] {"--rounds", "five"}, DEFAULTS, FLAGS);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> options.intValue("--rounds"));
        assertEquals("--rounds must be a whole number, not 'five'", e.getMessage());
    }
}
