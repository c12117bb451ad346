package io.cfslab.testsupport;

import io.cfslab.CfsLabApplication;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Starts whole application instances (own web server on a random port) for restart and scale-out tests. */
public final class TestApps {
    private TestApps() {}

    /**
     * @param db    database of the instance
     * @param name  worker name in the queue
     * @param extra further properties
     */
    public static ConfigurableApplicationContext start(TestDatabase db, String name, Map<String, Object> extra) {
        Map<String, Object> p = new LinkedHashMap<>(db.springProperties());
        p.put("server.port", "0");
        p.put("cfslab.runs.worker-name", name);
        p.put("cfslab.runs.poll-interval", "100ms");
        p.put("cfslab.runs.progress-interval", "50ms");
        p.put("cfslab.runs.heartbeat-interval", "500ms");
        p.put("cfslab.runs.missed-heartbeats", "4");
        p.put("spring.main.banner-mode", "off");
        p.putAll(extra);
        // as command-line arguments: they must win over application.yml (builder properties are only defaults)
        String[] args = p.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        return new SpringApplicationBuilder(CfsLabApplication.class, PacedEngineConfig.class).run(args);
    }

    public static WebTestClient client(ConfigurableApplicationContext ctx) {
        String port = ctx.getEnvironment().getProperty("local.server.port");
        return WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(30))
                // the OpenAPI document lists HEAD and OPTIONS of every path (breaker 9 F11): over the 256 KiB default
                .codecs(c -> c.defaultCodecs().maxInMemorySize(4 << 20)).build();
    }
}
