package io.cfslab.runs;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceCurrentlyExecutingException;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceNotFoundException;
import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import io.cfslab.store.QueueTable;
import io.cfslab.store.RunRecord;
import io.cfslab.store.RunRepository;
import io.cfslab.store.RunStatus;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The run queue: db-scheduler's table {@code scheduled_tasks}, shared by every instance on the same database.
 * A run is one execution of task {@value #TASK} whose instance id is the run id. Each instance with
 * {@code cfslab.runs.execute=true} polls it with {@link RunsProperties#threads()} threads; db-scheduler
 * picks each execution on exactly one instance (optimistic lock on the row), and re-executes an execution
 * whose instance stopped heart-beating (crash), so nothing accepted is lost. An instance that restarts under its
 * name re-queues at once what its previous process was executing ({@link #recoverOwnExecutions}).
 *
 * <p>Stopping (context close): local runs are stopped and re-queued first, then the scheduler stops.
 */
@Component
public class RunQueue implements SmartLifecycle {
    /** How soon a run put back by a graceful stop is due again (as the 1 s retry of a failed execution). */
    static final Duration REQUEUE_DELAY = Duration.ofSeconds(1);
    /** db-scheduler task name of a run. */
    public static final String TASK = "cfslab-run";
    private static final Logger log = LoggerFactory.getLogger(RunQueue.class);

    private final RunWorker worker;
    private final RunsProperties props;
    private final CustomTask<Void> task;
    private final SchedulerClient client;
    private final java.util.function.Supplier<Scheduler> schedulers; // null if this instance does not execute
    private volatile Scheduler scheduler;
    private final String name;
    private final RunRepository runs;
    private final QueueTable queue;
    private volatile boolean running;
    private volatile boolean stopped; // the current scheduler was stopped: start() makes a new one

    public RunQueue(DataSource dataSource, RunWorker worker, RunsProperties props, RunRepository runs,
                    QueueTable queue, Environment env) {
        this.worker = worker;
        this.props = props;
        this.runs = runs;
        this.queue = queue;
        this.name = props.workerName() == null || props.workerName().isBlank()
                ? defaultName(env.getProperty("server.port", Integer.class, 8080))
                : props.workerName();
        worker.setWorkerName(name);
        // A run put back by a graceful stop (RequeueException) is rescheduled as an ordinary completion, not as a
        // failure: db-scheduler logs every exception out of a task as "Unhandled exception ... Treating as failure"
        // (WARN, with its stack trace), which told operators that a run failed on each SIGTERM (breaker 6 F13).
        this.task = Tasks.custom(TASK, Void.class)
                .onFailure(new FailureHandler.OnFailureRetryLater<>(Duration.ofSeconds(1)))
                .onDeadExecutionRevive()
                .execute((instance, ctx) -> {
                    try {
                        worker.execute(instance.getId());
                        return new CompletionHandler.OnCompleteRemove<>(); // what a one-time task does
                    } catch (RequeueException again) {
                        return (complete, ops) -> ops.reschedule(complete, Instant.now().plus(REQUEUE_DELAY));
                    }
                });
        // Transaction-aware: a submit inserts the run row and the queue row in one transaction.
        DataSource ds = new TransactionAwareDataSourceProxy(dataSource);
        this.client = SchedulerClient.Builder.create(ds, List.of(task)).build();
        // a new scheduler at each start: a stopped one cannot start again (its executors are terminated)
        this.schedulers = !props.execute() ? null : () -> Scheduler.create(ds, List.of(task))
                    .schedulerName(new SchedulerName.Fixed(name))
                    .threads(props.threads())
                    .pollingInterval(props.pollInterval())
                    .heartbeatInterval(props.heartbeatInterval())
                    .missedHeartbeatsLimit(props.missedHeartbeats())
                    .shutdownMaxWait(Duration.ofSeconds(30))
                    .enableImmediateExecution()
                    .build();
        this.scheduler = schedulers == null ? null : schedulers.get();
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
        // db-scheduler's immediate execution checks for due runs as it schedules, i.e. inside the submitting
        // transaction, where the new row is not yet visible: the first run after idle then waited for the next
        // poll (about 1 s). Check again once the row is committed.
        if (scheduler != null && TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() { scheduler.triggerCheckForDueExecutions(); }
            });
        }
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
        } catch (com.github.kagkarlsson.scheduler.exceptions.ExecutionException e) {
            // picked between db-scheduler's read and its delete ("Expected one execution to be removed, but
            // removed 0"): executing now, as above (more frequent since a run starts as soon as it is committed)
            return false;
        }
    }

    /** This instance's name in the queue ({@code picked_by}). */
    public String name() { return name; }

    /**
     * The default instance name: the host name and HTTP port ({@code host:8080}), the same across restarts, so that a
     * restarted instance finds the runs its previous process was executing ({@link #recoverOwnExecutions}); with a
     * random port (0) the JVM's {@code pid@host} and a random suffix, unique but new at every start.
     */
    static String defaultName(int port) {
        if (port > 0) {
            try {
                return InetAddress.getLocalHost().getHostName() + ":" + port;
            } catch (UnknownHostException e) {
                // fall through to the unique name
            }
        }
        return ManagementFactory.getRuntimeMXBean().getName() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * Before this instance picks anything: every execution still picked under its name was picked by its previous
     * process, which died (a graceful stop re-queues its runs). db-scheduler would revive them only after
     * {@code missed-heartbeats} × {@code heartbeat-interval} (30 s); they are re-queued now instead, the interruption
     * counted on the run, or given up ({@code failed}) after {@code cfslab.runs.max-attempts}
     * ({@link RunWorker#recoverInterrupted}).
     *
     * @return the runs re-queued or given up
     */
    int recoverOwnExecutions() {
        int n = 0;
        for (String runId : queue.pickedBy(TASK, name)) {
            RunRecord run = runs.find(runId).orElse(null);
            boolean again = run == null || run.status() != RunStatus.RUNNING || worker.recoverInterrupted(run);
            if (again ? queue.release(TASK, runId, name) : queue.remove(TASK, runId)) n++;
        }
        if (n > 0) log.info("instance {} restarted: {} run(s) its previous process was executing re-queued or given up", name, n);
        return n;
    }

    @Override
    public void start() {
        worker.resume();
        if (schedulers != null) {
            if (stopped) scheduler = schedulers.get();
            stopped = false;
            try {
                recoverOwnExecutions();
            } catch (RuntimeException e) {
                log.warn("runs left by this instance's previous process not recovered at once (db-scheduler revives"
                        + " them after missed heartbeats): {}", e.toString());
            }
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
        stopped = true;
    }

    @Override
    public boolean isRunning() { return running; }

    /** Start after the database and web server beans, stop before them. */
    @Override
    public int getPhase() { return Integer.MAX_VALUE - 1000; }
}
