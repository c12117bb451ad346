package io.cfslab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Breaker 2 N5: a write to a cgroup v1 root file is parsed before the root refuses it, as the kernel does:
 * {@code cgroup_file_write()} runs kstrtoull/kstrtoll (EINVAL, ERANGE) before the file's write_u64/write_s64, whose
 * {@code tg_set_cfs_*()} check the translation to ns before {@code tg_set_cfs_bandwidth()} refuses the root task
 * group (EINVAL), as {@code __sched_group_set_shares()} does. Every v1 file, the root and a child alike: the same
 * value gives the parser's errno in both; only a value that parses reaches the root's refusal.
 */
public class V1RootWriteOrderTest {
    static final CgroupFiles.Rules V1_RT = new CgroupFiles.Rules(1, KernelVersions.DEFAULT, true, false, true,
            950_000, 1_000_000);

    /** The s64 files (kstrtoll) and the u64 ones (kstrtoull): the first value beyond each parser's range. */
    public static String beyond(String file) {
        return file.equals(CgroupFiles.CFS_QUOTA_US) || file.equals(CgroupFiles.RT_RUNTIME_US)
                ? "9223372036854775808" : "18446744073709551616";
    }

    static String errno(CgroupSpec g, String file, String value) {
        try {
            CgroupFiles.write(g, file, value, V1_RT, null);
            return "written";
        } catch (InvalidValueException e) {
            return e.errno();
        }
    }

    @Test
    void everyV1RootFileParsesBeforeItRefusesTheRoot() {
        CgroupSpec root = CgroupFiles.newGroupV1("/");
        CgroupSpec child = CgroupFiles.newGroupV1("/p");
        assertThat(CgroupFiles.FILES_V1).hasSize(6);
        for (String file : CgroupFiles.FILES_V1) {
            for (String value : List.of(beyond(file), "-" + "99999999999999999999", "abc", " 5", "1.5", "")) {
                String childErrno = errno(child, file, value);
                if ("written".equals(childErrno)) continue; // a value the child takes (a negative quota: no limit)
                assertThat(errno(root, file, value)).as("%s = '%s': the root as a child, the parser first", file, value)
                        .isEqualTo(childErrno);
            }
            assertThat(errno(root, file, beyond(file))).as(file).isEqualTo("ERANGE");
            assertThat(errno(root, file, "abc")).as(file).isEqualTo("EINVAL");
        }
        // a value that parses reaches the root's refusal: EINVAL for the CFS files and shares
        for (String file : List.of(CgroupFiles.CFS_QUOTA_US, CgroupFiles.CFS_PERIOD_US, CgroupFiles.CFS_BURST_US,
                CgroupFiles.SHARES)) {
            assertThatThrownBy(() -> CgroupFiles.write(root, file, "50000", V1_RT, null))
                    .isInstanceOf(InvalidValueException.class).hasMessageContaining("root")
                    .extracting(e -> ((InvalidValueException) e).errno()).isEqualTo("EINVAL");
        }
    }
}
