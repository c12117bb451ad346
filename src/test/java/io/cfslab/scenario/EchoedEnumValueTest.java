package io.cfslab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Breaker 9 F22: an unknown value of every enum key is echoed cut, as a bad duration is: a 100,000-character value
 * gave a 200 KB problem (the value whole, in the detail and again in the reason). A short one is echoed whole.
 */
class EchoedEnumValueTest {
    private static final String LONG = "x".repeat(100_000);

    private static final List<String> DOCUMENTS = List.of(
            "{\"duration\": \"1s\", \"kernel\": {\"periodic_balance\": \"%s\"}}",
            "{\"duration\": \"1s\", \"kernel\": {\"throttle\": \"%s\"}}",
            "{\"duration\": \"1s\", \"kernel\": {\"version\": \"%s\"}}",
            "{\"duration\": \"1s\", \"machine\": {\"profile\": \"%s\"}}",
            "{\"duration\": \"1s\", \"tasks\": [{\"name\": \"t\", \"workload\": {\"kind\": \"%s\"}}]}",
            "{\"duration\": \"1s\", \"tasks\": [{\"name\": \"t\", \"policy\": \"%s\"}]}");

    @Test
    void anUnknownEnumValueIsEchoedCut() {
        for (String doc : DOCUMENTS) {
            var e = catchThrowableOfType(ScenarioException.class, () -> ScenarioParser.parse(doc.formatted(LONG)));
            assertThat(e).as(doc).isNotNull();
            for (Problem p : e.problems()) {
                assertThat(p.reason().length()).as(doc + ": " + p.reason().substring(0, Math.min(200, p.reason().length())))
                        .isLessThan(400);
            }
            assertThat(e.problems().toString()).as(doc).contains("100000 characters");
            var shortOne = catchThrowableOfType(ScenarioException.class, () -> ScenarioParser.parse(doc.formatted("nope")));
            assertThat(shortOne.problems().toString()).as(doc).contains("\"nope\"");
        }
    }
}
