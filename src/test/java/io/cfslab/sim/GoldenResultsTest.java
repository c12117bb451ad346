package io.cfslab.sim;

import io.cfslab.metrics.ResultJson;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Golden results: every ready-made scenario ({@code src/main/resources/scenarios/*.json}) and every reference
 * scenario ({@code src/test/resources/reference/E*.json}), each with its own seed and with {@link #OTHER_SEED},
 * must give exactly the result JSON saved under {@code src/test/resources/golden/} (gzipped), byte for byte,
 * with the {@code engine} member (wall-clock facts) removed. It guards optimisations of the simulator
 * (issue 11): a change that alters a result either is a bug or must say why, in a commit of its own that
 * regenerates the files (docs/benchmarks.md, "Golden results"):
 * <pre>./mvnw -B -q test -Dtest=GoldenResultsTest -Dgolden.update=true</pre>
 * The runs start together before the first comparison, one per core: the large trees take seconds each.
 */
class GoldenResultsTest {
    /** The second seed of every scenario (a scenario whose own seed is this one takes the next). */
    static final long OTHER_SEED = 1_000_003;
    /** Rewrite the golden files instead of comparing (only those whose content changed; stale ones deleted). */
    static final boolean UPDATE = Boolean.getBoolean("golden.update");
    /** Paths are relative to the module's directory, where Surefire runs the tests. */
    static final Path GOLDEN = Path.of("src/test/resources/golden");
    static final Path READY_MADE = Path.of("src/main/resources/scenarios");
    static final Path REFERENCE = Path.of("src/test/resources/reference");

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ENGINE = ",\n  \"engine\": ";

    /** One case: a scenario file (relative to its source folder's parent, e.g. {@code reference/E1.json}) and a seed. */
    record Case(Path file, String id, long seed) {
        Path golden() { return GOLDEN.resolve(id.replaceFirst("\\.json$", "") + ".seed" + seed + ".json.gz"); }

        @Override
        public String toString() { return id + " seed " + seed; }
    }

    static List<Case> cases() throws IOException {
        List<Case> out = new ArrayList<>();
        for (Path f : list(READY_MADE, "*.json")) add(out, f, "scenarios/" + f.getFileName());
        for (Path f : list(REFERENCE, "E*.json")) add(out, f, "reference/" + f.getFileName());
        return out;
    }

    private static void add(List<Case> out, Path f, String id) throws IOException {
        long own = ScenarioParser.parse(Files.readString(f)).seed();
        out.add(new Case(f, id, own));
        out.add(new Case(f, id, own == OTHER_SEED ? OTHER_SEED + 1 : OTHER_SEED));
    }

    private static List<Path> list(Path dir, String glob) throws IOException {
        List<Path> files = new ArrayList<>();
        try (var s = Files.newDirectoryStream(dir, glob)) {
            s.forEach(files::add);
        }
        files.sort(null);
        return files;
    }

    static Stream<Arguments> arguments() throws IOException {
        return cases().stream().map(Arguments::of);
    }

    private static ExecutorService pool;
    private static final Map<Case, Future<String>> RESULTS = new LinkedHashMap<>();
    /** Set after the last comparison: runs no test asked for (a filtered or re-run test) stop at once. */
    private static volatile boolean stopped;
    private static final RunControl STOPPABLE = new RunControl() {
        @Override
        public boolean cancelled() { return stopped; }
    };

    @BeforeAll
    static void startRuns() throws IOException {
        stopped = false;
        pool = Executors.newFixedThreadPool(Math.min(4, Runtime.getRuntime().availableProcessors()), r -> {
            Thread t = new Thread(r, "golden-run");
            t.setDaemon(true);
            return t;
        });
        for (Case c : cases()) RESULTS.put(c, pool.submit(() -> run(c)));
    }

    @AfterAll
    static void stopRuns() {
        stopped = true;
        pool.shutdownNow();
        RESULTS.clear();
    }

    /** The result JSON of one case without {@code engine}. */
    static String run(Case c) throws IOException {
        Scenario s = ScenarioParser.parse(Files.readString(c.file())).withSeed(c.seed());
        return withoutEngine(ResultJson.write(Simulator.run(s, STOPPABLE)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("arguments")
    void resultIsUnchanged(Case c) throws Exception {
        Future<String> started = RESULTS.remove(c);
        String actual;
        try {
            actual = started != null ? started.get() : run(c);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
        Path golden = c.golden();
        if (UPDATE) {
            if (!Files.exists(golden) || !gunzip(golden).equals(actual)) gzip(golden, actual);
            return;
        }
        if (!Files.exists(golden)) {
            fail(golden + " is missing: a new scenario needs its golden result; regenerate (docs/benchmarks.md, "
                    + "\"Golden results\") in a commit of its own");
        }
        String expected = gunzip(golden);
        if (!expected.equals(actual)) fail(golden + ": result changed for " + c + "; " + firstDifference(expected, actual));
    }

    /** Every golden file belongs to a case: a file left behind by a removed scenario would guard nothing. */
    @Test
    void noStaleGoldenFiles() throws IOException {
        Set<Path> expected = cases().stream().map(Case::golden).collect(Collectors.toCollection(TreeSet::new));
        Set<Path> present = new TreeSet<>();
        try (Stream<Path> s = Files.walk(GOLDEN)) {
            s.filter(Files::isRegularFile).forEach(present::add);
        }
        if (UPDATE) {
            for (Path p : present) if (!expected.contains(p)) Files.delete(p);
            return;
        }
        assertThat(present).as("golden files without a scenario (regenerate to delete them)").isSubsetOf(expected);
    }

    /** The first difference in document order, as {@code at /pointer: expected X, got Y} (values cut to 200 chars). */
    @Test
    void aDifferenceIsReportedByItsJsonPointer() {
        assertThat(firstDifference("{\"a\": {\"b/c\": [1, 2, 3]}, \"d\": 1}", "{\"a\": {\"b/c\": [1, 5, 3]}, \"d\": 2}"))
                .isEqualTo("first difference at /a/b~1c/1: expected 2, got 5");
        assertThat(firstDifference("{\"a\": [1, 2]}", "{\"a\": [1]}"))
                .isEqualTo("first difference at /a: expected an array of 2, got an array of 1");
        assertThat(firstDifference("{\"a\": 1, \"b\": 2}", "{\"a\": 1, \"c\": 2}"))
                .isEqualTo("first difference at /b: expected key \"b\", got key \"c\"");
        assertThat(firstDifference("{\"a\": 1}", "{\"a\":  1}")).startsWith("same JSON, other bytes: first at line 1");
        assertThat(withoutEngine("{\n  \"seed\": 1,\n  \"engine\": {\n    \"wall_ms\": 3\n  }\n}"))
                .isEqualTo("{\n  \"seed\": 1\n}");
    }

    /** The result JSON without its last member, {@code engine} ({@link ResultJson} writes it last). */
    static String withoutEngine(String json) {
        int i = json.lastIndexOf(ENGINE);
        assertThat(i).as("engine member").isPositive();
        return json.substring(0, i) + "\n}";
    }

    static String firstDifference(String expected, String actual) {
        String d = firstDifference(JSON.readTree(expected), JSON.readTree(actual), "");
        if (d != null) return "first difference at " + d;
        int line = 1;
        for (int i = 0; i < Math.min(expected.length(), actual.length()); i++) {
            if (expected.charAt(i) != actual.charAt(i)) break;
            if (expected.charAt(i) == '\n') line++;
        }
        return "same JSON, other bytes: first at line " + line;
    }

    private static String firstDifference(JsonNode e, JsonNode a, String ptr) {
        if (e.isObject() && a.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> ei = e.properties().iterator(), ai = a.properties().iterator();
            while (ei.hasNext() && ai.hasNext()) {
                Map.Entry<String, JsonNode> en = ei.next(), an = ai.next();
                String p = ptr + "/" + en.getKey().replace("~", "~0").replace("/", "~1");
                if (!en.getKey().equals(an.getKey())) {
                    return p + ": expected key \"" + en.getKey() + "\", got key \"" + an.getKey() + "\"";
                }
                String d = firstDifference(en.getValue(), an.getValue(), p);
                if (d != null) return d;
            }
            if (ei.hasNext() || ai.hasNext()) return ptr + ": expected " + e.size() + " keys, got " + a.size();
            return null;
        }
        if (e.isArray() && a.isArray()) {
            for (int i = 0; i < Math.min(e.size(), a.size()); i++) {
                String d = firstDifference(e.get(i), a.get(i), ptr + "/" + i);
                if (d != null) return d;
            }
            if (e.size() != a.size()) return ptr + ": expected an array of " + e.size() + ", got an array of " + a.size();
            return null;
        }
        if (e.equals(a)) return null;
        return (ptr.isEmpty() ? "/" : ptr) + ": expected " + cut(e.toString()) + ", got " + cut(a.toString());
    }

    private static String cut(String s) { return s.length() <= 200 ? s : s.substring(0, 200) + "..."; }

    static String gunzip(Path file) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void gzip(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes) { { def.setLevel(Deflater.BEST_COMPRESSION); } }) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        Files.write(file, bytes.toByteArray());
    }
}
