package io.cfslab.event;

import org.junit.jupiter.api.Test;

import java.util.PriorityQueue;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The heap pops exactly in (time, priority, insertion) order, against java.util.PriorityQueue as reference. */
class EventQueueTest {
    record Ev(long time, int priority, long seq, int type, int target, long arg) {}

    @Test
    void popsInTimePriorityFifoOrderThroughGrowthAndInterleaving() {
        EventQueue q = new EventQueue();
        PriorityQueue<Ev> ref = new PriorityQueue<>((a, b) -> a.time != b.time ? Long.compare(a.time, b.time)
                : a.priority != b.priority ? Integer.compare(a.priority, b.priority) : Long.compare(a.seq, b.seq));
        SplittableRandom r = new SplittableRandom(42);
        long seq = 0, now = 0;
        int popped = 0;
        for (int step = 0; step < 200_000; step++) {
            // grow to several thousand events (past the initial capacity), then drain, with many ties
            boolean push = ref.isEmpty() || (step < 100_000 ? r.nextInt(3) > 0 : r.nextInt(3) == 0);
            if (push) {
                long t = now + r.nextInt(50);
                int prio = r.nextInt(12);
                int type = r.nextInt(12), target = r.nextInt() , arg = r.nextInt();
                q.push(t, prio, type, target, arg);
                ref.add(new Ev(t, prio, seq++, type, target, arg));
            } else {
                Ev e = ref.poll();
                assertThat(q.peekTime()).isEqualTo(e.time);
                q.pop();
                now = e.time;
                assertThat(new long[]{q.time(), q.type(), q.target(), q.arg()})
                        .as("pop %d", popped).containsExactly(e.time, e.type, e.target, e.arg);
                popped++;
            }
            assertThat(q.size()).isEqualTo(ref.size());
        }
        assertThat(popped).isGreaterThan(50_000);
        assertThat(q.isEmpty()).isEqualTo(ref.isEmpty());
    }

    @Test
    void negativeTargetsAndLargeArgumentsSurvive() {
        EventQueue q = new EventQueue();
        q.push(5, 0, 255, -7, Long.MIN_VALUE);
        q.push(5, 0, 3, Integer.MAX_VALUE, Long.MAX_VALUE);
        q.pop();
        assertThat(new long[]{q.time(), q.type(), q.target(), q.arg()}).containsExactly(5, 255, -7, Long.MIN_VALUE);
        q.pop();
        assertThat(new long[]{q.time(), q.type(), q.target(), q.arg()})
                .containsExactly(5, 3, Integer.MAX_VALUE, Long.MAX_VALUE);
        assertThat(q.isEmpty()).isTrue();
    }
}
