package io.cfslab.experiment;

import static io.cfslab.experiment.ExperimentParserTest.experiment;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.scenario.Problem;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Arm names that look alike are one name or refused (a breaker's finding: "base" and "base\u200b" were two arms):
 * NFC, no invisible or odd-space characters, no word mixing Latin, Greek and Cyrillic, duplicates by NFKC and case.
 */
class ArmNamesTest {
    private static String arms(String a, String b) {
        return experiment("[{\"name\": \"" + a + "\"}, {\"name\": \"" + b + "\", \"set\": {\"/kernel/throttle\": \"task\"}}]", "");
    }

    private static List<Problem> problems(String a, String b) {
        try {
            ExperimentParser.parse(arms(a, b));
        } catch (ExperimentException e) {
            return e.problems();
        }
        throw new AssertionError("arms \"" + a + "\" and \"" + b + "\" were accepted");
    }

    @Test
    void lookAlikesOfAnotherArmAreTheSameName() {
        // JSON escapes, so that the source shows what is sent: NFD é, full-width letters, a ligature, case, spaces
        for (String[] pair : new String[][] {{"base", "Base"}, {"base", "BASE"}, {"base", "\\uff42\\uff41\\uff53\\uff45"},
                {"caf\\u00e9", "cafe\\u0301"}, {"\\ufb01le", "file"}, {"stra\\u00dfe", "STRASSE"}, {"a b", "a  b"}}) {
            assertThat(problems(pair[0], pair[1])).as("%s vs %s", pair[0], pair[1]).singleElement().satisfies(p -> {
                assertThat(p.path()).isEqualTo("/arms/1/name");
                assertThat(p.reason()).contains("first at /arms/0");
                assertThat(p.errno()).isEqualTo("EINVAL");
            });
        }
    }

    @Test
    void invisibleAndFormatCharactersAndMixedScriptsAreRefused() {
        for (String bad : List.of("base\\u200b", "\\u200dbase", "ba\\u00adse", "base\\ufeff", "\\u202ebase", "ba\\u2066se",
                "base\\u00a0x", "b\\u2003ase", " base", "base ", "b\\u0430se", "\\u03b2eta\\u0430")) {
            assertThat(problems("base", bad)).as(bad).singleElement().satisfies(p -> {
                assertThat(p.path()).isEqualTo("/arms/1/name");
                assertThat(p.errno()).isEqualTo("EINVAL");
            });
        }
    }

    @Test
    void distinctNamesStayAndAreKeptInNfc() {
        Experiment e = ExperimentParser.parse(arms("cafe\\u0301", "base \\u03b2"));
        assertThat(e.arms()).extracting(Experiment.Arm::name).containsExactly("caf\u00e9", "base \u03b2");
        assertThat(ExperimentParser.parse(arms("\\u0431\\u0430\\u0437\\u0430", "base")).arms()).hasSize(2);
    }

    @Test
    void theKeyFoldsCaseCompatibilityFormsAndSpaces() {
        assertThat(ArmNames.key("\uff22ase  X")).isEqualTo(ArmNames.key("base x"));
        assertThat(ArmNames.key("base")).isNotEqualTo(ArmNames.key("bass"));
    }
}
