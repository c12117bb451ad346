package io.cfslab.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** setpriority(2) through JNA changes the calling thread's nice value only (Linux). */
class ThreadNiceTest {

    @Test
    void lowersOnlyTheCallingThread() throws Exception {
        Integer mine = ThreadNice.niceOf(0);
        assumeTrue(mine != null && System.getProperty("os.name").startsWith("Linux"), "Linux /proc only");
        AtomicReference<Integer> before = new AtomicReference<>();
        AtomicReference<Integer> after = new AtomicReference<>();
        AtomicReference<Boolean> applied = new AtomicReference<>();
        Thread t = new Thread(() -> {
            before.set(ThreadNice.niceOf(0));
            applied.set(ThreadNice.lowerCurrentThread(Math.min(19, mine + 7)));
            after.set(ThreadNice.niceOf(0));
        });
        t.start();
        t.join();
        assertThat(before.get()).isEqualTo(mine);
        assertThat(applied.get()).isTrue();
        assertThat(after.get()).isEqualTo(Math.min(19, mine + 7));
        assertThat(ThreadNice.niceOf(0)).as("the calling thread keeps its own").isEqualTo(mine);
    }

    @Test
    void zeroLeavesTheThreadAlone() {
        assertThat(ThreadNice.lowerCurrentThread(0)).isFalse();
    }
}
