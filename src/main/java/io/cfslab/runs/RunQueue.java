package io.cfslab.runs;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceCurrentlyExecutingException;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceNotFoundException;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.stereotype.Component;

/**
 * The run queue: db-scheduler's table {@code scheduled_tasks}, shared by every instance on the same database.
 * A run is one execution of task {@value #TASK} whose instance id is the run id. Each instance with
 * {@code cfslab.runs.execute=true} polls it with {@link RunsProperties#threads()} threads; db-scheduler
 * picks each execution on exactly one instance (optimistic lock on the row), and re-executes an execution
 * whose instance stopped heart-beating (crash), so nothing accepted is lost.
 *
 * <p>Stopping (context close): local runs are stopped and re-queued first, then the scheduler stops.
 */
@Component
public class RunQueue implements SmartLifecycle {
    /** db-scheduler task name of a run. */
    public static final String TASK = "cfslab-run";
    private static final Logger log = LoggerFactory.getLogger(RunQueue.class);

    private final RunWorker worker;
    private final RunsProperties props;
    private final OneTimeTask<Void> task;
    private final SchedulerClient client;
    private final Scheduler scheduler;
    private final String name;
    private volatile boolean running;

    public RunQueue(DataSource dataSource, RunWorker worker, RunsProperties props) {
        this.worker = worker;
        this.props = props;
        this.name = props.workerName() == null || props.workerName().isBlank()
                ? ManagementFactory.getRuntimeMXBean().getName() + "-" + UUID.randomUUID().toString().substring(0, 8)
                : props.workerName();
        worker.setWorkerName(name);
        this.task = Tasks.oneTime(TASK)
                .onFailure(new FailureHandler.OnFailureRetryLater<>(Duration.ofSeconds(1)))
                .onDeadExecutionRevive()
                .execute((instance, ctx) -> worker.execute(instance.getId()));
        // Transaction-aware: a submit inserts the run row and the queue row in one transaction.
        DataSource ds = new TransactionAwareDataSourceProxy(dataSource);
        this.client = SchedulerClient.Builder.create(ds, List.of(task)).build();
        this.scheduler = props.execute()
                ? Scheduler.create(ds, List.of(task))
                    .schedulerName(new SchedulerName.Fixed(name))
                    .threads(props.threads())
                    .pollingInterval(props.pollInterval())
                    .heartbeatInterval(props.heartbeatInterval())
                    .missedHeartbeatsLimit(props.missedHeartbeats())
                    .shutdownMaxWait(Duration.ofSeconds(30))
                    .enableImmediateExecution()
                    .build()
                : null;
    }

    /** Queues run {@code runId} for execution now (joins the caller's transaction, if any). */
    public void enqueue(String runId) { enqueue(runId, Instant.now()); }

    /**
     * Queues run {@code runId}, due at {@code at} (joins the caller's transaction, if any). Runs due at the same
     * time are picked in no particular order; an experiment gives its runs times a microsecond apart, in the past,
     * so that they start in arm-within-repeat order.
     */
    public void enqueue(String runId, Instant at) {
        (scheduler != null ? scheduler : client).schedule(task.instance(runId), at);
    }

    /**
     * Removes a queued run from the queue.
     * @return false if some instance is executing it right now (or it is not in the queue)
     */
    public boolean dequeue(String runId) {
        try {
            client.cancel(TaskInstanceId.of(TASK, runId));
            return true;
        } catch (TaskInstanceCurrentlyExecutingException | TaskInstanceNotFoundException e) {
            return false;
        }
    }

    /** This instance's name in the queue ({@code picked_by}). */
    public String name() { return name; }

    @Override
    public void start() {
        if (scheduler != null) {
            scheduler.start();
            log.info("run queue started: {} threads, instance {}", props.threads(), name);
        }
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        worker.shutdown();
        if (scheduler != null) scheduler.stop();
    }

    @Override
    public boolean isRunning() { return running; }

    /** Start after the database and web server beans, stop before them. */
    @Override
    public int getPhase() { return Integer.MAX_VALUE - 1000; }
}
