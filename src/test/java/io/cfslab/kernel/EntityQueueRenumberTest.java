package io.cfslab.kernel;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The heap's tie-break between equal vruntimes is an int insertion number in the entity's record; when the
 * numbers run out, the queued entities are renumbered in their order. A queue that renumbers every few places
 * must pick exactly as one that never does, through adds, removals, re-keyed (running) entities and ties.
 */
class EntityQueueRenumberTest {
    private static final int TASKS = 40, RQS = 3;

    /** One queue and its records. */
    private record Q(SchedRecords r, EntityQueue q) {
        static Q of(int limit) {
            SchedRecords r = new SchedRecords(TASKS, RQS);
            return new Q(r, new EntityQueue(r, TASKS + RQS, limit));
        }

        void setVruntime(int e, long v) { r.setLong(r.ent(e) + SchedRecords.VRUNTIME, v); }
    }

    @Test
    void renumberingKeepsEveryPickAsWithoutIt() {
        for (int limit : new int[] {7, 13, 64}) {
            Q a = Q.of(Integer.MAX_VALUE), b = Q.of(limit);
            SplittableRandom rnd = new SplittableRandom(limit);
            int[] on = new int[TASKS];
            java.util.Arrays.fill(on, -1);
            int ties = 0;
            for (int step = 0; step < 20_000; step++) {
                int t = rnd.nextInt(TASKS);
                if (on[t] < 0) {
                    int q = rnd.nextInt(RQS);
                    long v = rnd.nextInt(4); // few keys: many ties, decided by the insertion numbers
                    a.setVruntime(t, v);
                    b.setVruntime(t, v);
                    a.q.add(q, t);
                    b.q.add(q, t);
                    on[t] = q;
                } else if (rnd.nextBoolean()) {
                    a.q.remove(on[t], t);
                    b.q.remove(on[t], t);
                    on[t] = -1;
                } else { // the running entity's key grows (update_curr()); re-placed at the next first()
                    long v = a.r.vruntime(t) + rnd.nextInt(2);
                    a.setVruntime(t, v);
                    b.setVruntime(t, v);
                    a.q.keyIncreased(on[t], t);
                    b.q.keyIncreased(on[t], t);
                }
                for (int q = 0; q < RQS; q++) {
                    int fa = a.q.first(q), fb = b.q.first(q);
                    assertThat(fb).as("limit %d, step %d, cfs_rq %d", limit, step, q).isEqualTo(fa);
                    if (fa >= 0) for (int e = 0; e < TASKS; e++) {
                        if (e != fa && on[e] == q && a.r.vruntime(e) == a.r.vruntime(fa)) ties++;
                    }
                }
            }
            assertThat(ties).as("ties decided by insertion order").isGreaterThan(1_000);
        }
    }
}
