package io.cfslab.kernel;

import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * Entities of equal vruntime are picked in the order they were queued, as in the kernel's rbtree
 * ({@code __enqueue_entity()} links a new entity to the right of every equal key), not by their index; a running
 * entity put back goes behind the equals queued meanwhile. Three tasks of {@code /a} on one CPU, all at vruntime 0.
 */
class EqualVruntimeOrderTest {
    private static Kernel kernel() {
        return OneCpuKernel.of("""
                {"name": "ties", "duration": "1s", "machine": {"cpus": 1}, "kernel": {"hz": 250},
                 "cgroups": [{"path": "/a"}],
                 "tasks": [{"name": "t", "cgroup": "/a", "count": 3, "workload": {"kind": "hog"}}]}
                """);
    }

    @Test
    void theFirstQueuedOfEqualsIsPickedFirstWhateverItsIndex() {
        Kernel k = kernel();
        k.fair.enqueueTask(2, 0, false);
        k.fair.enqueueTask(0, 0, false);
        k.fair.enqueueTask(1, 0, false);
        assertThat(k.fair.pickFair(0)).isEqualTo(2);
    }

    @Test
    void aRunningEntityPutBackGoesBehindItsEquals() {
        Kernel k = kernel();
        k.fair.enqueueTask(2, 0, false);
        k.fair.enqueueTask(0, 0, false);
        k.fair.enqueueTask(1, 0, false);
        assertThat(k.fair.pickFair(0)).isEqualTo(2);
        k.fair.updateCurrFair(2, 0, 0); // task 2 ran for no time: put back at vruntime 0, behind 0 and 1
        assertThat(k.fair.pickFair(0)).isEqualTo(0);
        k.fair.updateCurrFair(0, 0, 0);
        assertThat(k.fair.pickFair(0)).isEqualTo(1);
    }
}
