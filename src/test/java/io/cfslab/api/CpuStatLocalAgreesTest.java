package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.scenario.KernelVersions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Breaker 2 N6: {@code cpu.stat.local} came with 677ea015f231 ("sched: add throttled time stat for throttled
 * children", tip sched/core 2023-07-13, merged for 6.6), in both cgroup versions. For every release and distribution
 * alias, and either cgroup version, the scenario defaults' {@code kernel.cpu_stat_local}, the file API and the docs
 * say the same: the file API follows the scenario's switch (so a backport set by hand is followed too), never a
 * version table of its own (it said "6.8+" while the defaults and docs said 6.6).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:statlocal-${random.uuid};DB_CLOSE_DELAY=-1", "cfslab.runs.execute=false"})
@AutoConfigureWebTestClient(timeout = "60s")
class CpuStatLocalAgreesTest {
    @Autowired WebTestClient web;

    private String fileDetail(String version, int cgroupVersion, Boolean override) {
        String kernel = "{\"version\": \"" + version + "\"" + (override == null ? "" : ", \"cpu_stat_local\": " + override) + "}";
        String file = cgroupVersion == 1 ? "cpu.shares" : "cpu.weight";
        String id = ApiTestSupport.createScenario(web, "{\"name\": \"l\", \"duration\": \"1s\", \"kernel\": " + kernel
                + ", \"cgroups\": [{\"path\": \"/g\", \"" + file + "\": " + (cgroupVersion == 1 ? 1024 : 100) + "}]}");
        JsonNode p = ApiTestSupport.problem(web.get().uri("/api/scenarios/" + id + "/cgroups/g/cpu.stat.local").exchange(),
                HttpStatus.NOT_FOUND, "/path", "ENOENT");
        return p.path("detail").asString();
    }

    @Test
    void theDefaultsTheFileApiAndTheDocsAgreeForEveryVersion() throws Exception {
        List<String> versions = new ArrayList<>(KernelVersions.RELEASES);
        versions.addAll(KernelVersions.distributions());
        String first = null;
        for (String v : versions) {
            JsonNode d = ApiTestSupport.json(web.get().uri("/api/scenario-defaults?version=" + v).exchange().expectStatus().isOk());
            boolean has = d.findValue("cpu_stat_local").asBoolean();
            assertThat(has).as("%s: the switch is the kernel's", v).isEqualTo(KernelVersions.of(v).cpuStatLocal());
            if (has && first == null && KernelVersions.RELEASES.contains(v)) first = v;
            for (int cg : new int[] {1, 2}) {
                if (v.equals("4.14") && cg == 2) continue; // 4.14's cgroup v2 has no cpu controller files at all
                String detail = fileDetail(v, cg, null);
                if (has) {
                    assertThat(detail).as("%s v%d", v, cg).contains("a kernel file (6.6+, 677ea015f231)").doesNotContain("6.8");
                } else {
                    assertThat(detail).as("%s v%d", v, cg).contains("no file cpu.stat.local on kernel").contains("6.6+");
                }
            }
        }
        assertThat(first).as("the first release with cpu.stat.local").isEqualTo("6.6");
        // a backport set by hand, or a switch turned off, is what the file API follows
        assertThat(fileDetail("6.1", 2, true)).contains("a kernel file (6.6+");
        assertThat(fileDetail("6.18", 1, false)).contains("kernel.cpu_stat_local is false");
        // the docs name the same release and commit
        for (String doc : List.of("docs/scenarios.md", "docs/kernel-eras.md")) {
            String text = Files.readString(Path.of(doc));
            String row = text.lines().filter(l -> l.contains("cpu_stat_local")).findFirst().orElseThrow();
            assertThat(row).as(doc).contains("6.6").doesNotContain("6.8");
        }
    }
}
