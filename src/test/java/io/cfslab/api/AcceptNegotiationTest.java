package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The experiment table's format by Accept: q-values and wildcards count, as in any HTTP content negotiation. */
class AcceptNegotiationTest {
    @Test
    void qValuesAndWildcardsDecide() {
        assertThat(ExperimentController.fromAccept(null)).isEqualTo("json");
        assertThat(ExperimentController.fromAccept("*/*")).isEqualTo("json");
        assertThat(ExperimentController.fromAccept("text/*")).isEqualTo("text");
        assertThat(ExperimentController.fromAccept("text/csv")).isEqualTo("csv");
        // the header's order does not beat its q-values
        assertThat(ExperimentController.fromAccept("text/markdown;q=0.2, text/csv;q=0.9")).isEqualTo("csv");
        assertThat(ExperimentController.fromAccept("application/json;q=0.1, text/*;q=0.5")).isEqualTo("text");
        // the most specific range decides a type's q-value: q=0 refuses it
        assertThat(ExperimentController.fromAccept("text/*, text/plain;q=0")).isEqualTo("markdown");
        assertThat(ExperimentController.fromAccept("*/*;q=0.1, text/markdown")).isEqualTo("markdown");
        // equal preferences: the range listed first
        assertThat(ExperimentController.fromAccept("text/markdown, application/json")).isEqualTo("markdown");
        assertThatThrownBy(() -> ExperimentController.fromAccept("image/png"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status().value()).isEqualTo(406));
        assertThatThrownBy(() -> ExperimentController.fromAccept("text/plain;q=x/"))
                .isInstanceOf(ApiException.class);
    }
}
