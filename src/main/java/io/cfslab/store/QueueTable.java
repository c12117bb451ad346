package io.cfslab.store;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The executions of db-scheduler's table {@code scheduled_tasks} that an instance left behind when it died. db-scheduler
 * itself finds them only when their heartbeat is {@code missed-heartbeats} × {@code heartbeat-interval} old (30 s by
 * default); an instance that starts under the same name knows at once that every execution picked under that name is
 * dead (it has not picked any yet), and releases them with the same update db-scheduler's own revival makes
 * ({@code JdbcTaskRepository.reschedule}: unpicked, due now, version + 1). Blocking JDBC.
 */
@Repository
public class QueueTable {
    private final JdbcClient jdbc;

    public QueueTable(JdbcClient jdbc) { this.jdbc = jdbc; }

    /** The instance ids of task {@code taskName}'s executions picked by {@code instance}. */
    public List<String> pickedBy(String taskName, String instance) {
        return jdbc.sql("select task_instance from scheduled_tasks where task_name = ? and picked = true and picked_by = ?"
                        + " order by execution_time")
                .params(taskName, instance).query(String.class).list();
    }

    /**
     * Makes a dead execution due now and free for any instance to pick.
     *
     * @return false if it is no longer picked by {@code instance}
     */
    public boolean release(String taskName, String taskInstance, String instance) {
        return jdbc.sql("""
                update scheduled_tasks set picked = false, picked_by = null, last_heartbeat = null, execution_time = ?,
                    version = version + 1
                where task_name = ? and task_instance = ? and picked = true and picked_by = ?""")
                .params(Timestamp.from(Instant.now()), taskName, taskInstance, instance).update() == 1;
    }

    /** Removes an execution (its run is given up). @return false if there was none */
    public boolean remove(String taskName, String taskInstance) {
        return jdbc.sql("delete from scheduled_tasks where task_name = ? and task_instance = ?")
                .params(taskName, taskInstance).update() == 1;
    }
}
