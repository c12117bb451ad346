package io.cfslab.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Table {@code experiment}: blocking JDBC; call it through {@link Jdbc#call} or from a worker thread. Lists
 * leave out the (possibly large) definition and result, which {@link #find} reads, and read the plan's summary.
 */
@Repository
public class ExperimentRepository {
    /** The list's columns: the plan's summary (summary_json, V9) in place of the whole plan. */
    private static final String LIST_COLUMNS = "id, name, scenario_id, coalesce(summary_json, plan_json) as plan_json, seed,"
            + " arms, repeats, cancel_requested, created_at";

    private final JdbcClient jdbc;

    public ExperimentRepository(JdbcClient jdbc) { this.jdbc = jdbc; }

    /**
     * Inserts an experiment (its runs are inserted by the caller, in the same transaction).
     *
     * @param summaryJson what the list reads of the plan ({@code ExperimentPlanJson.summary})
     */
    public void insert(String id, String name, String scenarioId, String definitionJson, String planJson,
                       String summaryJson, long seed, int arms, int repeats, Instant createdAt) {
        jdbc.sql("""
                insert into experiment (id, name, scenario_id, definition_json, plan_json, summary_json, seed, arms,
                    repeats, cancel_requested, created_at)
                values (?, ?, ?, ?, ?, ?, ?, ?, ?, false, ?)""")
                .params(id, name, scenarioId, definitionJson, planJson, summaryJson, seed, arms, repeats,
                        Timestamp.from(createdAt))
                .update();
    }

    /** The whole row, definition and result included. */
    public Optional<ExperimentRecord> find(String id) {
        return jdbc.sql("select * from experiment where id = ?").param(id).query((rs, n) -> map(rs, true)).optional();
    }

    /** The ids of the experiments whose id starts with {@code prefix}, in id order, at most {@code limit} ({@link RunIds}). */
    public List<String> idsStartingWith(String prefix, int limit) {
        return RunIds.idsStartingWith(jdbc, "experiment", prefix, limit);
    }

    /**
     * Experiments newest first, at most {@code limit}, without definition and result, and with the plan's summary as
     * {@link ExperimentRecord#planJson} (no limited groups: a large tree's plan lists thousands).
     */
    public List<ExperimentRecord> list(int limit) {
        return jdbc.sql("select " + LIST_COLUMNS + " from experiment order by created_at desc, id limit ?").param(limit)
                .query((rs, n) -> map(rs, false)).list();
    }

    /** @return false if no such experiment */
    public boolean requestCancel(String id) {
        return jdbc.sql("update experiment set cancel_requested = true where id = ?").param(id).update() == 1;
    }

    /** Stores the statistics unless another instance stored them first. @return whether this call stored them */
    public boolean saveResult(String id, String resultJson) {
        return jdbc.sql("update experiment set result_json = ? where id = ? and result_json is null")
                .params(resultJson, id).update() == 1;
    }

    /** @return false if no such experiment (the caller deletes its runs in the same transaction) */
    public boolean delete(String id) {
        return jdbc.sql("delete from experiment where id = ?").param(id).update() == 1;
    }

    private static ExperimentRecord map(ResultSet rs, boolean full) throws SQLException {
        return new ExperimentRecord(rs.getString("id"), rs.getString("name"), rs.getString("scenario_id"),
                full ? rs.getString("definition_json") : null, rs.getString("plan_json"), rs.getLong("seed"),
                rs.getInt("arms"), rs.getInt("repeats"), rs.getBoolean("cancel_requested"),
                full ? rs.getString("result_json") : null, rs.getTimestamp("created_at").toInstant());
    }
}
