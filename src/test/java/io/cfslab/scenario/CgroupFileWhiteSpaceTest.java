package io.cfslab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each cgroup file takes exactly what its kernel parser takes (issue 13: the API stripped white space from every
 * value). cgroup_file_write() (kernel/cgroup/cgroup.c) hands the buffer as written to {@code kstrtoull()} for u64
 * files and {@code kstrtoll()} for s64 files (lib/kstrtox.c: an optional sign, digits, one trailing newline, nothing
 * else), and to {@code cpu_max_write()}'s {@code sscanf(buf, "%20s %llu")} for {@code cpu.max} (white space before
 * and between fields skipped, anything after the period ignored, no sign). U64_MAX as a {@code cpu.max} quota is
 * {@code max} from 6.17 (the µs interface compares it with RUNTIME_INF), EINVAL before.
 */
class CgroupFileWhiteSpaceTest {
    static final CgroupFiles.Rules V2 = CgroupFiles.Rules.V2;
    static final CgroupFiles.Rules V2_515 = new CgroupFiles.Rules(2, "5.15", true, false, false, 950_000, 1_000_000);
    static final CgroupFiles.Rules V1 = new CgroupFiles.Rules(1, "6.18", true, false, true, 950_000, 1_000_000);
    static final String U64_MAX = "18446744073709551615";

    /** file, rules, value, expected: the value read back, or the errno. */
    record Case(String file, CgroupFiles.Rules rules, String value, String expect) {
        @Override public String toString() {
            return "v" + rules.cgroupVersion() + "/" + rules.version() + " " + file + " <- \"" + value.replace("\n", "\\n")
                    .replace("\t", "\\t").replace("\0", "\\0") + "\" = " + expect;
        }
    }

    static List<Case> cases() {
        return List.of(
                // cpu.max: sscanf
                new Case("cpu.max", V2, " 50000 100000", "50000 100000"),
                new Case("cpu.max", V2, "50000 100000 ", "50000 100000"),
                new Case("cpu.max", V2, "\t50000\t200000\n", "50000 200000"),
                new Case("cpu.max", V2, "50000\n\n", "50000 100000"),
                new Case("cpu.max", V2, "+5000", "EINVAL"),
                new Case("cpu.max", V2, "5000 +200000", "5000 100000"), // %llu stops at the sign: period kept
                new Case("cpu.max", V2, U64_MAX, "max 100000"),
                new Case("cpu.max", V2, U64_MAX + " 200000", "max 200000"),
                new Case("cpu.max", V2_515, U64_MAX, "EINVAL"),
                new Case("cpu.max", V2, "18446744073709551614", "EINVAL"),
                // cpu.max.burst, cpu.weight: kstrtoull
                new Case("cpu.max.burst", V2, "5000\n", "5000"),
                new Case("cpu.max.burst", V2, "+5000", "5000"),
                new Case("cpu.max.burst", V2, " 5000", "EINVAL"),
                new Case("cpu.max.burst", V2, "5000 ", "EINVAL"),
                new Case("cpu.max.burst", V2, "\t5000", "EINVAL"),
                new Case("cpu.max.burst", V2, "5000\n\n", "EINVAL"),
                new Case("cpu.max.burst", V2, "5000\r\n", "EINVAL"),
                new Case("cpu.max.burst", V2, U64_MAX, "EINVAL"),
                new Case("cpu.weight", V2, "200\n", "200"),
                new Case("cpu.weight", V2, "+200", "200"),
                new Case("cpu.weight", V2, " 200", "EINVAL"),
                new Case("cpu.weight", V2, "200 ", "EINVAL"),
                new Case("cpu.weight", V2, "\t200", "EINVAL"),
                new Case("cpu.weight", V2, U64_MAX, "ERANGE"),
                // the buffer is a C string (kernfs NUL-terminates it): the parser stops at the first NUL
                new Case("cpu.weight", V2, "300\0", "300"),
                new Case("cpu.weight", V2, "300\0junk", "300"),
                new Case("cpu.max", V2, "50000\0 5000", "50000 100000"),
                new Case("cpu.max.burst", V2, "\0" + "5000", "EINVAL"), // nothing before the NUL: an empty number
                // cgroup v1: cfs_quota_us and rt_runtime_us are s64 (kstrtoll), the others u64
                new Case("cpu.cfs_quota_us", V1, "-1\n", "-1"),
                new Case("cpu.cfs_quota_us", V1, "+5000", "5000"),
                new Case("cpu.cfs_quota_us", V1, " 5000", "EINVAL"),
                new Case("cpu.cfs_quota_us", V1, "5000 ", "EINVAL"),
                new Case("cpu.cfs_quota_us", V1, " -1", "EINVAL"),
                new Case("cpu.cfs_quota_us", V1, "\t5000\n", "EINVAL"),
                new Case("cpu.cfs_quota_us", V1, "-+1", "EINVAL"),
                new Case("cpu.cfs_quota_us", V1, U64_MAX, "ERANGE"),
                new Case("cpu.cfs_period_us", V1, "200000\n", "200000"),
                new Case("cpu.cfs_period_us", V1, "+200000", "200000"),
                new Case("cpu.cfs_period_us", V1, " 200000", "EINVAL"),
                new Case("cpu.cfs_period_us", V1, "200000 ", "EINVAL"),
                new Case("cpu.cfs_period_us", V1, U64_MAX, "EINVAL"),
                new Case("cpu.cfs_burst_us", V1, "\t0", "EINVAL"),
                new Case("cpu.cfs_burst_us", V1, "0\n", "0"),
                new Case("cpu.shares", V1, "2048\n", "2048"),
                new Case("cpu.shares", V1, "+2048", "2048"),
                new Case("cpu.shares", V1, " 2048", "EINVAL"),
                new Case("cpu.shares", V1, "2048 ", "EINVAL"),
                new Case("cpu.shares", V1, U64_MAX, "262144"), // clamped to MAX_SHARES, no error
                new Case("cpu.rt_period_us", V1, " 1000000", "EINVAL"),
                new Case("cpu.rt_period_us", V1, "1000000\n", "1000000"),
                new Case("cpu.rt_runtime_us", V1, " 0", "EINVAL"),
                new Case("cpu.rt_runtime_us", V1, "+0", "0"),
                new Case("cpu.rt_runtime_us", V1, U64_MAX, "ERANGE"));
    }

