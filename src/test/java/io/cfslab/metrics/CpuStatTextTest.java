package io.cfslab.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import io.cfslab.metrics.SimulationResult.CgroupStats;
import io.cfslab.metrics.SimulationResult.CpuStat;
import io.cfslab.metrics.SimulationResult.CpuStatLocal;

class CpuStatTextTest {
    // Distinct values, so a value under the wrong key shows.
    private static final CpuStat STAT = new CpuStat(500001, 499002, 1003, 50, 49, 4500006, 7, 308);

    @Test
    void cpuStatInKernelOrder() {
        assertEquals("""
                usage_usec 500001
                user_usec 499002
                system_usec 1003
                nr_periods 50
                nr_throttled 49
                throttled_usec 4500006
                nr_bursts 7
                burst_usec 308
                """, CpuStatText.cpuStat(STAT));
    }

    @Test
    void cpuStatLocal() {
        assertEquals("throttled_usec 4400000\n", CpuStatText.cpuStatLocal(new CpuStatLocal(4400000)));
    }

    @Test
    void bothFilesAsHeadPrintsThem() {
        assertEquals("""
                ==> /a/cpu.stat <==
                usage_usec 500001
                user_usec 499002
                system_usec 1003
                nr_periods 50
                nr_throttled 49
                throttled_usec 4500006
                nr_bursts 7
                burst_usec 308

                ==> /a/cpu.stat.local <==
                throttled_usec 12
                """, CpuStatText.format("/a", new CgroupStats(STAT, new CpuStatLocal(12))));
        assertEquals("==> /cpu.stat <==\n" + CpuStatText.cpuStat(STAT),
                CpuStatText.format("/", new CgroupStats(STAT, null)));
    }

    @Test
    void keysMatchTheJsonKeys() {
        // The text's keys are the cgroupfs keys the JSON uses for the same record.
        var node = ResultJson.mapper().valueToTree(STAT);
        var keys = CpuStatText.cpuStat(STAT).lines().map(l -> l.split(" ")[0]).toList();
        assertEquals(new java.util.ArrayList<>(node.propertyNames()), keys);
        CpuStatText.cpuStat(STAT).lines().forEach(l -> {
            String[] kv = l.split(" ");
            assertEquals(node.get(kv[0]).asLong(), Long.parseLong(kv[1]), kv[0]);
        });
    }
}
