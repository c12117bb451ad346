package io.cfslab.web;

import io.cfslab.store.ReadyMadeScenarios;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Sends the dashboard's and the API's read-only requests to this service itself once it has started, so that the
 * first real requests find their code loaded, initialised and compiled. Until it is done, health component
 * {@code warmup} is {@code OUT_OF_SERVICE} (so {@code /actuator/health} answers 503 {@code OUT_OF_SERVICE}: a load
 * balancer or a benchmark waits for it), with the requests sent so far as its details.
 *
 * <p>Why (issue 13): without it the first burst of requests after a start is what loads the classes of each request
 * path, initialises Thymeleaf (one lock: 16 threads waited on {@code TemplateEngine.initialize}), parses each
 * template (every thread parsed the home page at once) and runs in the interpreter until the JIT has compiled it. At
 * 200 requests/s while two simulations ran that took the first 5–10 s (818 requests in flight after 5 s, p99 5.3 s),
 * and the JIT's compiler threads, at normal priority, took a core from the simulations meanwhile. Here that work is
 * done before anyone waits for it: {@code cfslab.warmup.rounds} rounds, each one request to every path below, from two
 * threads (GET only: nothing is stored, no run starts). It runs in the background; requests that arrive meanwhile
 * are answered as usual.
 */
@Component("warmup") // health component "warmup"
public class StartupWarmup implements HealthIndicator {
    private static final Logger log = LoggerFactory.getLogger(StartupWarmup.class);
    private static final Pattern RUN_ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");

    private final Environment env;
    private final ReadyMadeScenarios readyMade;
    private final int rounds;
    private final AtomicInteger sent = new AtomicInteger();
    private volatile Thread thread;
    private volatile boolean done;

    public StartupWarmup(Environment env, ReadyMadeScenarios readyMade, @Value("${cfslab.warmup.rounds:0}") int rounds) {
        this.env = env;
        this.readyMade = readyMade;
        this.rounds = Math.max(0, rounds);
    }

    @EventListener(ApplicationReadyEvent.class)
    void onReady() {
        Integer port = env.getProperty("local.server.port", Integer.class);
        if (rounds == 0 || port == null || port <= 0) {
            done = true;
            return;
        }
        Thread t = new Thread(() -> run(port), "cfslab-warmup");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** Waits for the warm-up to end (tests). */
    void await(Duration timeout) throws InterruptedException {
        Thread t = thread;
        if (t != null) t.join(timeout.toMillis());
    }

    private void run(int port) {
        long start = System.nanoTime();
        AtomicInteger failed = new AtomicInteger();
        try {
            String host = env.getProperty("server.address", "127.0.0.1");
            if (host.isBlank() || host.equals("0.0.0.0") || host.equals("::")) host = "127.0.0.1";
            String base = "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
            String token = env.getProperty("cfslab.security.token", "");
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            List<String[]> paths = paths(client, base, token);
            Thread[] workers = new Thread[2];
            for (int w = 0; w < workers.length; w++) {
                int first = w;
                workers[w] = new Thread(() -> {
                    for (int r = first; r < rounds; r += workers.length) {
                        for (String[] p : paths) {
                            if (!get(client, base, p[0], p[1], token)) failed.incrementAndGet();
                            sent.incrementAndGet();
                        }
                    }
                }, "cfslab-warmup-" + w);
                workers[w].setDaemon(true);
                workers[w].start();
            }
            for (Thread w : workers) w.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.warn("warm-up stopped: {}", e.toString());
        } finally {
            log.info("warm-up: {} requests to this service ({} not answered 2xx) in {} ms; ready", sent.get(),
                    failed.get(), (System.nanoTime() - start) / 1_000_000);
            done = true;
        }
    }

    /** UP once the warm-up is over (or when there is none); OUT_OF_SERVICE while it runs. */
    @Override
    public Health health() {
        if (done) return Health.up().build();
        return Health.outOfService().withDetail("requests", sent.get()).withDetail("rounds", rounds).build();
    }

    /** The paths warmed, each with its Accept header: pages, lists, one scenario, and a finished run's reads if any. */
    private List<String[]> paths(HttpClient client, String base, String token) {
        List<String[]> p = new ArrayList<>();
        String json = "application/json";
        p.add(new String[] {"/", "text/html"});
        p.add(new String[] {"/api/scenarios", json});
        readyMade.all().stream().findFirst().ifPresent(s -> p.add(new String[] {"/api/scenarios/" + s.id(), json}));
        p.add(new String[] {"/api/runs?status=running", json});
        p.add(new String[] {"/api/runs", json});
        p.add(new String[] {"/api/experiments", json});
        p.add(new String[] {"/actuator/health", json});
        String done = body(client, base, "/api/runs?status=done", token);
        Matcher m = done == null ? null : RUN_ID.matcher(done);
        if (m != null && m.find()) {
            String run = "/api/runs/" + m.group(1);
            p.add(new String[] {run, json});
            p.add(new String[] {run + "/histograms", json});
            p.add(new String[] {run + "/histograms/distribute_cfs_runtime_ns", json});
            p.add(new String[] {"/runs/" + m.group(1), "text/html"});
        }
        return p;
    }

    private static HttpRequest request(String base, String path, String accept, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Accept", accept);
        if (!token.isBlank()) b.header("Authorization", "Bearer " + token);
        return b.GET().build();
    }

    private static boolean get(HttpClient client, String base, String path, String accept, String token) {
        try {
            int status = client.send(request(base, path, accept, token), HttpResponse.BodyHandlers.discarding()).statusCode();
            // health answers 503 OUT_OF_SERVICE while this runs (see health())
            return status / 100 == 2 || path.equals("/actuator/health") && status == 503;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String body(HttpClient client, String base, String path, String token) {
        try {
            HttpResponse<String> r = client.send(request(base, path, "application/json", token),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
