package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.createScenario;
import static io.cfslab.api.ApiTestSupport.json;
import static io.cfslab.api.ApiTestSupport.problem;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Kinds of API fault a breaker run found (issue 13), each over every member of its kind. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:apikinds-${random.uuid};DB_CLOSE_DELAY=-1", "cfslab.runs.execute=false"})
@AutoConfigureWebTestClient(timeout = "60s")
class ApiKindsTest {
    @Autowired WebTestClient web;

    static String scenario(String name, String kernel, String cgroupEntry) {
        return """
                {"name": "%s", "duration": "200ms", "machine": {"cpus": 1}, "kernel": {"version": "%s"},
                 "cgroups": [%s],
                 "tasks": [{"name": "t", "cgroup": "/a", "workload": {"kind": "hog"}}]}
                """.formatted(name, kernel, cgroupEntry);
    }

    int get(String uri) {
        return web.get().uri(uri).exchange().returnResult(byte[].class).getStatus().value();
    }

    int write(String uri, String value) {
        return web.put().uri(uri).contentType(MediaType.TEXT_PLAIN).bodyValue(value).exchange()
                .returnResult(byte[].class).getStatus().value();
    }

    List<String> groups(String id) {
        List<String> out = new java.util.ArrayList<>();
        json(web.get().uri("/api/scenarios/" + id + "/cgroups").exchange().expectStatus().isOk())
                .forEach(g -> out.add(g.path("path").asString()));
        return out;
    }

    /**
     * A file write ({@code text/plain}, as echo) to a group that does not exist is ENOENT, never a mkdir (PUT
     * …/web/tasks made /web/tasks); a write cannot create a file either.
     */
    @Test
    void aFileWriteNeverMakesADirectory() {
        String id = createScenario(web, scenario("writes", "6.18", "{\"path\": \"/a\", \"cpu.max\": \"50000 100000\"}"));
        String base = "/api/scenarios/" + id + "/cgroups";
        for (String target : List.of("/web/tasks", "/web/cpu.max", "/web/cpu.idle", "/web/cgroup.procs", "/web/x/y",
                "/a/tasks", "/a/notafile")) {
            problem(web.put().uri(base + target).contentType(MediaType.TEXT_PLAIN).bodyValue("123").exchange(),
                    HttpStatus.NOT_FOUND, "/path", "ENOENT");
        }
        assertThat(groups(id)).containsExactly("/", "/a");
        // a PUT without a text/plain body is still mkdir -p
        web.put().uri(base + "/web/tasks").exchange().expectStatus().isCreated();
        assertThat(groups(id)).contains("/web", "/web/tasks");
    }

