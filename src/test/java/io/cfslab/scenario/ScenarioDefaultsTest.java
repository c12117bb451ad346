package io.cfslab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The defaults the editor labels its empty fields with ({@link ScenarioDefaults}, {@code GET /api/scenario-defaults}):
 * they follow {@code kernel.version}, they are what the parser does with a key left out, and docs/scenarios.md's
 * default column says the same (one source: a default changed in the parser fails here until the docs follow).
 */
class ScenarioDefaultsTest {

    @Test
    void kernelDefaultsFollowTheVersion() {
        JsonNode latest = ScenarioDefaults.of(null);
        assertThat(latest.path("version").asString()).isEqualTo("6.18");
        assertThat(latest.at("/kernel/throttle").asString()).isEqualTo("task");
        assertThat(latest.at("/kernel/unthrottle").asString()).isEqualTo("async");
        assertThat(latest.at("/kernel/timer_placement").asString()).isEqualTo("random");
        JsonNode old = ScenarioDefaults.of("5.4");
        assertThat(old.at("/kernel/throttle").asString()).isEqualTo("cfs_rq");
        assertThat(old.at("/kernel/unthrottle").asString()).isEqualTo("sync");
        assertThat(old.at("/kernel/timer_placement").asString()).isEqualTo("aligned");
        assertThat(old.at("/kernel/throttled_lb").asString()).isEqualTo("pair");
        // every switch is the parser's own for that version, distributions included
        for (String v : List.of("4.14", "5.15.0", "6.6", "rhel9", "ubuntu-22.04", "debian-12", "tip-2026")) {
            KernelSpec parsed = ScenarioParser.parse("{\"duration\": \"1s\", \"kernel\": {\"version\": \"" + v + "\"}}").kernel();
            Map<String, Object> expected = parsed.switches();
            JsonNode got = ScenarioDefaults.of(v).path("kernel");
            // cgroup_version follows the files a document writes: no key, so not listed (breaker 5 F11)
            assertThat(got.has("cgroup_version")).as(v).isFalse();
            for (Map.Entry<String, Object> e : expected.entrySet()) {
                if (e.getKey().equals("cgroup_version")) continue;
                assertThat(got.path(e.getKey()).asString()).as(v + " " + e.getKey()).isEqualTo(String.valueOf(e.getValue()));
            }
        }
        assertThat(ScenarioDefaults.of("5.15.0").path("version").asString()).isEqualTo("5.15");
        assertThat(ScenarioDefaults.of("rhel8").at("/versions/distributions/rhel8").asString()).isEqualTo("4.18");
    }

    @Test
    void anUnknownVersionIsTheParsersRefusal() {
        assertThatThrownBy(() -> ScenarioDefaults.of("7.1")).isInstanceOf(ScenarioException.class)
                .satisfies(e -> assertThat(((ScenarioException) e).problems().get(0).path()).isEqualTo("/kernel/version"));
    }

    @Test
    void workloadDefaultsAndRequiredKeysAreTheParsers() {
        JsonNode w = ScenarioDefaults.of(null).path("workloads");
        assertThat(w.propertyNames()).containsExactly("hog", "periodic", "fixed-work", "hackbench", "netperf-udp-rr", "go-sleep-loop");
        assertThat(w.at("/periodic/required").toString()).isEqualTo("[\"run\",\"sleep\"]");
        assertThat(w.at("/periodic/defaults").toString()).isEqualTo("{\"kernel\":\"0s\",\"loops\":0}");
        assertThat(w.at("/fixed-work/required").toString()).isEqualTo("[\"work\"]");
        assertThat(w.at("/hackbench/defaults").toString())
                .isEqualTo("{\"mode\":\"socket\",\"groups\":10,\"fds\":20,\"loops\":100,\"datasize\":100}");
        assertThat(w.at("/netperf-udp-rr/defaults").toString()).isEqualTo("{\"request_size\":1,\"response_size\":1}");
        assertThat(w.at("/go-sleep-loop/required").toString()).isEqualTo("[\"run\",\"sleep\"]");
        assertThat(w.at("/go-sleep-loop/defaults").toString()).isEqualTo("{\"threads\":5}");
        // each kind with only its required keys parses (what the editor's form sends when the rest is empty)
        for (String kind : ScenarioDefaults.KINDS) {
            StringBuilder wl = new StringBuilder("{\"kind\": \"" + kind + "\"");
            for (JsonNode k : w.path(kind).path("required")) wl.append(", \"").append(k.asString()).append("\": \"2ms\"");
            ScenarioParser.parse("{\"duration\": \"1s\", \"tasks\": [{\"name\": \"t\", \"cgroup\": \"/\", \"workload\": " + wl + "}}]}");
        }
    }

