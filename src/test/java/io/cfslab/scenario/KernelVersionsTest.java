package io.cfslab.scenario;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code kernel.version}: every release and distribution alias gives the switches of its kernel (the table of
 * docs/kernel-eras.md, written out here by hand from the commits, not computed), explicit keys override, and
 * without a version the defaults are 6.18's.
 */
class KernelVersionsTest {

    static KernelSpec kernel(String kernelJson) {
        return ScenarioParser.parse("{\"duration\": \"1s\", \"kernel\": " + kernelJson + "}").kernel();
    }

    /**
     * version | throttle | unthrottle | timer | tick aligned | list insert | slice expiry | stale expiry | period overrun | burst |
     * burst stats | burst-units bug | cpu.stat.local | throttled clock start
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            4.14         | cfs_rq       | sync  | aligned | true  | head                     | true  | true  | unlimited            | false | false | false | false | throttle
            4.18         | cfs_rq       | sync  | aligned | true  | head                     | true  | false | unlimited            | false | false | false | false | throttle
            4.19         | cfs_rq       | sync  | aligned | false | tail-unless-distributing | true  | false | unlimited            | false | false | false | false | throttle
            5.4          | cfs_rq       | sync  | aligned | false | tail-unless-distributing | false | false | scale-2              | false | false | false | false | throttle
            5.10         | cfs_rq       | sync  | aligned | false | tail                     | false | false | scale-2-refill-first | false | false | false | false | throttle
            5.15         | cfs_rq       | sync  | aligned | false | tail                     | false | false | scale-2-refill-first | true  | false | true  | false | throttle
            6.1          | cfs_rq       | sync  | aligned | false | tail                     | false | false | scale-2-refill-first | true  | true  | true  | false | throttle
            6.6          | cfs_rq       | async | random  | true  | tail                     | false | false | scale-2-refill-first | true  | true  | true  | true  | nonempty
            6.8          | cfs_rq       | async | random  | true  | tail                     | false | false | scale-2-refill-first | true  | true  | true  | true  | nonempty
            6.12         | cfs_rq       | async | random  | true  | tail                     | false | false | scale-2-refill-first | true  | true  | false | true  | nonempty
            6.18         | task         | async | random  | true  | tail                     | false | false | scale-2-refill-first | true  | true  | false | true  | first-park
            tip-2026     | task-account | async | random  | true  | tail                     | false | false | scale-2-refill-first | true  | true  | false | true  | first-park
            5.1          | cfs_rq       | sync  | aligned | false | tail-unless-distributing | true  | false | scale-147-128        | false | false | false | false | throttle
            5.8          | cfs_rq       | sync  | aligned | false | tail                     | false | false | scale-2-refill-first | false | false | false | false | throttle
            5.14         | cfs_rq       | sync  | aligned | false | tail                     | false | false | scale-2-refill-first | true  | false | true  | false | throttle
            5.16         | cfs_rq       | sync  | aligned | false | tail                     | false | false | scale-2-refill-first | true  | true  | true  | false | throttle
            6.2          | cfs_rq       | sync  | aligned | false | tail                     | false | false | scale-2-refill-first | true  | true  | true  | false | throttle
            6.3          | cfs_rq       | async | aligned | false | tail                     | false | false | scale-2-refill-first | true  | true  | true  | false | throttle
            6.4          | cfs_rq       | async | random  | true  | tail                     | false | false | scale-2-refill-first | true  | true  | true  | false | throttle
            6.10         | cfs_rq       | async | random  | true  | tail                     | false | false | scale-2-refill-first | true  | true  | false | true  | nonempty
            rhel8        | cfs_rq       | sync  | aligned | true  | head                     | true  | false | unlimited            | false | false | false | false | throttle
            rhel9        | cfs_rq       | sync  | aligned | false | tail                     | false | false | scale-2-refill-first | true  | false | true  | false | throttle
            ubuntu-20.04 | cfs_rq       | sync  | aligned | false | tail-unless-distributing | false | false | scale-2              | false | false | false | false | throttle
            ubuntu-22.04 | cfs_rq       | sync  | aligned | true  | tail                     | false | false | scale-2-refill-first | true  | false | false | false | throttle
            ubuntu-24.04 | cfs_rq       | async | random  | true  | tail                     | false | false | scale-2-refill-first | true  | true  | true  | true  | nonempty
            debian-11    | cfs_rq       | sync  | aligned | true  | tail                     | false | false | scale-2-refill-first | false | false | false | false | throttle
            debian-12    | cfs_rq       | sync  | aligned | true  | tail                     | false | false | scale-2-refill-first | true  | true  | false | false | throttle
            debian-13    | cfs_rq       | async | random  | true  | tail                     | false | false | scale-2-refill-first | true  | true  | false | true  | nonempty
            """)
    void eachVersionSetsItsKernelsSwitches(String version, String throttle, String unthrottle, String timer,
                                           boolean tickAligned, String list,
                                           boolean expiry, boolean stale, String overrun, boolean burst, boolean burstStats,
                                           boolean unitsBug, boolean statLocal, String clockStart) {
        Map<String, Object> s = kernel("{\"version\": \"" + version + "\"}").switches();
        assertThat(s.get("version")).isEqualTo(version);
        assertThat(s.get("throttle")).isEqualTo(throttle);
        assertThat(s.get("unthrottle")).isEqualTo(unthrottle);
        assertThat(s.get("timer_placement")).isEqualTo(timer);
        assertThat(s.get("tick_aligned")).isEqualTo(tickAligned);
        assertThat(s.get("throttled_list_insert")).isEqualTo(list);
        assertThat(s.get("slice_expiry")).isEqualTo(expiry);
        assertThat(s.get("stale_expiry")).isEqualTo(stale);
        assertThat(s.get("period_overrun")).isEqualTo(overrun);
        assertThat(s.get("burst")).isEqualTo(burst);
        assertThat(s.get("burst_stats")).isEqualTo(burstStats);
        assertThat(s.get("burst_units_bug")).isEqualTo(unitsBug);
        assertThat(s.get("cpu_stat_local")).isEqualTo(statLocal);
        assertThat(s.get("throttled_clock_start")).isEqualTo(clockStart);
        // build options are not the version's business
        assertThat(s.get("hz")).isEqualTo(1000);
        assertThat(s.get("rt_group_sched")).isEqualTo(false);
    }

    @Test
    void withoutAVersionTheDefaultsAre618() {
        KernelSpec none = kernel("{}");
        KernelSpec v618 = kernel("{\"version\": \"6.18\"}");
        assertThat(none).isEqualTo(v618);
        assertThat(none.version()).isEqualTo("6.18");
    }

    @Test
    void explicitKeysOverrideTheVersion() {
        KernelSpec k = kernel("{\"version\": \"4.19\", \"unthrottle\": \"async\", \"slice_expiry\": false, "
                + "\"period_overrun\": \"scale-2\"}");
        assertThat(k.unthrottle()).isEqualTo(KernelSpec.Unthrottle.ASYNC);
        assertThat(k.sliceExpiry()).isFalse();
        assertThat(k.periodOverrun()).isEqualTo(KernelSpec.PeriodOverrun.SCALE_2);
        assertThat(k.throttledListInsert()).as("the rest is still 4.19's")
                .isEqualTo(KernelSpec.ListInsert.TAIL_UNLESS_DISTRIBUTING);
        // a task model on an older version counts throttled time from the first park, the only time it has
        assertThat(kernel("{\"version\": \"6.1\", \"throttle\": \"task\"}").throttledClockStart())
                .isEqualTo(KernelSpec.ThrottledClockStart.FIRST_PARK);
        assertThat(kernel("{\"throttle\": \"cfs_rq\"}").throttledClockStart())
                .isEqualTo(KernelSpec.ThrottledClockStart.NONEMPTY);
    }

    /** {@code uname -r}'s x.y.0 is the release x.y as first published; the spec keeps the short form. */
    @Test
    void aDotZeroReleaseIsTheRelease() {
        for (String v : List.of("4.19", "5.14", "6.10", "6.18")) {
            KernelSpec k = kernel("{\"version\": \"" + v + ".0\"}");
            assertThat(k).isEqualTo(kernel("{\"version\": \"" + v + "\"}"));
            assertThat(k.version()).isEqualTo(v);
        }
        // burst off takes its statistics and units bug with it, unless one is asked for (a contradiction)
        KernelSpec noBurst = kernel("{\"version\": \"5.15\", \"burst\": false}");
        assertThat(noBurst.burstStats()).isFalse();
        assertThat(noBurst.burstUnitsBug()).isFalse();
    }

