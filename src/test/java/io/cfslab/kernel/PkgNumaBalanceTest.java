package io.cfslab.kernel;

import io.cfslab.machine.Topology;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * New-idle balance on a machine of several LLCs a socket (Genoa's shape, scaled down): the PKG level (the socket,
 * groups its LLCs) before NUMA (the machine, groups the sockets), and {@code adjust_numa_imbalance()} with
 * {@code imb_numa_nr} = the LLCs of a socket, on hand-computed cases. Machine: 16 CPUs, no SMT, 2 sockets (CPUs 0-7
 * and 8-15), LLCs of 2 CPUs (LLC 0 = CPUs 0-1, ..., 4 LLCs a socket): imb_numa_nr 4. CPU 0 is newly idle; every task
 * is cold; PELT averages are 0, so every group with fewer tasks than CPUs or as many has spare capacity.
 */
class PkgNumaBalanceTest {
    private static final Topology GENOA_LIKE = new Topology(16, 1, 2, 2, false);

    @Test
    void theSocketsOwnLlcsAreBalancedBeforeTheOtherSocket() {
        // CPU 2 (LLC 1, socket 0): 2 tasks; CPU 8 (LLC 8 of the machine's, socket 1): 4 tasks. PKG: busiest LLC 1,
        // sibling_imbalance 2 - 0 = 2 > 1 forces it, 2 >> 1 = 1: CPU 2's queued task (1) comes, not CPU 8's.
        // With the LLCs of the whole machine as one level (before), LLC 4 (CPU 8, 4 tasks) was the busiest.
        Kernel k = TaskHotTest.kernel(GENOA_LIKE, new int[] {2, 2, 8, 8, 8, 8});
        assertThat(k.balancer.newIdleBalance(0)).isTrue();
        assertThat(k.tCpu[1]).isEqualTo(0);
        assertThat(k.tCpu[3]).isEqualTo(8);
    }

    @Test
    void aPairAloneOnTheOtherSocketStaysThereButAThirdTaskComes() {
        // socket 0 empty, so PKG has no busiest (a group without tasks never is). NUMA: socket 1 has 2 tasks on
        // CPU 8: sibling_imbalance 2 forces the balance, adjust_numa_imbalance(2, 0 + 1 <= 4) drops it (2 <= 2)
        Kernel pair = TaskHotTest.kernel(GENOA_LIKE, new int[] {8, 8});
        assertThat(pair.balancer.newIdleBalance(0)).isFalse();
        assertThat(pair.tCpu[1]).isEqualTo(8);
        // 3 tasks: 3 > NUMA_IMBALANCE_MIN stands, 3 >> 1 = 1: the task queued longest (1) moves across
        Kernel three = TaskHotTest.kernel(GENOA_LIKE, new int[] {8, 8, 8});
        assertThat(three.balancer.newIdleBalance(0)).isTrue();
        assertThat(three.tCpu[1]).isEqualTo(0);
        assertThat(three.llcMigrations()).isEqualTo(1);
    }

    @Test
    void theNumaImbalanceIsAllowedOnlyWhileTheDestinationRunsAtMostImbNumaNrTasks() {
        // socket 0: one task on each of CPUs 1..3 (3 tasks); socket 1: 3 on CPU 8, one on CPUs 9, 10 (5). PKG:
        // local LLC 0 (1 task, 1 idle), busiest LLC 1 (2 tasks, 0 idle): sibling_imbalance 1, not forced, and
        // local idle 1 <= 0 + 1: balanced. NUMA: sibling_imbalance 5 - 3 = 2 forces it; adjust_numa_imbalance(2,
        // 3 + 1 = 4 <= 4): 2 <= 2, dropped
        Kernel k = TaskHotTest.kernel(GENOA_LIKE, new int[] {1, 2, 3, 8, 8, 8, 9, 10});
        assertThat(k.balancer.newIdleBalance(0)).isFalse();
        // one task more on each side (CPU 4; CPU 11): 6 - 4 = 2 again, but 4 + 1 = 5 > 4: it stands, 2 >> 1 = 1,
        // from socket 1's busiest CPU, 8: after its running task 4, the task queued longest (5)
        Kernel more = TaskHotTest.kernel(GENOA_LIKE, new int[] {1, 2, 3, 4, 8, 8, 8, 9, 10, 11});
        assertThat(more.balancer.newIdleBalance(0)).isTrue();
        assertThat(more.tCpu[5]).isEqualTo(0);
    }

    @Test
    void onlyTheNumaLevelDropsASmallImbalance() {
        // the same counts inside one socket: CPU 2 (LLC 1) with 2 tasks is pulled at PKG, which is not SD_NUMA
        Kernel k = TaskHotTest.kernel(GENOA_LIKE, new int[] {2, 2});
        assertThat(k.balancer.newIdleBalance(0)).isTrue();
        assertThat(k.tCpu[1]).isEqualTo(0);
    }

    @Test
    void theLlcAndSocketSumsFollowTheMovesOfANewIdleBalance() {
        // the sums SrcGroupFinder keeps at enqueue and dequeue (not recomputed per balance) match the CPUs' counts
        // after each pull: CPU 0, then CPU 1 ... newly idle in turn, pulling from CPUs 2 and 8
        Kernel k = TaskHotTest.kernel(GENOA_LIKE, new int[] {2, 2, 2, 8, 8, 8, 8, 8});
        for (int c = 0; c < 8; c++) {
            if (k.curr[c] == Kernel.NONE) k.balancer.newIdleBalance(c);
            for (int l = 0; l < GENOA_LIKE.llcs(); l++)
                assertThat(k.balancer.groups.nrRunning[l]).as("LLC %d after CPU %d", l, c)
                        .isEqualTo(nrRunnable(k, 2 * l, 2 * l + 2));
            assertThat(k.balancer.numaGroups.nrRunning[0]).isEqualTo(nrRunnable(k, 0, 8));
            assertThat(k.balancer.numaGroups.nrRunning[1]).isEqualTo(nrRunnable(k, 8, 16));
        }
        assertThat(k.llcMigrations()).as("tasks did move").isGreaterThan(0);
    }

    private static long nrRunnable(Kernel k, int from, int to) {
        long n = 0;
        for (int c = from; c < to; c++) n += k.nrRunnable(c);
        return n;
    }
}
