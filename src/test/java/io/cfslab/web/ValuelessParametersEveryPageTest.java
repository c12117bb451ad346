package io.cfslab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.pattern.PathPattern;

/**
 * Breaker 7 N1: {@code /compare?a} (a parameter without {@code =}) was a 500, a NullPointerException on the parameter's
 * null value. Every page route (read from the handler mappings, so a page added later is walked too), given each
 * parameter it declares and an undeclared one without {@code =}, answers exactly as it answers the same parameter with
 * an empty value, and never 5xx; an API route refuses {@code ?x} as it refuses {@code ?x=}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:valueless-${random.uuid};DB_CLOSE_DELAY=-1", "cfslab.runs.execute=false"})
@AutoConfigureWebTestClient(timeout = "30s")
class ValuelessParametersEveryPageTest {
    @Autowired
    WebTestClient web;

    @org.springframework.boot.test.web.server.LocalServerPort
    int port;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    private EntityExchangeResult<byte[]> get(String uri) {
        return web.get().uri(uri).accept(MediaType.TEXT_HTML).exchange().expectBody().returnResult();
    }

    /** Page route patterns (not under /api) with the query parameters each declares. */
    private List<String[]> pages() {
        List<String[]> out = new ArrayList<>();
        mappings.getHandlerMethods().forEach((info, method) -> {
            List<String> params = new ArrayList<>(List.of("x"));
            for (MethodParameter p : method.getMethodParameters()) {
                RequestParam rp = p.getParameterAnnotation(RequestParam.class);
                if (rp == null || java.util.Map.class.isAssignableFrom(p.getParameterType())) continue;
                p.initParameterNameDiscovery(new DefaultParameterNameDiscoverer());
                params.add(rp.name().isEmpty() ? p.getParameterName() : rp.name());
            }
            for (PathPattern pattern : info.getPatternsCondition().getPatterns()) {
                String path = pattern.getPatternString();
                if (path.startsWith("/api") || path.startsWith("/v3") || path.contains("**")) continue;
                out.add(new String[] {path.replaceAll("\\{id}", "e1-one-hog-10pct").replaceAll("\\{[^}]+}", "x"),
                        String.join(",", params)});
            }
        });
        return out;
    }

    @Test
    void aParameterWithoutAValueIsTheParameterWithAnEmptyValueOnEveryPage() {
        List<String[]> pages = pages();
        assertThat(pages).extracting(p -> p[0]).contains("/compare", "/", "/runs/e1-one-hog-10pct");
        SoftAssertions soft = new SoftAssertions();
        for (String[] page : pages) {
            String[] params = page[1].split(",");
            List<String[]> queries = new ArrayList<>();
            for (String name : params) queries.add(new String[] {name, name + "="});
            // all of them at once, and one without a value after one with (breaker 7: /compare?a=<run>&b)
            queries.add(new String[] {String.join("&", params), String.join("=&", params) + "="});
            queries.add(new String[] {params[params.length - 1] + "=nope&" + params[0], params[params.length - 1] + "=nope&" + params[0] + "="});
            for (String[] q : queries) {
                var valueless = get(page[0] + "?" + q[0]);
                var empty = get(page[0] + "?" + q[1]);
                soft.assertThat(valueless.getStatus().is5xxServerError()).as(page[0] + "?" + q[0] + " " + valueless.getStatus()).isFalse();
                soft.assertThat(valueless.getStatus()).as(page[0] + "?" + q[0] + " vs ?" + q[1]).isEqualTo(empty.getStatus());
                soft.assertThat(new String(valueless.getResponseBodyContent() == null ? new byte[0] : valueless.getResponseBodyContent()))
                        .as(page[0] + "?" + q[0]).doesNotContain("internal error");
            }
        }
        soft.assertAll();
    }

    @Test
    void theComparePageReadsAValuelessSideAsNoneGiven() {
        assertThat(get("/compare?a").getStatus().value()).isEqualTo(200);
        assertThat(get("/compare?b").getStatus().value()).isEqualTo(200);
        assertThat(new String(get("/compare?a=nope&b").getResponseBodyContent())).contains("data-page=\"compare\"", "no run nope");
    }

    @Test
    void anApiRouteRefusesAValuelessParameterAsAnEmptyOne() {
        web.get().uri("/api/runs?status").exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.detail").value(d -> assertThat((String) d).contains("parameter status has no value"));
    }

    /**
     * Breaker 8 F8, breaker 7: a page's query is judged for its syntax as the API's (it was 200 for {@code /?%00} and
     * {@code /?=}, 400 for {@code /compare?…&%00}): a parameter with no name, or a control character in a name or a
     * value, is 400 on every page; a parameter the page does not read is left alone (a link may carry one).
     */
    @Test
    void aPagesQueryIsJudgedForItsSyntaxOnEveryPage() {
        String base = "http://127.0.0.1:" + port;
        SoftAssertions soft = new SoftAssertions();
        List<String[]> pages = pages();
        for (String[] page : pages) {
            int plain = web.get().uri(java.net.URI.create(base + page[0])).accept(MediaType.TEXT_HTML).exchange()
                    .returnResult(byte[].class).getStatus().value();
            if (plain >= 400) continue;
            for (String query : List.of("?%00", "?=", "?=1", "?x=%01", "?%7F=1", "?x=1&=", "?x=%C2%85")) {
                int status = web.get().uri(java.net.URI.create(base + page[0] + query)).accept(MediaType.TEXT_HTML).exchange()
                        .returnResult(byte[].class).getStatus().value();
                soft.assertThat(status).as(page[0] + query).isEqualTo(400);
            }
            int unknown = web.get().uri(java.net.URI.create(base + page[0] + "?utm_source=mail")).accept(MediaType.TEXT_HTML)
                    .exchange().returnResult(byte[].class).getStatus().value();
            soft.assertThat(unknown).as(page[0] + "?utm_source=mail").isEqualTo(plain);
        }
        soft.assertAll();
        assertThat(pages).hasSizeGreaterThan(3);
    }
}
