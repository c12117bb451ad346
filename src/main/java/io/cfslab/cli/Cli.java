package io.cfslab.cli;

/** Placeholder replaced by the picocli command line. */
public final class Cli {
    private Cli() {}
    public static boolean isCommand(String arg) { return "simulate".equals(arg) || "bench".equals(arg); }
    public static int run(String[] args) { return 0; }
}