    @Test
    void everyChoiceAFormOffersIsAcceptedByTheParser() {
        Map<String, List<String>> choices = ScenarioDefaults.choices();
        assertThat(choices.get("kernel.throttle")).containsExactly("cfs_rq", "task", "task-account");
        assertThat(choices.get("kernel.hz")).containsExactly("100", "250", "300", "1000");
        assertThat(choices.get("policy")).startsWith("normal").contains("rr", "fifo");
        assertThat(choices.get("machine.profile")).contains("generic", "amd-genoa-2s", "intel-emr-2s");
        assertThat(choices.get("kernel.periodic_balance")).as("breaker 9 F24").isNotEmpty();
        for (String v : choices.get("kernel.periodic_balance")) {
            ScenarioParser.parse("{\"duration\": \"1s\", \"kernel\": {\"periodic_balance\": \"" + v + "\"}}");
        }
        for (String key : List.of("kernel.throttle", "kernel.unthrottle", "kernel.timer_placement", "kernel.hz")) {
            String k = key.substring("kernel.".length());
            for (String v : choices.get(key)) {
                String value = k.equals("hz") ? v : "\"" + v + "\"";
                assertThat(ScenarioParser.parse("{\"duration\": \"1s\", \"kernel\": {\"" + k + "\": " + value + "}}").kernel().switches().get(k))
                        .as(key + " " + v).hasToString(v);
            }
        }
        for (String v : choices.get("machine.profile")) {
            assertThat(ScenarioParser.parse("{\"duration\": \"1s\", \"machine\": {\"profile\": \"" + v + "\"}}").machine().profile()).isEqualTo(v);
        }
        for (String v : choices.get("policy")) {
            String prio = v.equals("rr") || v.equals("fifo") ? ", \"priority\": 1" : "";
            ScenarioParser.parse("{\"duration\": \"1s\", \"tasks\": [{\"name\": \"t\", \"cgroup\": \"/\", \"policy\": \"" + v + "\"" + prio + "}]}");
        }
        for (String v : choices.get("mode")) {
            ScenarioParser.parse("{\"duration\": \"1s\", \"tasks\": [{\"name\": \"t\", \"cgroup\": \"/\", \"workload\": {\"kind\": \"hackbench\", \"groups\": 1, \"mode\": \"" + v + "\"}}]}");
        }
        assertThat(ScenarioDefaults.of(null).path("choices").path("kind").toString())
                .isEqualTo("[\"hog\",\"periodic\",\"fixed-work\",\"hackbench\",\"netperf-udp-rr\",\"go-sleep-loop\"]");
    }

