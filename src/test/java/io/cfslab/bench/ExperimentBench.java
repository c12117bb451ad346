package io.cfslab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.CfsLabApplication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * BENCHMARK, not part of {@code ./mvnw verify} (the class name matches no Surefire pattern): the parallel speed-up
 * of an experiment (issue 7). The real application (H2 in memory, {@code cfslab.runs.pool-size} = the machine's
 * processors, 2 here) runs a 2-arm × 4-repeat experiment of the ready-made {@code dashboard-demo} (16 CPUs, 7
 * groups, 300 s simulated; arms {@code task} and {@code cfs_rq}), and the same 8 runs one after another (each
 * {@code POST /api/runs} with the arm's exact scenario and seed, the next submitted when the previous is done).
 * Wall time from the first submission to {@code done} (for the experiment: its table computed too), alternating
 * sequential and parallel, {@value #ROUNDS} rounds after one warm-up round of each. The figure is the median of the
 * rounds' ratios parallel / sequential (target: at most 0.6), and the ratio of the fastest round of each kind (the
 * least disturbed by other work on a shared machine).
 *
 * <pre>./mvnw -B -q test -Dtest=ExperimentBench -Dsurefire.failIfNoSpecifiedTests=false</pre>
 *
 * Prints the figures with the load average before and after, and writes them to {@code target/experiment-bench.txt}.
 */
class ExperimentBench {
    static final int ROUNDS = 5;
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String EXPERIMENT = """
            {"name": "speed-up: dashboard-demo, task vs cfs_rq", "scenario_id": "dashboard-demo", "seed": 1, "repeats": 4,
             "arms": [{"name": "task", "set": {"/kernel/throttle": "task"}},
                      {"name": "cfs_rq", "set": {"/kernel/throttle": "cfs_rq"}}]}""";

    @Test
    void twoArmsTimesFourRepeatsAgainstTheirRunsOneAfterAnother() throws Exception {
        String db = "jdbc:h2:mem:expbench-" + UUID.randomUUID().toString().substring(0, 8) + ";DB_CLOSE_DELAY=-1";
        ConfigurableApplicationContext ctx = new SpringApplicationBuilder(CfsLabApplication.class).run(
                "--server.port=0", "--spring.datasource.url=" + db, "--spring.main.banner-mode=off",
                "--cfslab.runs.poll-interval=100ms", "--logging.level.root=WARN");
        StringBuilder out = new StringBuilder();
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).strip();
        List<Double> ratios = new ArrayList<>();
        List<Long> seq = new ArrayList<>();
        List<Long> par = new ArrayList<>();
        try {
            WebClient web = WebClient.builder()
                    .baseUrl("http://127.0.0.1:" + ctx.getEnvironment().getProperty("local.server.port"))
                    .codecs(c -> c.defaultCodecs().maxInMemorySize(64 << 20)).build();
            // the experiment's 8 runs, exactly: each arm's document with the repeat's seed
            String first = post(web, "/api/experiments", EXPERIMENT);
            JsonNode done = await(web, "/api/experiments/" + first);
            List<String> runs = new ArrayList<>();
            for (JsonNode arm : done.path("arms")) for (JsonNode r : arm.path("runs")) runs.add(r.path("id").asString());
            List<String> documents = new ArrayList<>();
            for (String r : runs) documents.add(get(web, "/api/runs/" + r + "/scenario").toString());
            sequential(web, documents); // warm-up of the other kind
            for (int round = 0; round < ROUNDS; round++) {
                long s = sequential(web, documents);
                long p = parallel(web);
                seq.add(s);
                par.add(p);
                ratios.add((double) p / s);
                out.append(String.format("round %d: one after another %d ms, experiment %d ms, ratio %.3f%n", round + 1, s, p,
                        (double) p / s));
            }
        } finally {
            ctx.close();
        }
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).strip();
        List<Double> sorted = new ArrayList<>(ratios);
        Collections.sort(sorted);
        double median = sorted.get(sorted.size() / 2);
        String head = String.format("experiment speed-up benchmark %s, %d processors, Java %s%n"
                        + "2 arms x 4 repeats of dashboard-demo (300 s simulated each), pool-size = processors%n"
                        + "load average before: %s; after: %s%n",
                LocalDateTime.now().truncatedTo(ChronoUnit.MINUTES), Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), loadBefore, loadAfter);
        // on a machine shared with other builds the fastest round of each kind is the least disturbed one
        String tail = String.format("median ratio (experiment / one after another): %.3f; medians %d ms / %d ms%n"
                        + "fastest of each: %d ms / %d ms, ratio %.3f%n",
                median, median(par), median(seq), Collections.min(par), Collections.min(seq),
                (double) Collections.min(par) / Collections.min(seq));
        String text = head + out + tail;
        System.out.print(text);
        Files.writeString(Path.of("target/experiment-bench.txt"), text);
        assertThat(ratios).hasSize(ROUNDS);
    }

    long sequential(WebClient web, List<String> documents) throws InterruptedException {
        long t0 = System.nanoTime();
        for (String doc : documents) {
            ObjectNode req = JSON.createObjectNode();
            req.set("scenario", JSON.readTree(doc));
            String id = post(web, "/api/runs", req.toString());
            await(web, "/api/runs/" + id);
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }

    long parallel(WebClient web) throws InterruptedException {
        long t0 = System.nanoTime();
        String id = post(web, "/api/experiments", EXPERIMENT);
        await(web, "/api/experiments/" + id);
        get(web, "/api/experiments/" + id + "/result"); // the table is there
        return (System.nanoTime() - t0) / 1_000_000;
    }

    static String post(WebClient web, String uri, String body) {
        String res = web.post().uri(uri).contentType(MediaType.APPLICATION_JSON).bodyValue(body).retrieve()
                .bodyToMono(String.class).block(Duration.ofSeconds(30));
        return JSON.readTree(res).path("id").asString();
    }

    static JsonNode get(WebClient web, String uri) {
        return JSON.readTree(web.get().uri(uri).retrieve().bodyToMono(String.class).block(Duration.ofSeconds(30)));
    }

    /** Polls every 20 ms until done; fails on failed or cancelled. */
    static JsonNode await(WebClient web, String uri) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (System.nanoTime() < end) {
            JsonNode x = get(web, uri);
            String st = x.path("status").asString();
            if (st.equals("done")) return x;
            assertThat(st).as(uri).isIn("queued", "running");
            Thread.sleep(20);
        }
        throw new AssertionError("timed out: " + uri);
    }

    static long median(List<Long> values) {
        List<Long> s = new ArrayList<>(values);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }
}
