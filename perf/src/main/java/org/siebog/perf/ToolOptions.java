package org.siebog.perf;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A perf tool's command line: {@code --name value} options with defaults, bare flags, and
 * {@code --help} (or {@code -h}), which prints the tool's usage and runs nothing. Names are kept as
 * written, dashes included ({@code get("--url")}).
 */
public final class ToolOptions {

    private final Map<String, String> values;
    private final Set<String> flags;

    private ToolOptions(Map<String, String> values, Set<String> flags) {
        this.values = values;
        this.flags = flags;
    }

    /** A command line that asks for help, or names an option the tool does not have (the message says which). */
    public static final class Refused extends Exception {
        private final boolean help;

        Refused(boolean help, String message) {
            super(message);
            this.help = help;
        }

        /** True when the command line asked for the usage, not a mistake. */
        public boolean help() {
            return help;
        }
    }

    /**
     * Reads {@code args} against the options' {@code defaults} and the bare {@code flagNames}.
     *
     * @throws Refused --help, an unknown option, or an option without its value
     */
    public static ToolOptions parse(String[] args, Map<String, String> defaults, Set<String> flagNames) throws Refused {
        Map<String, String> values = new LinkedHashMap<>(defaults);
        Set<String> flags = new HashSet<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h")) {
                throw new Refused(true, "");
            } else if (flagNames.contains(arg)) {
                flags.add(arg);
            } else if (!defaults.containsKey(arg)) {
                throw new Refused(false, "unknown option " + arg);
            } else if (i + 1 == args.length) {
                throw new Refused(false, arg + " needs a value");
            } else {
                values.put(arg, args[++i]);
            }
        }
        return new ToolOptions(values, flags);
    }

    /**
     * {@link #parse} for a tool's {@code main}: on {@code --help} prints {@code usage} and exits 0; on
     * a mistake prints what was wrong and the usage to stderr and exits 2.
     */
    public static ToolOptions parseOrExit(String usage, String[] args, Map<String, String> defaults, Set<String> flagNames) {
        try {
            return parse(args, defaults, flagNames);
        } catch (Refused refused) {
            if (refused.help()) {
                System.out.print(usage);
                System.exit(0);
            }
            System.err.println(refused.getMessage());
            System.err.print(usage);
            System.exit(2);
            throw new AssertionError("exited");
        }
    }

    public String get(String name) {
        String value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("no option " + name);
        }
        return value;
    }

    public int intValue(String name) {
        try {
            return Integer.parseInt(get(name));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, not '" + get(name) + "'");
        }
    }

    public boolean flag(String name) {
        return flags.contains(name);
    }
}
