package io.cfslab.cli;

import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command line (picocli): {@code simulate} runs one scenario and prints what a kernel developer would
 * {@code cat} and what bpftrace would print; {@code experiment} runs a scenario under several arms, repeated, and
 * prints the base-vs-head table; {@code bench} measures the simulator's speed. Runs without
 * starting Spring.
 */
@Command(name = "cfslab", mixinStandardHelpOptions = true, versionProvider = CliVersion.class,
        subcommands = {SimulateCommand.class, ExperimentCommand.class, BenchCommand.class},
        description = "CFS Bandwidth Lab: simulate Linux CFS bandwidth control (cpu.max). With no argument, or only"
                + " Spring properties (--server.port=8081), it starts the service.")
public final class Cli {
    /** Exit status of a bad scenario or bad arguments. */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit status of a run stopped by its event budget. */
    public static final int EXIT_ABORTED = 3;
    /** Exit status of a result or table that could not be written (sysexits.h EX_IOERR). */
    public static final int EXIT_IO_ERROR = 74;

    /**
     * A Spring Boot command-line property, {@code --name=value} ({@code SimpleCommandLineArgsParser}'s option with a
     * value): the name a relaxed-binding property name ({@code server.port}, {@code spring.datasource.url},
     * {@code logging.level.root}, {@code list[0]}).
     */
    private static final Pattern PROPERTY = Pattern.compile("--[A-Za-z][A-Za-z0-9_.\\-\\[\\]]*=.*", Pattern.DOTALL);

    /**
     * The first segments of the Spring properties the service reads: its own ({@code cfslab.*}), those of
     * application.yml ({@code server}, {@code spring}, {@code management}, {@code springdoc}) and Spring Boot's
     * {@code logging.*} and the actuator's {@code info.*}. A property under any other name binds to nothing, so
     * Spring would start the service and ignore it ({@code --sever.port=1} served on 8080).
     */
    static final java.util.Set<String> PROPERTY_ROOTS = java.util.Set.of("cfslab", "server", "spring", "management",
            "springdoc", "logging", "info");

    /**
     * Spring Boot's switches, {@code --debug} and {@code --trace} (also as {@code --debug=true}): single properties,
     * not roots ({@code --debug.x=1} names nothing), so the usage line names them as README.md does, not as
     * {@code debug.*}.
     */
    static final java.util.List<String> SWITCHES = java.util.List.of("debug", "trace");

    /**
     * Whether {@code arg} is {@code --name=value} with a name under {@link #PROPERTY_ROOTS}, compared as Spring's
     * relaxed binding compares a first segment (case, dashes and underscores aside).
     */
    static boolean isKnownProperty(String arg) {
        if (!PROPERTY.matcher(arg).matches()) return false;
        String name = arg.substring(2, arg.indexOf('='));
        String[] segments = name.split("[.\\[]", 2);
        String root = segments[0].replace("-", "").replace("_", "").toLowerCase(java.util.Locale.ROOT);
        return PROPERTY_ROOTS.contains(root) || (segments.length == 1 && SWITCHES.contains(root));
    }

    /**
     * Whether {@code args} start the web service rather than a command: none at all ({@code java -jar cfslab.jar},
     * {@code ./mvnw spring-boot:run}, the image's entry point), or only Spring properties {@code --name=value}
     * ({@code --server.port=8081}) and Spring Boot's own switches {@code --debug} and {@code --trace}. Anything else
     * is the command line's, so that a typo ({@code --hlep}, {@code --quiet experiment x.json}, {@code simulat})
     * is a usage error instead of a server on port 8080 writing ./data.
     */
    public static boolean startsService(String[] args) {
        for (String a : args) {
            if (!isKnownProperty(a) && !"--debug".equals(a) && !"--trace".equals(a)) return false;
        }
        return true;
    }

    /** Runs the command line; returns the exit status. */
    public static int run(String[] args) {
        CommandLine cl = new CommandLine(new Cli());
        String unknown = unknownFirst(cl, args);
        if (unknown != null) {
            cl.getErr().println(unknown);
            cl.getErr().flush();
            return EXIT_BAD_INPUT;
        }
        IntegerOptions.register(cl);
        cl.setParameterExceptionHandler((ex, a) -> {
            cl.getErr().println(ex.getMessage());
            return EXIT_BAD_INPUT;
        });
        return CliOutput.checked(cl, cl.execute(args));
    }

    /** The usage line for a first argument that is neither a command nor the top level's help or version, else null. */
    private static String unknownFirst(CommandLine cl, String[] args) {
        var commands = cl.getSubcommands().keySet();
        String hint = "; the commands are " + String.join(", ", commands) + " (cfslab --help); with no argument, or"
                + " only Spring properties such as --server.port=8081, cfslab starts the service";
        if (args.length == 0) return "cfslab: no command" + hint;
        String first = args[0];
        if (commands.contains(first) || cl.getCommandSpec().optionsMap().containsKey(first)) return null;
        if (PROPERTY.matcher(first).matches() && !isKnownProperty(first)) {
            return "cfslab: unknown property '" + first + "': the service reads properties under "
                    + String.join(".*, ", new java.util.TreeSet<>(PROPERTY_ROOTS)) + ".* and Spring Boot's --"
                    + String.join(", --", SWITCHES) + " (a misspelt one would be ignored)" + hint;
        }
        if (PROPERTY.matcher(first).matches() || "--debug".equals(first) || "--trace".equals(first)) {
            for (String a : args) {
                if (!startsService(new String[] {a})) {
                    return "cfslab: unknown argument '" + a + "' after the service property " + first
                            + ": the service takes only --name=value properties" + hint;
                }
            }
        }
        return "cfslab: unknown " + (first.startsWith("-") ? "option" : "command") + " '" + first + "'" + hint;
    }
}
