package io.cfslab.kernel;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ForkBurst}: find_idlest_group()'s choice for a burst of forks from one launcher, on hand-computed PELT
 * values (post_init_entity_util_avg(): each new task of a group gets half of its cfs_rq's spare capacity).
 */
class ForkBurstTest {

    @Test
    void newTasksOfOneGroupTakeHalfTheSpareCapacityEach() {
        assertThat(ForkBurst.initUtil(0)).isEqualTo(512);
        assertThat(ForkBurst.initUtil(1)).isEqualTo(256);
        assertThat(ForkBurst.initUtil(2)).isEqualTo(128);
        assertThat(ForkBurst.initUtil(3)).isEqualTo(64);
        assertThat(ForkBurst.initUtil(12)).isZero();
    }

    @Test
    void aCpuIsOverloadedWithMoreThanOneTaskAndUtilisationPastCapacityOver117Percent() {
        // 1024 × 100 / 117 = 875.2
        assertThat(ForkBurst.overloaded(2, 875)).isFalse();
        assertThat(ForkBurst.overloaded(2, 876)).isTrue();
        assertThat(ForkBurst.overloaded(1, 1024)).isFalse(); // one task never overloads a CPU
        assertThat(ForkBurst.overloaded(3, 768)).isFalse();   // three threads of one group: 512 + 256
        assertThat(ForkBurst.overloaded(4, 896)).isTrue();    // the third thread: 512 + 256 + 128
    }

    @Test
    void threadsOfOneProcessLandThreePlusOneOnTwoCpus() {
        // launcher on CPU 0; four threads of one group, as reference E3 (one process, four threads)
        ForkBurst b = new ForkBurst(2, 0);
        int[] tasks = new int[2];
        int[] cpus = new int[4];
        for (int t = 0; t < 4; t++) {
            int idlest = 1; // the only other CPU
            int c = b.staysLocal(tasks[0], idlest, tasks[1]) ? 0 : idlest;
            b.forked(c, tasks[c]); // all threads in one group: the group's tasks on c so far
            tasks[c]++;
            cpus[t] = c;
        }
        // the first goes to the idle CPU; then the launcher's CPU has spare capacity (util 512, 768) and keeps them
        assertThat(cpus).containsExactly(1, 0, 0, 0);
    }

    @Test
    void bothOverloadedTheLocalCpuKeepsForksUntilItIsMoreThan17PercentBusier() {
        ForkBurst b = new ForkBurst(2, 0);
        // tasks of separate groups: each brings 512 of utilisation
        b.forked(0, 0);
        b.forked(0, 0);
        b.forked(1, 0);
        b.forked(1, 0);
        // local 2 tasks (+ launcher), idlest 2: equal loads stay local
        assertThat(b.staysLocal(2, 1, 2)).isTrue();
        b.forked(0, 0);
        // local 3 × 1024 against 2 × 1024: 300 > 117 × 2, and 2048 < 3072 + 174: the idlest takes it
        assertThat(b.staysLocal(3, 1, 2)).isFalse();
    }

    @Test
    void anIdleCpuAlwaysWinsOverTheLaunchersCpu() {
        ForkBurst b = new ForkBurst(4, 0);
        assertThat(b.staysLocal(0, 3, 0)).isFalse();
    }
}
