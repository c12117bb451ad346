package io.cfslab.store;

import java.util.concurrent.Callable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Runs blocking JDBC work off the event loop, on a bounded scheduler of its own ({@code cfslab-jdbc},
 * at most 16 threads, 10,000 queued tasks). Controllers wrap every repository call in {@link #call}.
 */
@Component
public class Jdbc implements DisposableBean {
    private final Scheduler scheduler = Schedulers.newBoundedElastic(16, 10_000, "cfslab-jdbc");

    /** @return a Mono that runs {@code work} on the JDBC scheduler; a null result completes empty. */
    public <T> Mono<T> call(Callable<T> work) {
        return Mono.fromCallable(work).subscribeOn(scheduler);
    }

    @Override
    public void destroy() { scheduler.dispose(); }
}
