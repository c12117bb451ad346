package io.cfslab.store;

import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Runs blocking JDBC work off the event loop, on a bounded pool of its own ({@code cfslab-jdbc}, 16 threads,
 * at most 10,000 queued tasks; more is refused). Controllers wrap every repository call in {@link #call}.
 *
 * <p>A cancelled request (a client that hangs up) must never interrupt a thread inside JDBC: H2 closes its
 * whole database file when a thread blocked in file I/O is interrupted ({@code ClosedByInterruptException}).
 * Reactor's own schedulers interrupt on cancel, so the pool is a plain {@link java.util.concurrent.Executor}:
 * cancelling drops the result, and the statement runs to its end.
 */
@Component
public class Jdbc implements DisposableBean {
    private final ThreadPoolExecutor pool = new ThreadPoolExecutor(16, 16, 60, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(10_000), threadFactory());
    /** A plain Executor view: handed an ExecutorService, Reactor would cancel its tasks with interrupts. */
    private final Scheduler scheduler = Schedulers.fromExecutor(pool::execute);

    private static ThreadFactory threadFactory() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "cfslab-jdbc-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** @return a Mono that runs {@code work} on the JDBC scheduler; a null result completes empty. */
    public <T> Mono<T> call(Callable<T> work) {
        return Mono.fromCallable(work).subscribeOn(scheduler);
    }

    @Override
    public void destroy() {
        scheduler.dispose();
        pool.shutdown();
    }
}
