package io.cfslab.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.store.RunStatus;
import org.junit.jupiter.api.Test;

/** A finished run's status and reason are worded once, whatever the stored reason repeats (issue 12). */
class RunStatusWordsTest {
    @Test
    void theStatusWordIsNotRepeated() {
        assertThat(RunStatusWords.outcome(RunStatus.CANCELLED, "cancelled by request")).isEqualTo("cancelled by request");
        assertThat(RunStatusWords.outcome(RunStatus.CANCELLED, "Cancelled while queued")).isEqualTo("Cancelled while queued");
        assertThat(RunStatusWords.outcome(RunStatus.FAILED, "max events exceeded (1000)")).isEqualTo("failed: max events exceeded (1000)");
        assertThat(RunStatusWords.outcome(RunStatus.FAILED, "interrupted 3 times (…)")).isEqualTo("failed: interrupted 3 times (…)");
        assertThat(RunStatusWords.outcome(RunStatus.FAILED, null)).isEqualTo("failed");
        assertThat(RunStatusWords.outcome(RunStatus.CANCELLED, "  ")).isEqualTo("cancelled");
    }
}
