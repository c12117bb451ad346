package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.awaitStatus;
import static io.cfslab.api.ApiTestSupport.createScenario;
import static io.cfslab.api.ApiTestSupport.json;
import static io.cfslab.api.ApiTestSupport.submitRun;
import static io.cfslab.api.ApiTestSupport.tiny;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Issue 13: lists and histograms read only what they need. The proof is that they still answer the same when what
 * they must not read is made unreadable: a stored scenario's document (scenario list, home page), a run's whole
 * result (histograms, cpu.stat). A result stored without its parts (an older version) is cut on its first read.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:readparts-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.pool-size=1"})
@AutoConfigureWebTestClient(timeout = "30s")
class ReadOnlyWhatIsNeededTest {
    @Autowired WebTestClient web;
    @Autowired JdbcClient jdbc;

    private String body(String uri, MediaType accept) {
        byte[] b = web.get().uri(uri).accept(accept).exchange().expectStatus().isOk().expectBody().returnResult()
                .getResponseBody();
        return new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void histogramsAndCpuStatDoNotReadTheWholeResult() throws Exception {
        String run = submitRun(web, Map.of("scenario", ApiTestSupport.JSON.readTree(tiny("parts"))));
        awaitStatus(web, run, "done", Duration.ofSeconds(30));
        String result = body("/api/runs/" + run + "/result", MediaType.APPLICATION_JSON);
        JsonNode whole = ApiTestSupport.JSON.readTree(result);
        assertThat(whole.path("histograms").size()).isGreaterThan(0);
        String name = whole.path("histograms").propertyNames().iterator().next();

        String all = body("/api/runs/" + run + "/histograms", MediaType.APPLICATION_JSON);
        String one = body("/api/runs/" + run + "/histograms/" + name, MediaType.APPLICATION_JSON);
        String oneText = body("/api/runs/" + run + "/histograms/" + name, MediaType.TEXT_PLAIN);
        String stat = body("/api/runs/" + run + "/cpu.stat", MediaType.APPLICATION_JSON);
        String statText = body("/api/runs/" + run + "/cpu.stat", MediaType.TEXT_PLAIN);
        // the listing (issue 12): each histogram's name, count and sum, as in the whole result
        JsonNode listed = ApiTestSupport.JSON.readTree(all);
        assertThat(listed.size()).isEqualTo(whole.path("histograms").size());
        for (JsonNode h : listed) {
            JsonNode full = whole.path("histograms").path(h.path("name").asString());
            assertThat(h.path("count")).isEqualTo(full.path("count"));
            assertThat(h.path("sum")).isEqualTo(full.path("sum"));
        }
        assertThat(ApiTestSupport.JSON.readTree(one)).isEqualTo(whole.path("histograms").path(name));
        assertThat(ApiTestSupport.JSON.readTree(stat)).isEqualTo(whole.path("cgroups"));
        assertThat(oneText).contains("@");
        assertThat(statText).contains("nr_throttled");

        // the whole result made unreadable: the parts are answered from their own rows
        jdbc.sql("update run_result set result_json = 'not json' where run_id = ?").param(run).update();
        assertThat(body("/api/runs/" + run + "/histograms", MediaType.APPLICATION_JSON)).isEqualTo(all);
        assertThat(body("/api/runs/" + run + "/histograms/" + name, MediaType.APPLICATION_JSON)).isEqualTo(one);
        assertThat(body("/api/runs/" + run + "/histograms/" + name, MediaType.TEXT_PLAIN)).isEqualTo(oneText);
        assertThat(body("/api/runs/" + run + "/cpu.stat", MediaType.APPLICATION_JSON)).isEqualTo(stat);
        assertThat(body("/api/runs/" + run + "/cpu.stat", MediaType.TEXT_PLAIN)).isEqualTo(statText);
        assertThat(body("/api/runs/" + run + "/result", MediaType.APPLICATION_JSON)).isEqualTo("not json");

        // a result stored without parts (before V6, by an older instance): cut and stored on the first read
        jdbc.sql("update run_result set result_json = ? where run_id = ?").params(result, run).update();
        jdbc.sql("delete from run_histogram where run_id = ?").param(run).update();
        jdbc.sql("delete from run_cgroup_stats where run_id = ?").param(run).update();
        assertThat(body("/api/runs/" + run + "/histograms", MediaType.APPLICATION_JSON)).isEqualTo(all);
        assertThat(jdbc.sql("select count(*) from run_cgroup_stats where run_id = ?").param(run).query(Long.class)
                .single()).isEqualTo(1);
        assertThat(body("/api/runs/" + run + "/histograms/" + name, MediaType.APPLICATION_JSON)).isEqualTo(one);
        assertThat(body("/api/runs/" + run + "/cpu.stat", MediaType.APPLICATION_JSON)).isEqualTo(stat);
        assertThat(body("/api/runs/" + run + "/result", MediaType.APPLICATION_JSON)).as("byte-identical").isEqualTo(result);
        web.get().uri("/api/runs/" + run + "/histograms/nope").exchange().expectStatus().isNotFound();
    }

    @Test
    void scenarioListsDoNotReadDocuments() {
        String id = createScenario(web, tiny("listed without its document"));
        jdbc.sql("update scenario set document = 'not json' where id = ?").param(id).update();
        JsonNode list = json(web.get().uri("/api/scenarios").exchange().expectStatus().isOk());
        JsonNode mine = null;
        for (JsonNode e : list) if (e.path("id").asString().equals(id)) mine = e;
        assertThat(mine).isNotNull();
        assertThat(mine.path("name").asString()).isEqualTo("listed without its document");
        assertThat(mine.path("version").asLong()).isEqualTo(1);
        assertThat(mine.has("scenario")).isFalse();
        assertThat(body("/", MediaType.TEXT_HTML)).contains("listed without its document");
    }

    @Test
    void theExperimentListReadsThePlansSummaryNotThePlan() {
        String doc = "{\"name\": \"listed\", \"scenario\": " + tiny("s") + ", \"repeats\": 1,"
                + " \"arms\": [{\"name\": \"base\"}, {\"name\": \"half\", \"set\": {\"/cgroups/0/cpu.max\": \"25000 100000\"}}]}";
        String id = json(web.post().uri("/api/experiments").contentType(MediaType.APPLICATION_JSON).bodyValue(doc)
                .exchange().expectStatus().isAccepted()).path("id").asString();
        String plan = jdbc.sql("select plan_json from experiment where id = ?").param(id).query(String.class).single();
        assertThat(plan).contains("\"limited_groups\"");
        jdbc.sql("update experiment set plan_json = 'not json' where id = ?").param(id).update();
        JsonNode mine = null;
        for (JsonNode e : json(web.get().uri("/api/experiments").exchange().expectStatus().isOk())) {
            if (e.path("id").asString().equals(id)) mine = e;
        }
        assertThat(mine).isNotNull();
        assertThat(mine.path("scenarioName").asString()).isEqualTo("s");
        assertThat(mine.path("arms").get(1).path("name").asString()).isEqualTo("half");
        assertThat(mine.path("arms").get(1).path("set").path("/cgroups/0/cpu.max").asString()).isEqualTo("25000 100000");
        assertThat(mine.path("seeds").size()).isEqualTo(1);
        // an experiment stored before V9 has no summary: the list reads its plan, as it did
        jdbc.sql("update experiment set plan_json = ?, summary_json = null where id = ?").params(plan, id).update();
        assertThat(json(web.get().uri("/api/experiments").exchange().expectStatus().isOk()).toString()).contains(id);
    }
}
