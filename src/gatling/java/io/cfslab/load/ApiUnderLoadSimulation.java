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
 *       that many are stored; runs an unmeasured pair of short copies of {@code seed03-large-tree-async} (the JIT
 *       compiles the simulator; the first is the finished 384-CPU run whose histograms the mix reads) and
 *       {@code load.warmupSeconds} (60) of the mix (the JIT compiles the request paths).</li>
 *   <li>The measured pair: two copies (384 CPUs, 20,000 tasks) with {@code duration} = {@code load.simSeconds} (600 s,
 *       far longer than the measurement: they execute through all of it and are cancelled after it). Once both
 *       simulate, three windows of the same pair, back to back: {@code load.quietSeconds} (30) with no load,
 *       {@code load.seconds} (60) of the mix at {@code load.rps} (200) requests per second (open model), and
 *       {@code load.quietSeconds} with no load again. In each: the pair's simulated ns per wall second (from the runs'
 *       {@code simulatedNs}), and the CPU seconds of the simulation threads (the service's threads at a nice value
 *       above 0), of the service's other threads (requests, JIT, GC), of Gatling's JVM, and of everything else on the
 *       machine ({@code /proc/stat}). The simulations' slowdown under load is against the mean of the two quiet
 *       windows; the service's own cost to them is its other threads' extra CPU under load (against the quiet
 *       windows), as a share of the processors the two simulation threads can use (Gatling's and other processes' CPU
 *       is not the service's doing).</li>
 * </ol>
 *
 * The service's process is {@code load.servicePid}, else the process whose command line names
 * {@code --server.port=<the port of load.baseUrl>}; without it the CPU split is not printed.
 *
 * The mix, as a dashboard and a script use the service: 25 % run status polls ({@code GET /api/runs/{id}} of an
 * executing run), 15 % {@code GET /api/scenarios}, 10 % the home page, 15 % one histogram of the finished 384-CPU run,
 * 10 % all its histograms, 10 % {@code GET /api/runs?status=running}, 5 % {@code GET /api/runs/{id}} of the finished
 * run, 5 % a ready-made scenario, 5 % {@code /actuator/health}. Assertions: no failed request, p99 &lt; 100 ms.
 *
 * <pre>./mvnw -B -q -DskipTests package
 * java -jar target/cfslab.jar --server.port=8091 &amp;       # the service under test (H2 under ./data)
 * ./mvnw -B -Pload test-compile gatling:test -Dload.baseUrl=http://127.0.0.1:8091 [-Dload.rps=200] [-Dload.seconds=60]</pre>
 */
public class ApiUnderLoadSimulation extends Simulation {
    static final String BASE = System.getProperty("load.baseUrl", "http://127.0.0.1:8080");
    static final int RPS = Integer.getInteger("load.rps", 200);
    static final int SECONDS = Integer.getInteger("load.seconds", 60);
    /** Simulated seconds of the measured pair: long enough to execute through the three windows (then cancelled). */
    static final int SIM_SECONDS = Integer.getInteger("load.simSeconds", 600);
    /** Simulated seconds of the unmeasured pair that warms the JIT and leaves the finished run the mix reads. */
    static final int WARM_SIM_SECONDS = Integer.getInteger("load.warmSimSeconds", 4);
    /** Wall seconds of each quiet window, before and after the load. */
    static final int QUIET_SECONDS = Integer.getInteger("load.quietSeconds", 30);
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
    private static final Pattern SIMULATED = Pattern.compile("\"simulatedNs\"\\s*:\\s*(\\d+)");

    static volatile String finishedRun;
    static volatile String executingRun;
    static volatile List<String> loadRuns = List.of();
    /** The measured pair and the machine at the start of the load window, and the quiet window before it. */
    static volatile Sample loadStart;
    static volatile Window quietBefore;

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
            // an unmeasured pair first: the simulator's code is compiled by the JIT before the measured pair
            String warm = doc.replaceFirst("\"duration\"\\s*:\\s*\"[^\"]*\"", "\"duration\": \"" + WARM_SIM_SECONDS + "s\"");
            List<String> first = submitTwo(warm);
            awaitDone(first);
            finishedRun = first.get(0);
            if (WARMUP_SECONDS > 0) warmUp(first.get(1));
            loadRuns = submitTwo(longer);
            for (String r : loadRuns) awaitSimulating(r);
            executingRun = loadRuns.get(0);
            Sample before = Sample.take();
            Thread.sleep(QUIET_SECONDS * 1000L);
            loadStart = Sample.take();
            quietBefore = new Window("quiet, before the load", before, loadStart);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("load benchmark setup against " + BASE + " failed", e);
        }
    }

    @Override
    public void after() {
        try {
            Sample loadEnd = Sample.take();
            Window load = new Window("under the load (" + RPS + " req/s)", loadStart, loadEnd);
            Thread.sleep(QUIET_SECONDS * 1000L);
            Window quietAfter = new Window("quiet, after the load", loadEnd, Sample.take());
            for (String r : loadRuns) send("POST", "/api/runs/" + r + "/cancel", null); // they were only measured
            System.out.printf("the measured pair: two %d s runs of %s, at once, through three windows (%d processors);"
                    + " service pid %s%n", SIM_SECONDS, LARGE, CPUS, SERVICE_PID < 0 ? "unknown (no CPU split)" : SERVICE_PID);
            for (Window w : List.of(quietBefore, load, quietAfter)) System.out.println("  " + w);
            double quietRate = (quietBefore.simulatedPerSecond() + quietAfter.simulatedPerSecond()) / 2;
            System.out.printf("simulations under load: %.1f %% slower than in the quiet windows (simulated s per wall s"
                    + " %.3f against %.3f)%n", 100 * (1 - load.simulatedPerSecond() / quietRate), load.simulatedPerSecond(),
                    quietRate);
            if (SERVICE_PID > 0) {
                double quietSims = (quietBefore.perSecond(quietBefore.simCpu()) + quietAfter.perSecond(quietAfter.simCpu())) / 2;
                double quietOther = (quietBefore.perSecond(quietBefore.serviceCpu()) + quietAfter.perSecond(quietAfter.serviceCpu())) / 2;
                // what the two simulation threads could use with nothing else running: one processor each
                int capacity = Math.min(CPUS, loadRuns.size());
                double serviceCost = (load.perSecond(load.serviceCpu()) - quietOther) / capacity;
                System.out.printf("CPU under load, per wall second: simulations %.2f (quiet %.2f), the service's other"
                                + " threads %.2f (quiet %.2f), Gatling %.2f (%.2f ms per request), other processes %.2f"
                                + " (quiet %.2f)%n", load.perSecond(load.simCpu()), quietSims,
                        load.perSecond(load.serviceCpu()), quietOther, load.perSecond(load.gatlingCpu()),
                        1000 * load.gatlingCpu() / ((double) RPS * SECONDS), load.perSecond(load.othersCpu()),
                        (quietBefore.perSecond(quietBefore.othersCpu()) + quietAfter.perSecond(quietAfter.othersCpu())) / 2);
                // CPU the service takes from the simulations makes them 1 / (1 - share) slower on busy cores
                System.out.printf("the service's own cost to the simulations: its extra CPU under load is %.1f %% of the"
                        + " %d processors the simulations can use, i.e. %.1f %% slower on its own on a machine of their own"
                        + " (goal: at most 20 %%); the CPU the simulations lost under load, all causes (Gatling and other"
                        + " processes too): %.1f %%%n", 100 * serviceCost, capacity,
                        serviceCost < 1 ? 100 * (1 / (1 - serviceCost) - 1) : Double.POSITIVE_INFINITY,
                        100 * (1 - load.perSecond(load.simCpu()) / quietSims));
            }
        } catch (IOException | InterruptedException e) {
            System.out.println("after the load: " + e);
        }
    }

    /** The service's process id: {@code load.servicePid}, else the process started with {@code --server.port=<port>}. */
    static final long SERVICE_PID = servicePid();

    private static long servicePid() {
        Long given = Long.getLong("load.servicePid");
        if (given != null) return given;
        String port = "--server.port=" + URI.create(BASE).getPort();
        try (var procs = java.nio.file.Files.list(java.nio.file.Path.of("/proc"))) {
            for (java.nio.file.Path p : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    String cmd = java.nio.file.Files.readString(p.resolve("cmdline")).replace('\0', ' ');
                    if (cmd.contains(port) && cmd.contains("java")) return Long.parseLong(p.getFileName().toString());
                } catch (IOException | RuntimeException gone) {
                    // a process that ended, or one we may not read
                }
            }
        } catch (IOException noProc) {
            return -1;
        }
        return -1;
    }

    /**
     * CPU seconds so far: the service's simulation threads (nice above 0: {@code cfslab.runs.nice}) and its other
     * threads (from {@code /proc/<pid>/task/<tid>/stat}, utime + stime, 100 ticks a second), Gatling's JVM, the
     * whole machine's busy time ({@code /proc/stat}); and the measured pair's simulated ns.
     */
    record Sample(long nanos, double simCpu, double serviceCpu, double gatlingCpu, double machineCpu, long simulatedNs) {
        static Sample take() throws IOException, InterruptedException {
            double sim = 0, other = 0;
            if (SERVICE_PID > 0) {
                try (var tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc/" + SERVICE_PID + "/task"))) {
                    for (java.nio.file.Path t : tasks.toList()) {
                        try {
                            String stat = java.nio.file.Files.readString(t.resolve("stat"));
                            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                            // after the name: f[0] is field 3 (state); utime 14, stime 15, nice 19
                            double cpu = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
                            if (Integer.parseInt(f[16]) > 0) sim += cpu; else other += cpu;
                        } catch (IOException | RuntimeException ended) {
                            // a thread that ended between the listing and the read
                        }
                    }
                }
            }
            String[] cpu = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat")).get(0).trim().split("\\s+");
            double busy = 0;
            for (int i = 1; i <= 8 && i < cpu.length; i++) if (i != 4 && i != 5) busy += Long.parseLong(cpu[i]) / 100.0; // not idle, iowait; guest is in user
            long simulated = 0;
            for (String r : loadRuns) {
                Matcher m = SIMULATED.matcher(send("GET", "/api/runs/" + r, null));
                if (m.find()) simulated += Long.parseLong(m.group(1));
            }
            return new Sample(System.nanoTime(), sim, other, gatlingCpuNs() / 1e9, busy, simulated);
        }
    }

    /** What happened between two samples. */
    record Window(String name, Sample from, Sample to) {
        double seconds() { return (to.nanos() - from.nanos()) / 1e9; }
        double perSecond(double cpuSeconds) { return cpuSeconds / seconds(); }
        double simulatedPerSecond() { return (to.simulatedNs() - from.simulatedNs()) / 1e9 / seconds(); }
        double simCpu() { return to.simCpu() - from.simCpu(); }
        double serviceCpu() { return to.serviceCpu() - from.serviceCpu(); }
        double gatlingCpu() { return to.gatlingCpu() - from.gatlingCpu(); }
        double othersCpu() {
            return (to.machineCpu() - from.machineCpu()) - simCpu() - serviceCpu() - gatlingCpu();
        }

        @Override
        public String toString() {
            return String.format("%-32s %5.1f s wall: %.3f simulated s per wall s (both runs), %.3f per simulation CPU s;"
                            + " CPU s: simulations %.1f, service otherwise %.1f, Gatling %.1f, other processes %.1f", name,
                    seconds(), simulatedPerSecond(), simCpu() > 0 ? (to.simulatedNs() - from.simulatedNs()) / 1e9 / simCpu()
                            : Double.NaN, simCpu(), serviceCpu(), gatlingCpu(), othersCpu());
        }
    }

    /** Polls run {@code id} until it executes and has simulated something (its set-up is over). */
    private static void awaitSimulating(String id) throws IOException, InterruptedException {
        long end = System.nanoTime() + Duration.ofMinutes(15).toNanos();
        while (System.nanoTime() < end) {
            Matcher m = SIMULATED.matcher(await(id, "running"));
            if (m.find() && Long.parseLong(m.group(1)) > 0) return;
            Thread.sleep(200);
        }
        throw new IOException("run " + id + " did not start simulating");
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