    /**
     * {@code cpu.max} as the kernel reads it, byte by byte (issue 13, breaker findings). v6.18's
     * cpu_period_quota_parse() (kernel/sched/core.c) calls {@code sscanf(buf, "%20s %llu", tok, &period_us)} and
     * {@code sscanf(tok, "%llu", &quota_us)}; lib/vsprintf.c vsscanf() reads {@code %llu} with simple_strtoull(), which
     * drops _parse_integer()'s KSTRTOX_OVERFLOW flag, so every digit is read (no cut after 40) and the value wraps
     * modulo 2^64 (kstrtoull() would give ERANGE, but cpu.max does not use it). Its isspace() is lib/ctype.c's
     * table, where 0xA0 (Latin-1 NBSP) is {@code _S|_SP} and 0xC2 is {@code _U}: the UTF-8 NBSP (C2 A0) ends a field
     * after a stray 0xC2 byte, and {@code %20s} counts bytes.
     */
    static List<Case> cpuMaxAsBytes() {
        String twoTo64 = "18446744073709551616";
        return List.of(
                new Case("cpu.max", V2, "50000 " + "0".repeat(50) + "200000", "50000 200000"), // every leading zero read
                new Case("cpu.max", V2, "50000 18446744073709751616", "50000 200000"), // 2^64 + 200000 wraps to 200000
                new Case("cpu.max", V2, "50000 " + twoTo64, "EINVAL"), // wraps to period 0: below the 1000 us minimum
                new Case("cpu.max", V2, "50000 " + "9".repeat(60), "EINVAL"), // wraps to a period far past 1 s
                new Case("cpu.max", V2, "18446744073709552616", "1000 100000"), // quota 2^64 + 1000 wraps to 1000
                new Case("cpu.max", V2, "36893488147419103231", "max 100000"), // 2^65 - 1 wraps to U64_MAX = RUNTIME_INF
                new Case("cpu.max", V2, "18446744073709551617", "EINVAL"), // wraps to quota 1 us
                new Case("cpu.max", V2, "000000000000000050000", "EINVAL"), // %20s: 20 bytes of quota, the 21st ("0") the period
                new Case("cpu.max", V2, "50000\u00a0200000", "50000 200000"), // tok "50000\xC2" reads 50000; 0xA0 is a space
                new Case("cpu.max", V2, "max\u00a0200000", "EINVAL"), // tok "max\xC2" is neither digits nor "max"
                new Case("cpu.max", V2, "\u00a050000", "EINVAL"), // tok "\xC2": 0xC2 is no space, 0xA0 ends it
                new Case("cpu.max", V2, "50000 \u00a0200000", "50000 100000"), // the period starts at 0xC2: kept
                new Case("cpu.max", V2, "50000\u2003200000", "50000 100000")); // EM SPACE (E2 80 83): no byte a space: one token, quota 50000
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource({"cases", "cpuMaxAsBytes"})
    void eachFileTakesWhatItsKernelParserTakes(Case c) {
        CgroupSpec group = c.rules().cgroupVersion() == 1 ? CgroupFiles.newGroupV1("/g")
                .withCpuMax(new CpuMax(50_000, 100_000)) : CgroupFiles.newGroup("/g").withCpuMax(new CpuMax(50_000, 100_000));
        if (c.expect().startsWith("E")) {
            assertThatThrownBy(() -> CgroupFiles.write(group, c.file(), c.value(), c.rules(), null))
                    .isInstanceOf(InvalidValueException.class)
                    .satisfies(e -> assertThat(((InvalidValueException) e).errno()).isEqualTo(c.expect()));
            return;
        }
        CgroupSpec after = CgroupFiles.write(group, c.file(), c.value(), c.rules(), null);
        String read = switch (c.file()) {
            case "cpu.weight" -> Integer.toString(after.cpuWeight());
            case "cpu.shares" -> Long.toString(after.cpuShares());
            case "cpu.rt_runtime_us" -> Long.toString(after.rtRuntimeUs());
            case "cpu.rt_period_us" -> Long.toString(after.rtPeriodUs());
            default -> CgroupFiles.read(after, c.file());
        };
        assertThat(read).isEqualTo(c.expect());
    }
}
