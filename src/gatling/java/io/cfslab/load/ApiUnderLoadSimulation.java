package io.cfslab.load;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.percent;
import static io.gatling.javaapi.core.CoreDsl.randomSwitch;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * LOAD BENCHMARK (issue 13), not part of {@code ./mvnw verify}: a realistic request mix at a constant rate against
 * a running service while two 384-CPU simulations execute, and the simulations' slowdown.
 *
 * <ol>
 *   <li>Waits until {@code /actuator/health} answers 200 (the service's start-up warm-up is over).</li>
 *   <li>Setup, with no load: stores {@code load.scenarios} (60) large scenarios (a copy of
 *       {@code seed03-large-tree-async} with {@code load.cgroups} (4,000) explicit cgroups each, some 300 KB) unless
 *       that many are stored, then runs two copies of {@code seed03-large-tree-async} (384 CPUs, 20,000 tasks) with
 *       {@code duration} = {@code load.simSeconds} (30 s) at once and waits for them: their wall times are the
 *       baseline; before them an unmeasured pair (the JIT compiles the simulator) and {@code load.warmupSeconds} (60)
 *       of the mix (the JIT compiles the request paths). The first run of the unmeasured pair is the finished 384-CPU
 *       run whose histograms the mix reads.</li>
 *   <li>Load: submits two more such runs, waits until both execute, then {@code load.rps} (200) requests per second
 *       for {@code load.seconds} (60 s), the mix below; afterwards prints the CPU seconds the service and Gatling itself
 *       used while the load ran (the load generator shares the machine: its CPU is taken from the simulations as
 *       the service's is), waits for the two runs and prints both wall times against the baseline.</li>
 * </ol>
 *
 * The mix, as a dashboard and a script use the service: 25 % run status polls ({@code GET /api/runs/{id}} of an
 * executing run), 15 % {@code GET /api/scenarios}, 10 % the home page, 15 % one histogram of the finished 384-CPU run,
 * 10 % all its histograms, 10 % {@code GET /api/runs?status=running}, 5 % {@code GET /api/runs/{id}} of the finished
 * run, 5 % a ready-made scenario, 5 % {@code /actuator/health}. Assertions: no failed request, p99 &lt; 100 ms.
 *
 * <pre>./mvnw -B -q -DskipTests package
 * java -jar target/cfslab.jar &amp;       # the service under test (H2 under ./data)
 * ./mvnw -B -Pload test-compile gatling:test [-Dload.baseUrl=http://127.0.0.1:8080] [-Dload.rps=200] [-Dload.seconds=60]</pre>
 */
public class ApiUnderLoadSimulation extends Simulation {
    static final String BASE = System.getProperty("load.baseUrl", "http://127.0.0.1:8080");
    static final int RPS = Integer.getInteger("load.rps", 200);
    static final int SECONDS = Integer.getInteger("load.seconds", 60);
    static final int SIM_SECONDS = Integer.getInteger("load.simSeconds", 30);
    static final int SCENARIOS = Integer.getInteger("load.scenarios", 60);
    static final int CGROUPS = Integer.getInteger("load.cgroups", 4000);
    static final String LARGE = "seed03-large-tree-async";
    /** Seconds of the same mix sent before the measured runs (after an unmeasured pair of runs): a warm service. */
    static final int WARMUP_SECONDS = Integer.getInteger("load.warmupSeconds", 60);
    /** The machine's processors, for the share of the machine the load took. */
    static final int CPUS = Runtime.getRuntime().availableProcessors();

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern WALL = Pattern.compile("\"wallMs\"\\s*:\\s*(\\d+)");
    private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*\"([a-z]+)\"");

    static volatile String finishedRun;
    static volatile String executingRun;
    static volatile List<String> loadRuns = List.of();
    static volatile long baselineWallMs;
    /** CPU ns of the service (its process.cpu.time metric) and of this JVM (Gatling) when the load started. */
    static volatile double serviceCpuAtStart, gatlingCpuAtStart;
    static volatile long loadStartNanos;

    HttpProtocolBuilder protocol = http.baseUrl(BASE).acceptHeader("application/json").shareConnections();

    ScenarioBuilder mix = scenario("request mix").exec(randomSwitch().on(
            percent(25).then(exec(http("run status").get(s -> "/api/runs/" + executingRun).check(status().is(200)))),
            percent(15).then(exec(http("scenarios").get("/api/scenarios").check(status().is(200)))),
            percent(10).then(exec(http("home page").get("/").header("Accept", "text/html").check(status().is(200)))),
            percent(15).then(exec(http("histogram").get(s -> "/api/runs/" + finishedRun
                    + "/histograms/distribute_cfs_runtime_ns").check(status().is(200)))),
            percent(10).then(exec(http("histograms").get(s -> "/api/runs/" + finishedRun + "/histograms")
                    .check(status().is(200)))),
            percent(10).then(exec(http("running runs").get("/api/runs?status=running").check(status().is(200)))),
            percent(5).then(exec(http("finished run").get(s -> "/api/runs/" + finishedRun).check(status().is(200)))),
            percent(5).then(exec(http("ready-made scenario").get("/api/scenarios/seed03-functional")
                    .check(status().is(200)))),
            percent(5).then(exec(http("health").get("/actuator/health").check(status().is(200))))));

    {
        setUp(mix.injectOpen(constantUsersPerSec(RPS).during(Duration.ofSeconds(SECONDS))))
                .protocols(protocol)
                .assertions(global().failedRequests().count().is(0L),
                        global().responseTime().percentile(99.0).lt(100),
                        details("scenarios").responseTime().percentile(50.0).lt(10),
                        details("histogram").responseTime().percentile(50.0).lt(10));
    }

    private static io.gatling.javaapi.core.ChainBuilder exec(io.gatling.javaapi.http.HttpRequestActionBuilder r) {
        return io.gatling.javaapi.core.CoreDsl.exec(r);
    }

    @Override
    public void before() {
        try {
            awaitReady();
            String large = send("GET", "/api/scenarios/" + LARGE, null);
            String doc = large.substring(large.indexOf("\"scenario\"") + "\"scenario\"".length());
            doc = doc.substring(doc.indexOf('{'), doc.lastIndexOf('}')); // the document (the view's last member)
            String longer = doc.replaceFirst("\"duration\"\\s*:\\s*\"[^\"]*\"", "\"duration\": \"" + SIM_SECONDS + "s\"");
            long stored = Pattern.compile("\"name\"\\s*:\\s*\"load-").matcher(send("GET", "/api/scenarios", null))
                    .results().count();
            if (stored < SCENARIOS) {
                StringBuilder cg = new StringBuilder();
                for (int i = 0; i < CGROUPS; i++) {
                    cg.append(i == 0 ? "" : ",").append("{\"path\": \"/load/g").append(i)
                            .append("\", \"cpu.max\": \"50000 100000\"}");
                }
                for (long i = stored; i < SCENARIOS; i++) {
                    String big = "{\"name\": \"load-" + i + "\", \"duration\": \"1s\", \"machine\": {\"profile\": "
                            + "\"generic\", \"cpus\": 4}, \"cgroups\": [" + cg + "], \"tasks\": [{\"name\": \"t\","
                            + " \"cgroup\": \"/load/g0\", \"count\": 1, \"workload\": {\"kind\": \"hog\"}}]}";
                    send("POST", "/api/scenarios", big);
                }
            }
            // an unmeasured pair first: the simulator's code is compiled by the JIT before the baseline, as it is
            // before the runs under load (otherwise the baseline alone pays for it)
            List<String> first = submitTwo(longer);
            awaitDone(first);
            finishedRun = first.get(0);
            if (WARMUP_SECONDS > 0) warmUp(first.get(1));
            List<String> base = submitTwo(longer);
            long[] wall = awaitDone(base);
            baselineWallMs = Math.max(wall[0], wall[1]);
            System.out.printf("baseline (no load): two %d s runs of %s at once: wall %d ms and %d ms%n", SIM_SECONDS,
                    LARGE, wall[0], wall[1]);
            loadRuns = submitTwo(longer);
            for (String r : loadRuns) await(r, "running");
            executingRun = loadRuns.get(0);
            serviceCpuAtStart = serviceCpuNs();
            gatlingCpuAtStart = gatlingCpuNs();
            loadStartNanos = System.nanoTime();
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("load benchmark setup against " + BASE + " failed", e);
        }
    }

    @Override
    public void after() {
        try {
            double loadSeconds = (System.nanoTime() - loadStartNanos) / 1e9;
            double service = (serviceCpuNs() - serviceCpuAtStart) / 1e9, gatling = (gatlingCpuNs() - gatlingCpuAtStart) / 1e9;
            long requests = (long) RPS * SECONDS;
            // the load's CPU comes out of the simulations' share of the machine (they run at a lower priority): with
            // this much taken, the best the two runs could do is 1 / (1 - share) of their baseline
            double share = (service + gatling) / (loadSeconds * CPUS);
            System.out.printf("CPU while the load ran (%.1f s, %d processors): service %.1f s (the two simulations'"
                            + " threads included), Gatling %.1f s (%.2f ms per request); both together %.0f %% of the"
                            + " machine%n", loadSeconds, CPUS, service, gatling, 1000 * gatling / requests, 100 * share);
            long[] wall = awaitDone(loadRuns);
            long under = Math.max(wall[0], wall[1]);
            System.out.printf("under load: two %d s runs of %s at once (started before the load): wall %d ms and %d ms;"
                    + " slower than the baseline by %.1f %% (the load lasted %d s of it)%n", SIM_SECONDS, LARGE, wall[0],
                    wall[1], 100.0 * (under - baselineWallMs) / baselineWallMs, SECONDS);
        } catch (IOException | InterruptedException e) {
            System.out.println("after the load: " + e);
        }
    }

    /** The service's CPU time so far, ns (Micrometer's {@code process.cpu.time}, all its threads). */
    private static double serviceCpuNs() throws IOException, InterruptedException {
        Matcher m = Pattern.compile("\"value\"\\s*:\\s*([0-9.Ee+]+)").matcher(send("GET", "/actuator/metrics/process.cpu.time", null));
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    /** This JVM's (Gatling's) CPU time so far, ns. */
    private static double gatlingCpuNs() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * The mix at {@code load.rps} for {@code load.warmupSeconds}, with no run executing, so that the measured minute
     * meets a service whose request paths the JIT has compiled (a service in use has answered for longer than its own
     * start-up warm-up, io.cfslab.web.StartupWarmup). {@code executing} stands in for the executing run.
     */
    private static void warmUp(String executing) throws InterruptedException {
        String[] paths = {"/api/runs/" + executing, "/api/scenarios", "/", "/api/runs/" + finishedRun
                + "/histograms/distribute_cfs_runtime_ns", "/api/runs/" + finishedRun + "/histograms",
                "/api/runs?status=running", "/api/runs/" + finishedRun, "/api/scenarios/seed03-functional",
                "/actuator/health"};
        int[] percent = {25, 15, 10, 15, 10, 10, 5, 5, 5};
        java.util.Random random = new java.util.Random(1);
        List<java.util.concurrent.CompletableFuture<?>> sent = new ArrayList<>();
        long start = System.nanoTime(), every = 1_000_000_000L / RPS;
        for (long i = 0; i < (long) RPS * WARMUP_SECONDS; i++) {
            long due = start + i * every;
            long wait = due - System.nanoTime();
            if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            int r = random.nextInt(100), k = 0;
            while (r >= percent[k]) r -= percent[k++];
            sent.add(CLIENT.sendAsync(HttpRequest.newBuilder(URI.create(BASE + paths[k])).timeout(Duration.ofSeconds(30))
                    .header("Accept", k == 2 ? "text/html" : "application/json").build(),
                    HttpResponse.BodyHandlers.discarding()));
        }
        for (var f : sent) {
            try {
                f.join();
            } catch (RuntimeException e) {
                // a warm-up request that failed only warms less
            }
        }
        System.out.printf("warm-up: %d requests of the mix in %.1f s%n", sent.size(), (System.nanoTime() - start) / 1e9);
    }

    /** Waits until {@code /actuator/health} answers 200 (the service's start-up warm-up is over: StartupWarmup). */
    private static void awaitReady() throws IOException, InterruptedException {
        long end = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (System.nanoTime() < end) {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(BASE + "/actuator/health"))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200) return;
            Thread.sleep(500);
        }
        throw new IOException(BASE + "/actuator/health did not answer 200 within 5 minutes");
    }

    private static List<String> submitTwo(String scenario) throws IOException, InterruptedException {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Matcher m = ID.matcher(send("POST", "/api/runs", "{\"scenario\": " + scenario + "}"));
            if (!m.find()) throw new IOException("no run id");
            ids.add(m.group(1));
        }
        return ids;
    }

    private static long[] awaitDone(List<String> runs) throws IOException, InterruptedException {
        long[] wall = new long[runs.size()];
        for (int i = 0; i < runs.size(); i++) {
            String r = await(runs.get(i), "done");
            Matcher m = WALL.matcher(r);
            wall[i] = m.find() ? Long.parseLong(m.group(1)) : -1;
        }
        return wall;
    }

    /** Polls run {@code id} until its status is {@code want} (or it is done). */
    private static String await(String id, String want) throws IOException, InterruptedException {
        long end = System.nanoTime() + Duration.ofMinutes(15).toNanos();
        while (System.nanoTime() < end) {
            String r = send("GET", "/api/runs/" + id, null);
            Matcher m = STATUS.matcher(r);
            String st = m.find() ? m.group(1) : "";
            if (want.equals("done") && (st.equals("failed") || st.equals("cancelled"))) {
                throw new IOException("run " + id + " ended " + st + ": " + r);
            }
            if (st.equals(want) || st.equals("done")) return r;
            Thread.sleep(200);
        }
        throw new IOException("run " + id + " did not reach " + want);
    }

    private static String send(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(BASE + path)).timeout(Duration.ofMinutes(2))
                .header("Accept", "application/json");
        String token = System.getenv("CFSLAB_SECURITY_TOKEN");
        if (token != null && !token.isBlank()) b.header("Authorization", "Bearer " + token);
        if (body != null) b.header("Content-Type", "application/json");
        HttpResponse<String> res = CLIENT.send(b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (res.statusCode() >= 300) throw new IOException(method + " " + path + ": " + res.statusCode() + " " + res.body());
        return res.body();
    }
}