    /**
     * GET and PUT of every file name agree, per kernel version and cgroup version: a file the simulator models is
     * read (200) and written (204); a kernel file it does not model ({@code cpu.idle}, {@code cpu.uclamp.*},
     * {@code cgroup.procs}, v1's {@code tasks}), a file the kernel lacks ({@code cpu.max.burst} on 5.4) or no
     * file at all is 404 ENOENT for both (GET cpu.idle was 404 while PUT cpu.idle was EEXIST); a PUT without a
     * text/plain value is a mkdir, 409 EEXIST for a kernel file's name (415 for a file the API writes: the value's
     * type is missing).
     */
    @Test
    void readAndWriteAgreeForEveryFile() {
        record Kernel(String version, String entry, List<String> modelled, List<String> absent) { }
        List<Kernel> kernels = List.of(
                new Kernel("6.18", "{\"path\": \"/a\", \"cpu.max\": \"50000 100000\"}",
                        List.of("cpu.max", "cpu.max.burst", "cpu.weight"),
                        List.of("cpu.idle", "cpu.uclamp.min", "cpu.uclamp.max", "cpu.stat", "cpu.weight.nice",
                                "cgroup.procs", "cgroup.freeze", "cpu.cfs_quota_us", "cpu.nope", "cgroup.nope")),
                new Kernel("5.4", "{\"path\": \"/a\", \"cpu.max\": \"50000 100000\"}", List.of("cpu.max", "cpu.weight"),
                        List.of("cpu.max.burst", "cpu.idle", "cpu.uclamp.min", "cgroup.kill")),
                new Kernel("6.18", "{\"path\": \"/a\", \"cpu.cfs_quota_us\": 50000}",
                        List.of("cpu.cfs_quota_us", "cpu.cfs_period_us", "cpu.cfs_burst_us", "cpu.shares"),
                        List.of("cpu.idle", "cpu.uclamp.max", "cgroup.procs", "cpu.max", "cpu.stat")));
        for (Kernel k : kernels) {
            String id = createScenario(web, scenario("files-" + k.version(), k.version(), k.entry()));
            String base = "/api/scenarios/" + id + "/cgroups/a/";
            for (String f : k.modelled()) {
                assertThat(get(base + f)).as(k + " GET " + f).isEqualTo(200);
                String value = f.equals("cpu.max") ? "50000 100000" : f.equals("cpu.weight") ? "100"
                        : f.equals("cpu.shares") ? "1024" : f.equals("cpu.cfs_period_us") ? "100000"
                        : f.equals("cpu.cfs_quota_us") ? "50000" : "0";
                assertThat(write(base + f, value + "\n")).as(k + " PUT " + f).isEqualTo(204);
            }
            for (String f : k.absent()) {
                problem(web.get().uri(base + f).exchange(), HttpStatus.NOT_FOUND, "/path", "ENOENT");
                problem(web.put().uri(base + f).contentType(MediaType.TEXT_PLAIN).bodyValue("1").exchange(),
                        HttpStatus.NOT_FOUND, "/path", "ENOENT");
                if (f.startsWith("cpu.") || f.startsWith("cgroup.")) { // a file's name: a mkdir of it is EEXIST
                    problem(web.put().uri(base + f).exchange(), CgroupController.FILES.contains(f)
                            ? HttpStatus.UNSUPPORTED_MEDIA_TYPE : HttpStatus.CONFLICT, null, null);
                    problem(web.put().uri(base + f + "/b").exchange(), HttpStatus.CONFLICT, "/path", "EEXIST");
                }
            }
            if (k.entry().contains("cfs_quota")) { // cgroup v1's tasks file
                problem(web.get().uri(base + "tasks").exchange(), HttpStatus.NOT_FOUND, "/path", "ENOENT");
                problem(web.put().uri(base + "tasks").contentType(MediaType.TEXT_PLAIN).bodyValue("1").exchange(),
                        HttpStatus.NOT_FOUND, "/path", "ENOENT");
                problem(web.put().uri(base + "tasks").exchange(), HttpStatus.CONFLICT, "/path", "EEXIST");
            }
        }
    }

    /** The bytes of a write reach the file's parser as sent: no stripping (kstrtoull takes one trailing newline). */
    @Test
    void aWriteIsParsedAsWritten() {
        String id = createScenario(web, scenario("raw", "6.18", "{\"path\": \"/a\", \"cpu.max\": \"50000 100000\"}"));
        String base = "/api/scenarios/" + id + "/cgroups/a/";
        assertThat(write(base + "cpu.max.burst", "1000\n")).isEqualTo(204);
        problem(web.put().uri(base + "cpu.max.burst").contentType(MediaType.TEXT_PLAIN).bodyValue(" 1000").exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/cpu.max.burst", "EINVAL");
        problem(web.put().uri(base + "cpu.weight").contentType(MediaType.TEXT_PLAIN).bodyValue("100 ").exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/cpu.weight", "EINVAL");
        assertThat(write(base + "cpu.max", "\t20000  100000  \n")).isEqualTo(204);
        assertThat(write(base + "cpu.max", "18446744073709551615")).isEqualTo(204);
        web.get().uri(base + "cpu.max").exchange().expectStatus().isOk().expectBody(String.class).isEqualTo("max 100000\n");
    }
}