    /** docs/scenarios.md's first table: key cell → default cell. */
    static Map<String, String> docsDefaults() throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(Path.of("docs/scenarios.md"));
        int start = lines.indexOf("| key | meaning | default |");
        for (int i = start + 2; i < lines.size() && lines.get(i).startsWith("| "); i++) {
            String row = lines.get(i);
            String key = row.substring(2, row.indexOf(" | "));
            String body = row.substring(0, row.length() - 1).stripTrailing(); // no default cell contains a '|'
            String cell = body.substring(body.lastIndexOf('|') + 1).trim();
            out.put(key, cell);
        }
        return out;
    }

    /** Asserts that {@code cell} names each value, in order. */
    private static void says(Map<String, String> docs, String key, Object... values) {
        String cell = docs.get(key);
        assertThat(cell).as("docs/scenarios.md row " + key).isNotNull();
        int from = 0;
        for (Object v : values) {
            String word = String.valueOf(v);
            int at = cell.indexOf(word, from);
            assertThat(at).as("docs/scenarios.md row " + key + " default \"" + cell + "\" names " + word + " after column " + from)
                    .isGreaterThanOrEqualTo(0);
            from = at + word.length();
        }
    }

    @Test
    void theDocsDefaultColumnSaysWhatTheParserDoes() throws Exception {
        Map<String, String> docs = docsDefaults();
        JsonNode d = ScenarioDefaults.of(null);
        says(docs, "`name`, `seed`", "\"" + d.path("name").asString() + "\"", d.path("seed").asLong());
        assertThat(d.path("required").toString()).isEqualTo("[\"duration\"]");
        says(docs, "`duration`", "required");
        says(docs, "`machine`", d.at("/machine/cpus").asInt() + " CPUs", "smt " + d.at("/machine/smt").asInt(),
                d.at("/machine/sockets").asInt() + " socket");
        says(docs, "`kernel.version`", d.path("version").asString());
        says(docs, "`tasks[]`", "count " + d.at("/task/count").asInt(), d.at("/task/cpus_allowed").asString() + " CPUs",
                d.at("/task/policy").asString());
        JsonNode r = d.path("record");
        says(docs, "`record`", r.path("interval").asString(), r.path("max_distribute_calls").asInt(),
                r.path("max_series_tasks").asInt(), r.path("max_series_cgroups").asInt());
        JsonNode w = d.path("workloads");
        says(docs, "workloads", "`hog`", "`periodic`", "`run`", "`sleep`", "required", "`kernel` `" + w.at("/periodic/defaults/kernel").asString() + "`",
                "`loops` " + w.at("/periodic/defaults/loops").asInt(), "`fixed-work`", "`work` required");
        JsonNode hb = w.at("/hackbench/defaults");
        says(docs, "`hackbench`", hb.path("mode").asString(), hb.path("groups").asInt(), hb.path("fds").asInt(),
                hb.path("loops").asInt(), hb.path("datasize").asInt());
        says(docs, "`netperf-udp-rr`", w.at("/netperf-udp-rr/defaults/request_size").asInt(), w.at("/netperf-udp-rr/defaults/response_size").asInt());
        says(docs, "`go-sleep-loop`", "`run`", "`sleep`", "required", "threads " + w.at("/go-sleep-loop/defaults/threads").asInt());

        // every kernel switch has a row; one that differs between versions says "version's" (or names its rule), the
        // others name the value
        List<JsonNode> eras = new ArrayList<>();
        for (String v : List.of("4.14", "4.19", "5.4", "5.10", "5.15", "6.1", "6.6", "6.12", "6.18", "tip-2026")) {
            eras.add(ScenarioDefaults.of(v).path("kernel"));
        }
        for (String key : d.path("kernel").propertyNames()) {
            if (key.equals("version") || key.equals("cgroup_version")) continue; // cgroup_version follows the files: no key
            String rowKey = docs.keySet().stream().filter(k -> k.startsWith("`kernel.") && (k.contains("`kernel." + key + "`")
                    || k.contains(", `" + key + "`"))).findFirst().orElse(null);
            assertThat(rowKey).as("docs/scenarios.md has a row for kernel." + key).isNotNull();
            boolean varies = eras.stream().map(k -> k.path(key).toString()).distinct().count() > 1;
            String cell = docs.get(rowKey);
            if (varies) {
                assertThat(cell).as(rowKey + " varies by version").containsAnyOf("version's", "per version", "with a task model");
            } else {
                String v = d.path("kernel").path(key).asString();
                assertThat(cell).as(rowKey + " default").contains(v);
            }
        }
    }
}
