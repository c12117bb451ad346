package io.cfslab.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command line (picocli): {@code simulate} runs one scenario and prints what a kernel developer would
 * {@code cat} and what bpftrace would print; {@code bench} measures the simulator's speed. Runs without
 * starting Spring.
 */
@Command(name = "cfslab", mixinStandardHelpOptions = true, subcommands = {SimulateCommand.class, BenchCommand.class},
        description = "CFS Bandwidth Lab: simulate Linux CFS bandwidth control (cpu.max).")
public final class Cli {
    /** Exit status of a bad scenario or bad arguments. */
    public static final int EXIT_BAD_INPUT = 2;

    /** True if {@code arg} names a command-line subcommand (so the web server is not started). */
    public static boolean isCommand(String arg) {
        return "simulate".equals(arg) || "bench".equals(arg) || "--help".equals(arg) || "-h".equals(arg);
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
