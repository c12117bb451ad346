package io.cfslab.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command line (picocli): {@code simulate} runs one scenario and prints what a kernel developer would
 * {@code cat} and what bpftrace would print; {@code experiment} runs a scenario under several arms, repeated, and
 * prints the base-vs-head table; {@code bench} measures the simulator's speed. Runs without
 * starting Spring.
 */
@Command(name = "cfslab", mixinStandardHelpOptions = true, subcommands = {SimulateCommand.class, ExperimentCommand.class, BenchCommand.class},
        description = "CFS Bandwidth Lab: simulate Linux CFS bandwidth control (cpu.max).")
public final class Cli {
    /** Exit status of a bad scenario or bad arguments. */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit status of a run stopped by its event budget. */
    public static final int EXIT_ABORTED = 3;

    /**
     * True if {@code arg} is meant for the command line rather than the web server: a subcommand, help, or
     * any word that is not a {@code --spring.option=value} (so a mistyped command fails instead of starting
     * a server).
     */
    public static boolean isCommand(String arg) {
        return !arg.startsWith("--") || "--help".equals(arg) || "--version".equals(arg);
    }

    /** Runs the command line; returns the exit status. */
    public static int run(String[] args) {
        CommandLine cl = new CommandLine(new Cli());
        cl.setParameterExceptionHandler((ex, a) -> {
            cl.getErr().println(ex.getMessage());
            return EXIT_BAD_INPUT;
        });
        return cl.execute(args);
    }
}
