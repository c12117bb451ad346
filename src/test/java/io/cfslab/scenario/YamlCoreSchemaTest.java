package io.cfslab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * YAML scenario text resolves its plain scalars by the YAML 1.2 core schema (YAML 1.2.2, 10.3.2 "Tag Resolution":
 * {@code null|Null|NULL|~} and empty are {@code tag:yaml.org,2002:null}; {@code true|True|TRUE|false|False|FALSE}
 * {@code bool}; {@code 0o[0-7]+} and {@code 0x[0-9a-fA-F]+} {@code int}), so the same document reads the same in YAML
 * and JSON; quoted scalars and the non-specific tag {@code !} are strings (10.3.2); a tag outside the core schema
 * ({@code !!binary}, 10.4's "other schemas", or a local {@code !foo}) is refused at its JSON pointer instead of being
 * dropped (issue 13, breaker: {@code ~} was the text "~", {@code !!binary} ignored).
 */
class YamlCoreSchemaTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static JsonNode yaml(String text) {
        return ScenarioParser.readTree(text);
    }

    @Test
    void coreSchemaNullsBooleansAndIntegersReadAsInJson() {
        assertThat(yaml("a: ~\nb: Null\nc: NULL\nd: null\ne:\n"))
                .isEqualTo(JSON.readTree("{\"a\": null, \"b\": null, \"c\": null, \"d\": null, \"e\": null}"));
        assertThat(yaml("a: [~, True, FALSE, false, 0x1F, 0o17, x]"))
                .isEqualTo(JSON.readTree("{\"a\": [null, true, false, false, 31, 15, \"x\"]}"));
        assertThat(yaml("a: {b: ~}\n")).isEqualTo(JSON.readTree("{\"a\": {\"b\": null}}"));
        // the core schema's decimal integers are [-+]?[0-9]+, leading zeros and a plus sign included (breaker: +12,
        // 017 and 02 were text, and cpu.weight: 010 reached the kernel's parser as "010", octal 8)
        assertThat(yaml("a: [+12, 017, -017, 02, 010, '010', 12]"))
                .isEqualTo(JSON.readTree("{\"a\": [12, 17, -17, 2, 10, \"010\", 12]}"));
    }

    @Test
    void quotedScalarsBlockScalarsAndStrTagsStayText() {
        // a folded block scalar keeps its line break unless chomped with '-' ("~\n" would be a control character in
        // a string; the body used to be strip()ped, which hid that when the scalar ended the text)
        assertThat(yaml("a: '~'\nb: \"Null\"\nc: !!str ~\nd: ! True\ne: >-\n  ~\n"))
                .isEqualTo(JSON.readTree("{\"a\": \"~\", \"b\": \"Null\", \"c\": \"~\", \"d\": \"True\", \"e\": \"~\"}"));
        assertThat(yaml("a: !!null ''")).isEqualTo(JSON.readTree("{\"a\": null}"));
    }

    @Test
    void aTildeKeyIsTheKeyLeftOutAsJsonNullIs() {
        String base = "name: n\nduration: 200ms\nmachine: {cpus: 1}\n"
                + "cgroups: [{path: /a, cpu.max: 50000 100000}]\n"
                + "tasks: [{name: t, cgroup: /a, workload: {kind: hog}}]\n";
        Scenario without = ScenarioParser.parse(base);
        Scenario tilde = ScenarioParser.parse(base + "seed: ~\nkernel: {hz: ~, throttle: ~}\n");
        assertThat(tilde.kernel()).isEqualTo(without.kernel());
        assertThat(tilde.seed()).isEqualTo(without.seed());
    }

    @Test
    void tagsOutsideTheCoreSchemaAreRefusedAtTheirPointer() {
        for (String[] c : new String[][]{{"a: !!binary aGVsbG8=", "/a", "!!binary"},
                {"a:\n  b: !foo x", "/a/b", "!foo"}, {"a:\n  - 1\n  - !!set {x}", "/a/1", "!!set"},
                {"a: !!timestamp 2001-12-14", "/a", "!!timestamp"}}) {
            assertThatThrownBy(() -> yaml(c[0])).as(c[0]).isInstanceOfSatisfying(ScenarioException.class, e -> {
                assertThat(e.problems()).hasSize(1);
                assertThat(e.problems().get(0).path()).isEqualTo(c[1]);
                assertThat(e.problems().get(0).reason()).contains(c[2]);
                assertThat(e.problems().get(0).errno()).isEqualTo("EINVAL");
            });
        }
    }
}
