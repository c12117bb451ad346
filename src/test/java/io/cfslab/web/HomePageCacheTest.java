package io.cfslab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The home page is rendered once per list of scenarios (HomePageCache): the same bytes while nothing changed, the new
 * list at once after a scenario is stored, renamed or deleted.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:homecache-${random.uuid};DB_CLOSE_DELAY=-1", "cfslab.runs.execute=false"})
@AutoConfigureWebTestClient(timeout = "30s")
class HomePageCacheTest {
    @Autowired WebTestClient web;

    private String home() {
        var r = web.get().uri("/").accept(MediaType.TEXT_HTML).exchange().expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_HTML)
                .expectHeader().doesNotExist("Set-Cookie")
                .expectBody().returnResult();
        return new String(r.getResponseBody(), StandardCharsets.UTF_8);
    }

    private String store(String name) {
        var r = web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": \"" + name + "\", \"duration\": \"100ms\", \"machine\": {\"cpus\": 1}}")
                .exchange().expectStatus().isCreated().expectBody().returnResult();
        String loc = r.getResponseHeaders().getLocation().toString();
        return loc.substring(loc.lastIndexOf('/') + 1);
    }

    @Test
    void theCachedPageFollowsTheScenarioList() {
        String first = home();
        assertThat(home()).isEqualTo(first);
        String id = store("cache probe <one>");
        String withIt = home();
        assertThat(withIt).contains("cache probe &lt;one&gt;").contains("/scenarios/" + id).isNotEqualTo(first);
        assertThat(home()).isEqualTo(withIt);
        web.put().uri("/api/scenarios/" + id).contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": \"cache probe two\", \"duration\": \"100ms\", \"machine\": {\"cpus\": 1}}")
                .exchange().expectStatus().is2xxSuccessful();
        assertThat(home()).contains("cache probe two").doesNotContain("cache probe &lt;one&gt;");
        web.delete().uri("/api/scenarios/" + id).exchange().expectStatus().is2xxSuccessful();
        assertThat(home()).doesNotContain("cache probe").isEqualTo(first);
    }
}