    @Test
    void unknownVersionsAreRefusedNamingTheAcceptedOnes() {
        for (String v : List.of("4.13", "5.20", "7.0", "6.04", "ubuntu-18.04", "latest")) {
            assertThatThrownBy(() -> kernel("{\"version\": \"" + v + "\"}"))
                    .isInstanceOfSatisfying(ScenarioException.class, e -> {
                        assertThat(e.problems()).hasSize(1);
                        assertThat(e.problems().get(0).path()).isEqualTo("/kernel/version");
                        assertThat(e.problems().get(0).reason()).contains("unknown kernel version \"" + v + "\"")
                                .contains("rhel8").contains("tip-2026");
                    });
        }
        assertThatThrownBy(() -> kernel("{\"version\": 5.4}")).isInstanceOf(ScenarioException.class);
    }

    /**
     * What users type for a version (issue 9, "break it"): each is still refused at /kernel/version, and the problem
     * says what was most likely meant: an alias in other case or with spaces, a release with a leading {@code v} or
     * white space, a release candidate, a distribution kernel's {@code uname -r}.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            RHEL 8                         | did you mean "rhel8"?
            RHEL8                          | did you mean "rhel8"?
            Ubuntu 22.04                   | did you mean "ubuntu-22.04"?
            debian_12                      | did you mean "debian-12"?
            v5.4                           | did you mean "5.4"?
            ' 6.1'                         | did you mean "6.1"?
            V6.10.0                        | did you mean "6.10"?
            5.4.0-rc1                      | release candidates are not modelled: "5.4" is the release
            6.18-rc1                       | release candidates are not modelled: "6.18" is the release
            4.18.0-513.el8.x86_64          | use the alias "rhel8"
            5.14.0-362.8.1.el9_3.x86_64    | use the alias "rhel9"
            5.15.0-91-generic              | use the alias "ubuntu-22.04"
            6.8.0-45-generic               | use the alias "ubuntu-24.04"
            6.1.0-18-amd64                 | use the alias "debian-12"
            6.12.38+deb13-amd64            | use the alias "debian-13"
            5.4.0-1103-aws                 | use the alias "ubuntu-20.04"
            6.6.30-custom                  | use the release "6.6" with the switches you know
            """)
    void aMistypedVersionIsRefusedWithWhatItMostLikelyMeant(String version, String hint) {
        assertThatThrownBy(() -> kernel("{\"version\": \"" + version + "\"}"))
                .isInstanceOfSatisfying(ScenarioException.class, e -> {
                    assertThat(e.problems()).hasSize(1);
                    assertThat(e.problems().get(0).path()).isEqualTo("/kernel/version");
                    assertThat(e.problems().get(0).reason()).contains("unknown kernel version \"" + version + "\"")
                            .contains(hint).contains("tip-2026");
                });
        // nothing close: no guess
        for (String v : List.of("", "latest", "centos7", "ubuntu-18.04", "3.10.0-1160.el7.x86_64")) {
            assertThat(KernelVersions.hint(v)).as(v).isNull();
        }
    }

    @Test
    void theCanonicalFormWritesEverySwitchAndRoundTrips() {
        Scenario s = ScenarioParser.parse("{\"duration\": \"1s\", \"kernel\": {\"version\": \"ubuntu-22.04\", \"hz\": 250},"
                + " \"cgroups\": [{\"path\": \"/a\", \"cpu.max\": \"20000 100000\", \"cpu.max.burst\": 5000}]}");
        String json = ScenarioWriter.toJson(s);
        assertThat(json).contains("\"version\" : \"ubuntu-22.04\"").contains("\"burst_units_bug\" : false")
                .doesNotContain("cgroup_version");
        assertThat(ScenarioParser.parse(json)).isEqualTo(s);
        // before 5.14 there is no burst file to write back
        Scenario old = ScenarioParser.parse("{\"duration\": \"1s\", \"kernel\": {\"version\": \"5.10\"},"
                + " \"cgroups\": [{\"path\": \"/a\", \"cpu.max\": \"20000 100000\"}]}");
        assertThat(ScenarioWriter.toJson(old)).doesNotContain("cpu.max.burst");
        assertThat(ScenarioParser.parse(ScenarioWriter.toJson(old))).isEqualTo(old);
    }

    /** The published scenario schema (/schemas/scenario.json) names every kernel key and every cgroup file. */
    @Test
    void theScenarioSchemaNamesEverySwitchAndFile() throws java.io.IOException {
        var schema = ScenarioParser.readTree(java.nio.file.Files.readString(
                java.nio.file.Path.of("src/main/resources/static/schemas/scenario.json")));
        var kernelKeys = schema.get("properties").get("kernel").get("properties");
        for (String key : kernel("{}").switches().keySet()) {
            if (!key.equals("cgroup_version")) assertThat(kernelKeys.has(key)).as(key).isTrue();
        }
        var cgroupKeys = schema.get("$defs").get("cgroup").get("properties");
        for (String f : CgroupFiles.FILES) assertThat(cgroupKeys.has(f)).as(f).isTrue();
        for (String f : CgroupFiles.FILES_V1) assertThat(cgroupKeys.has(f)).as(f).isTrue();
    }
}
