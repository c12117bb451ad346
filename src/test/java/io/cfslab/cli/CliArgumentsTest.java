package io.cfslab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Breaker 3, items 1 and 6: which arguments start the service and which are the command line's. Every documented way
 * to start the service (no argument, Spring properties, as README.md, docs/, the Dockerfile and the benchmarks pass
 * them) still starts it; every other first argument (an unknown option, a typo, a property followed by a command) is
 * a usage error naming it, exit 2, instead of a server on port 8080 writing ./data. Help and version print and exit 0.
 */
class CliArgumentsTest {

    /** The service's documented starts, and those of the tests and tools that start the jar. */
    static final List<List<String>> SERVICE = List.of(
            List.of(), // java -jar, ./mvnw spring-boot:run, the Dockerfile's ENTRYPOINT and docker-compose (no command)
            List.of("--server.port=8081"), // README.md, also as -Dspring-boot.run.arguments=--server.port=8081
            List.of("--server.port=9090", "--spring.datasource.url=jdbc:h2:file:/tmp/d/db;WRITE_DELAY=0",
                    "--cfslab.runs.execute=false", "--logging.level.root=WARN"), // RequestSizeBench
            List.of("--spring.datasource.url=jdbc:h2:mem:b3;DB_CLOSE_DELAY=-1", "--cfslab.warmup.rounds=0"), // the breakers
            List.of("--spring.profiles.active=postgres", "--debug"), // Spring Boot's own switch
            List.of("--server.port="), // an empty value is still a property (Spring then fails on it, not we)
            List.of("--spring.profiles.active[0]=postgres"), List.of("--management.endpoints.web.exposure.include=*"),
            List.of("--SPRING.MAIN.BANNER-MODE=off", "--Server.Port=1"),
            List.of("--springdoc.api-docs.enabled=false", "--info.app.name=x", "--trace=true"),
            List.of("--cfslab.runs.poolSize=1", "--cfslab.runs.max_wall_time=5m", "--logging.level.io.cfslab=DEBUG",
                    "--management.server.port=-1", "--cfslab.http.body-timeout=5s", "--debug=false"));

    /**
     * Breaker 5 F3: service properties under a known root that Spring would ignore (a misspelt name) or fail on after
     * the database opened, with a stack trace (a value it cannot bind): each a sample of a kind.
     */
    static final List<String> MISSPELT = List.of("--server.prt=1", "--cfslab.bogus=1", "--cfslab.runs.pool-sise=2",
            "--cfslab.list[0]=x", "--spring.datasource.ulr=jdbc:h2:mem:x", "--logging.levl.root=WARN",
            "--management.endpoints.web.exposur.include=*", "--springdoc.api-doc.enabled=false", "--spring.main.banner-mod=off");
    static final List<String> UNBINDABLE = List.of("--server.port=abc", "--server.port=-5", "--server.port=65536",
            "--debug=maybe", "--trace=2", "--cfslab.runs.pool-size=x", "--cfslab.http.body-timeout=soon",
            "--cfslab.runs.execute=perhaps", "--cfslab.warmup.rounds=1.5", "--management.server.port=x",
            // breaker 9 F30: a negative bound or count of the service's, and a whole number not in plain decimal
            "--cfslab.runs.queue.max=-5", "--cfslab.warmup.rounds=-1", "--cfslab.runs.queue.max=0x10", "--server.port=+18471");

    /** First arguments that are not a command, each a sample of a kind: each must fail, naming itself. */
    static final List<List<String>> NOT_COMMANDS = List.of(
            List.of("--hlep"), List.of("--bogus"), List.of("--quiet", "experiment", "x.json"), List.of("--verison"),
            List.of("bogus"), List.of("simulat", "x.json"), List.of("-x"), List.of("-"), List.of("--"),
            List.of("--=x"), List.of("--server.port"), List.of("--8080=x"), List.of(""),
            List.of("--server.port=8081", "simulate", "x.json"), List.of("--debug", "--hlep"),
            // breaker: a misspelt property bound to nothing and the service started on 8080
            List.of("--sever.port=1"), List.of("--server.port=8081", "--sprng.datasource.url=x"),
            List.of("--cfslab-x=1"), List.of("--port=8081"), List.of("--spring=1", "--log.level=x"));

    /** Every top-level key of the service's application*.yml is a property root the command line lets through. */
    @Test
    void everyRootOfTheServicesOwnPropertiesIsKnown() throws Exception {
        try (var s = Files.list(Path.of("src/main/resources"))) {
            for (Path yml : s.filter(p -> p.getFileName().toString().matches("application.*\\.ya?ml")).toList()) {
                for (String line : Files.readAllLines(yml)) {
                    Matcher m = Pattern.compile("^([A-Za-z][A-Za-z0-9_-]*):").matcher(line);
                    if (m.find()) assertThat(Cli.PROPERTY_ROOTS).as(yml + ": " + line).contains(m.group(1));
                }
            }
        }
    }

