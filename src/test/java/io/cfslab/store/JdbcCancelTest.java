package io.cfslab.store;

import org.junit.jupiter.api.Test;
import reactor.core.Disposable;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that hangs up cancels its request's JDBC call: the call must finish undisturbed, because H2 closes
 * the whole database when a thread in file I/O is interrupted (this took the service down mid-test).
 */
class JdbcCancelTest {

    @Test
    void cancellingACallNeverInterruptsTheThreadRunningIt() throws Exception {
        Jdbc jdbc = new Jdbc();
        try {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch finished = new CountDownLatch(1);
            AtomicBoolean interrupted = new AtomicBoolean();
            Disposable d = jdbc.call(() -> {
                started.countDown();
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    interrupted.set(true);
                }
                finished.countDown();
                return 1;
            }).subscribe();
            assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
            d.dispose();
            assertThat(finished.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(interrupted).isFalse();
        } finally {
            jdbc.destroy();
        }
    }
}