    @Test
    void theDocumentedStartsOfTheServiceStartIt() throws Exception {
        for (List<String> args : SERVICE) {
            assertThat(Cli.startsService(args.toArray(String[]::new))).as(String.join(" ", args)).isTrue();
        }
        // every `java … -jar …cfslab.jar ARGS` of the docs: a command, or arguments that start the service
        Pattern jar = Pattern.compile("-jar \\S*cfslab\\.jar((?: +[^\\s`&|;>)]+)*)");
        // -Dspring-boot.run.arguments=ONE or ="ONE TWO" (the plugin splits a quoted value at its spaces)
        Pattern mvn = Pattern.compile("spring-boot\\.run\\.arguments=(?:\"([^\"]*)\"|([^\\s`)\"]+))");
        List<Path> docs = new ArrayList<>(List.of(Path.of("README.md"), Path.of("Dockerfile"), Path.of("docker-compose.yml")));
        try (var s = Files.list(Path.of("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).forEach(docs::add);
        }
        var commands = new picocli.CommandLine(new Cli()).getSubcommands().keySet();
        int services = 0, commandLines = 0;
        for (Path doc : docs) {
            String text = Files.readString(doc);
            for (Matcher m = jar.matcher(text); m.find(); ) {
                String[] args = m.group(1).isBlank() ? new String[0] : m.group(1).strip().split(" +");
                if (args.length > 0 && commands.contains(args[0])) {
                    commandLines++;
                } else {
                    assertThat(Cli.startsService(args)).as(doc + ": " + m.group()).isTrue();
                    services++;
                }
            }
            for (Matcher m = mvn.matcher(text); m.find(); services++) {
                String[] args = m.group(1) != null ? m.group(1).strip().split(" +") : m.group(2).split(",");
                assertThat(Cli.startsService(args)).as(doc + ": " + m.group()).isTrue();
            }
        }
        assertThat(services).as("documented starts of the service").isGreaterThanOrEqualTo(3);
        assertThat(commandLines).as("documented command lines").isGreaterThan(10);
    }

    /**
     * The usage line of a misspelt root lists what README.md lists, no more: the roots ({@code cfslab.*}, …) and
     * Spring Boot's switches {@code --debug}, {@code --trace} (it listed {@code debug.*} and {@code trace.*}, which
     * name nothing: {@code --debug.x=1} is refused too).
     */
    @Test
    void theUsageLineOfAMisspeltRootListsWhatTheReadmeLists() throws Exception {
        String readme = Files.readString(Path.of("README.md")).replaceAll("\\s+", " ");
        Matcher m = Pattern.compile("only Spring properties \\(`--name=value` under (.*?)\\);").matcher(readme);
        assertThat(m.find()).as("README names the roots").isTrue();
        List<String> roots = new ArrayList<>(), switches = new ArrayList<>();
        Matcher t = Pattern.compile("`([^`]+)`").matcher(m.group(1));
        while (t.find()) {
            if (t.group(1).startsWith("--")) switches.add(t.group(1));
            else roots.add(t.group(1).replaceAll("\\.$", ""));
        }
        assertThat(new java.util.TreeSet<>(roots)).isEqualTo(new java.util.TreeSet<>(Cli.PROPERTY_ROOTS));
        assertThat(switches).isEqualTo(Cli.SWITCHES.stream().map(x -> "--" + x).toList());
        String said = ExperimentCommandTest.run("--sever.port=1").err().strip();
        for (String r : roots) assertThat(said).as(said).contains(r + ".*");
        for (String sw : switches) assertThat(said).as(said).contains(sw);
        assertThat(said).doesNotContain("debug.*").doesNotContain("trace.*");
        assertThat(Cli.startsService(new String[] {"--debug.x=1"})).isFalse();
        assertThat(Cli.startsService(new String[] {"--debug=true"})).isTrue();
    }

    @Test
    void anythingElseIsAUsageErrorNamingTheArgument() {
        for (List<String> args : NOT_COMMANDS) {
            String[] a = args.toArray(String[]::new);
            assertThat(Cli.startsService(a)).as(String.join(" ", args)).isFalse();
            ExperimentCommandTest.Out run = ExperimentCommandTest.run(a);
            String said = run.err().strip();
            String named = args.stream().filter(x -> !Cli.startsService(new String[] {x})).findFirst().orElseThrow();
            assertThat(run.status()).as(args + ": " + said).isEqualTo(2);
            assertThat(said.lines()).as(said).hasSize(1);
            assertThat(said).as(String.join(" ", args)).startsWith("cfslab: unknown").contains("'" + named + "'")
                    .contains("--help").contains("starts the service");
            assertThat(run.out()).isEmpty();
        }
        ExperimentCommandTest.Out none = ExperimentCommandTest.run();
        assertThat(none.status()).isEqualTo(2);
        assertThat(none.err()).startsWith("cfslab: no command");
    }

    @Test
    void theServicesPropertiesAreCheckedByNameAndValue() {
        for (List<String> args : SERVICE) {
            assertThat(io.cfslab.ServiceProperties.problem(args.toArray(String[]::new))).as(String.join(" ", args)).isNull();
        }
        for (String arg : MISSPELT) {
            assertThat(Cli.startsService(new String[] {arg})).as(arg + ": its root is known").isTrue();
            String said = io.cfslab.ServiceProperties.problem(new String[] {"--server.port=8081", arg});
            assertThat(said).as(arg).isNotNull().startsWith("cfslab: unknown property '" + arg + "'");
            assertThat(said.lines()).hasSize(1);
        }
        // breaker 9 F30: a property given twice (Spring joined the values, "18471,18472", and failed after starting)
        for (String[] twice : new String[][] {{"--server.port=18471", "--server.port=18472"},
                {"--cfslab.runs.queue.max=5", "--cfslab.runs.queue.max=6"}, {"--server.port=1", "--SERVER.PORT=1"}}) {
            String said = io.cfslab.ServiceProperties.problem(twice);
            assertThat(said).as(String.join(" ", twice)).isNotNull().contains("given twice").contains(twice[0]).contains(twice[1]);
            assertThat(said.lines()).hasSize(1);
        }
        for (String arg : UNBINDABLE) {
            String said = io.cfslab.ServiceProperties.problem(new String[] {arg});
            assertThat(said).as(arg).isNotNull().startsWith("cfslab: property " + arg + ": ");
            assertThat(said.lines()).hasSize(1);
        }
    }

    /**
     * The service's own names are found where they are defined: every {@code @ConfigurationProperties} record and
     * every {@code @Value("${cfslab…}")} key of the sources is one ServiceProperties knows, and every cfslab setting of
     * application*.yml, with the value written there, passes its check.
     */
    @Test
    void everyPropertyTheServiceDefinesIsKnown() throws Exception {
        Pattern value = Pattern.compile("\\$\\{(cfslab\\.[A-Za-z0-9.-]+)");
        Pattern records = Pattern.compile("@ConfigurationProperties\\(\"[^\"]+\"\\)\\s*public record (\\w+)");
        List<String> recordNames = io.cfslab.ServiceProperties.PROPERTY_RECORDS.stream().map(Class::getSimpleName).toList();
        int found = 0;
        try (var files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String text = Files.readString(f);
                for (Matcher m = value.matcher(text); m.find(); found++) {
                    assertThat(io.cfslab.ServiceProperties.VALUE_KEYS).as(f + ": " + m.group(1)).containsKey(m.group(1));
                }
                for (Matcher m = records.matcher(text); m.find(); found++) {
                    assertThat(recordNames).as(f.toString()).contains(m.group(1));
                }
            }
        }
        assertThat(found).isGreaterThanOrEqualTo(10);
        int settings = 0;
        try (var s = Files.list(Path.of("src/main/resources"))) {
            for (Path yml : s.filter(p -> p.getFileName().toString().matches("application.*\\.ya?ml")).toList()) {
                for (Object doc : new org.yaml.snakeyaml.Yaml().loadAll(Files.readString(yml))) {
                    Object cfslab = doc instanceof java.util.Map<?, ?> m ? m.get("cfslab") : null;
                    List<String> flat = new ArrayList<>();
                    flatten("cfslab", cfslab, flat);
                    for (String arg : flat) {
                        assertThat(io.cfslab.ServiceProperties.problem(new String[] {arg})).as(yml + ": " + arg).isNull();
                        settings++;
                    }
                }
            }
        }
        assertThat(settings).isGreaterThan(10);
    }

    private static void flatten(String prefix, Object node, List<String> out) {
        if (node instanceof java.util.Map<?, ?> m) {
            m.forEach((k, v) -> flatten(prefix + "." + k, v, out));
        } else if (node != null) {
            out.add("--" + prefix + "=" + node);
        }
    }

    @Test
    void helpAndVersionPrintAndExitZero() {
        String version = CliVersion.line();
        assertThat(version).startsWith("cfslab ").contains("Java " + Runtime.version());
        for (String cmd : new picocli.CommandLine(new Cli()).getSubcommands().keySet()) {
            for (String flag : List.of("-V", "--version")) {
                for (String[] args : List.of(new String[] {flag}, new String[] {cmd, flag})) {
                    assertThat(Cli.startsService(args)).isFalse();
                    ExperimentCommandTest.Out run = ExperimentCommandTest.run(args);
                    assertThat(run.status()).as(Arrays.toString(args)).isZero();
                    assertThat(run.out().strip()).as(Arrays.toString(args)).isEqualTo(version);
                }
            }
            for (String[] args : List.of(new String[] {"--help"}, new String[] {"-h"}, new String[] {cmd, "--help"})) {
                ExperimentCommandTest.Out run = ExperimentCommandTest.run(args);
                assertThat(run.status()).as(Arrays.toString(args)).isZero();
                assertThat(run.out()).as(Arrays.toString(args)).startsWith("Usage: cfslab");
            }
        }
    }
}
