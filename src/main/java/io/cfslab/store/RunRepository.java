package io.cfslab.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Tables {@code run} and {@code run_result}: blocking JDBC; call it through {@link Jdbc#call} or from a
 * worker thread. State changes are conditional updates, so two instances never both win a transition.
 */
@Repository
public class RunRepository {
    /**
     * Every column but {@code scenario_json} (the snapshot, up to 4 MB): what status polls, lists and streams read
     * ({@link #findStatus}, {@link #list}, {@link #listByExperiment}).
     */
    private static final String STATUS_COLUMNS = "id, scenario_id, scenario_name, seed, repeats, status, progress,"
            + " simulated_ns, duration_ns, events, wall_ms, error, cancel_requested, attempts, worker, created_at,"
            + " started_at, finished_at, experiment_id, arm_index, arm_name, repeat_index, settings_json,"
            + " interruptions, interrupted_at, interrupted_worker, pace";

    private final JdbcClient jdbc;

    public RunRepository(JdbcClient jdbc) { this.jdbc = jdbc; }

    /** Inserts a queued run. */
    public void insert(String id, String scenarioId, String scenarioName, String scenarioJson, Long seed, int repeats) {
        insert(id, scenarioId, scenarioName, scenarioJson, seed, repeats, null);
    }

    /** Inserts a queued run with the effective settings it will run with (JSON, see {@link RunRecord#settingsJson()}). */
    public void insert(String id, String scenarioId, String scenarioName, String scenarioJson, Long seed, int repeats,
                       String settingsJson) {
        jdbc.sql("""
                insert into run (id, scenario_id, scenario_name, scenario_json, seed, repeats, status, progress,
                    simulated_ns, duration_ns, events, wall_ms, cancel_requested, attempts, created_at, settings_json)
                values (?, ?, ?, ?, ?, ?, 'queued', 0, 0, 0, 0, 0, false, 0, ?, ?)""")
                .params(id, scenarioId, scenarioName, scenarioJson, seed, repeats, Timestamp.from(Instant.now()),
                        settingsJson)
                .update();
    }

    /**
     * Inserts a queued run that is one repeat of one arm of an experiment.
     *
     * @param createdAt the experiment's submission time (its runs are listed in arm and repeat order)
     */
    public void insertForExperiment(String id, String scenarioId, String scenarioName, String scenarioJson, long seed,
                                    String settingsJson, String experimentId, int armIndex, String armName,
                                    int repeatIndex, Instant createdAt) {
        jdbc.sql("""
                insert into run (id, scenario_id, scenario_name, scenario_json, seed, repeats, status, progress,
                    simulated_ns, duration_ns, events, wall_ms, cancel_requested, attempts, created_at, settings_json,
                    experiment_id, arm_index, arm_name, repeat_index)
                values (?, ?, ?, ?, ?, 1, 'queued', 0, 0, 0, 0, 0, false, 0, ?, ?, ?, ?, ?, ?)""")
                .params(id, scenarioId, scenarioName, scenarioJson, seed, Timestamp.from(createdAt), settingsJson,
                        experimentId, armIndex, armName, repeatIndex)
                .update();
    }

    /** Records the settings of a run stored before they were recorded (computed from its scenario snapshot). */
    public void setSettings(String id, String settingsJson) {
        jdbc.sql("update run set settings_json = ? where id = ? and settings_json is null").params(settingsJson, id).update();
    }

    /** The runs of an experiment, in arm then repeat order. */
    public List<RunRecord> listByExperiment(String experimentId) {
        return jdbc.sql("select " + STATUS_COLUMNS + " from run where experiment_id = ? order by arm_index, repeat_index")
                .param(experimentId).query(RunRepository::mapStatus).list();
    }

    /**
     * The runs of several experiments in one query (the experiments list would otherwise ask once per experiment).
     *
     * @return experiment id → its runs in arm then repeat order; an experiment without runs is absent
     */
    public java.util.Map<String, List<RunRecord>> listByExperiments(java.util.Collection<String> experimentIds) {
        if (experimentIds.isEmpty()) return java.util.Map.of();
        List<RunRecord> all = jdbc.sql("select " + STATUS_COLUMNS + " from run where experiment_id in (:ids) order by experiment_id, arm_index, repeat_index")
                .param("ids", List.copyOf(experimentIds)).query(RunRepository::mapStatus).list();
        java.util.Map<String, List<RunRecord>> out = new java.util.LinkedHashMap<>();
        for (RunRecord r : all) out.computeIfAbsent(r.experimentId(), k -> new java.util.ArrayList<>()).add(r);
        return out;
    }

    /**
     * Runs newest first, at most {@code limit}, without their scenario snapshots ({@link RunRecord#scenarioJson()} is
     * null).
     *
     * @param status     only those with this status, or null for all
     * @param standalone true: only runs that belong to no experiment
     */
    public List<RunRecord> list(RunStatus status, boolean standalone, int limit) {
        String where = (status == null ? "1 = 1" : "status = ?") + (standalone ? " and experiment_id is null" : "");
        var spec = jdbc.sql("select " + STATUS_COLUMNS + " from run where " + where
                + " order by created_at desc, id limit ?");
        if (status != null) spec = spec.param(status.word());
        return spec.param(limit).query(RunRepository::mapStatus).list();
    }

    /**
     * Deletes a finished run and its results.
     *
     * @return false if there is no such run or it is not finished (queued or running runs are cancelled first)
     */
    public boolean deleteFinished(String id) {
        int n = jdbc.sql("delete from run where id = ? and status in ('done', 'failed', 'cancelled')").param(id).update();
        if (n == 1) deleteResults(id);
        return n == 1;
    }

    /**
     * Finished runs of no experiment that ended before {@code before}, oldest first (retention,
     * {@code cfslab.retention.max-age}).
     */
    public List<String> finishedStandaloneBefore(Instant before, int limit) {
        return jdbc.sql("select id from run where experiment_id is null and status in ('done', 'failed', 'cancelled')"
                        + " and coalesce(finished_at, created_at) < ? order by coalesce(finished_at, created_at), id limit ?")
                .params(Timestamp.from(before), limit).query(String.class).list();
    }

    /**
     * Finished runs of no experiment beyond the newest {@code keep} by end, at most {@code limit} (retention,
     * {@code cfslab.retention.max-runs}).
     */
    public List<String> finishedStandaloneBeyond(int keep, int limit) {
        return jdbc.sql("select id from run where experiment_id is null and status in ('done', 'failed', 'cancelled')"
                        + " order by coalesce(finished_at, created_at) desc, id desc limit ? offset ?")
                .params(limit, keep).query(String.class).list();
    }

    /** Deletes every run of an experiment and their results (the caller checks that they are finished). */
    public int deleteExperimentRuns(String experimentId) {
        for (String table : RESULT_TABLES) {
            jdbc.sql("delete from " + table + " where run_id in (select id from run where experiment_id = ?)")
                    .param(experimentId).update();
        }
        return jdbc.sql("delete from run where experiment_id = ?").param(experimentId).update();
    }

    /** The whole row, the scenario snapshot included. */
    public Optional<RunRecord> find(String id) {
        return jdbc.sql("select * from run where id = ?").param(id).query(RunRepository::map).optional();
    }

    /**
     * The ids of the runs whose id starts with {@code prefix} (in any case, with or without its dashes:
     * {@link RunIds#canonical}; hex digits and {@code -} only, anything else matches nothing), in id order, at most {@code limit}: a short id as the pages show it (8 characters) or
     * pasted from a log, resolved as git resolves an abbreviated commit ({@link RunIds}).
     */
    public List<String> idsStartingWith(String prefix, int limit) {
        return RunIds.idsStartingWith(jdbc, "run", prefix, limit);
    }

    /** The row without its scenario snapshot ({@link RunRecord#scenarioJson()} is null): for status polls. */
    public Optional<RunRecord> findStatus(String id) {
        return jdbc.sql("select " + STATUS_COLUMNS + " from run where id = ?").param(id)
                .query(RunRepository::mapStatus).optional();
    }

    /**
     * Records a queued run's simulated duration per repeat, known from its scenario at submission: a queued run
     * shows it (breaker 4 F9: it was 0 until a worker started the run, and stayed 0 for one cancelled while queued).
     */
    public void setDuration(String id, long durationNs) {
        jdbc.sql("update run set duration_ns = ? where id = ?").params(durationNs, id).update();
    }

    /** Records the pace a queued run is to execute at (simulated s per wall s; see {@link RunRecord#pace()}). */
    public void setPace(String id, double pace) {
        jdbc.sql("update run set pace = ? where id = ?").params(pace, id).update();
    }

    /** Runs newest first, optionally only those with {@code status}; at most {@code limit}; without snapshots. */
    public List<RunRecord> list(RunStatus status, int limit) {
        return list(status, false, limit);
    }

    /** Records who submitted a run (column {@code submitted_by}, at most 200 characters: longer is cut). */
    public void setSubmittedBy(String id, String client) {
        String c = client == null || client.length() <= 200 ? client : client.substring(0, 200);
        jdbc.sql("update run set submitted_by = ? where id = ?").params(c, id).update();
    }

    /** Runs with {@code status} submitted by {@code client}. */
    public long count(RunStatus status, String client) {
        return jdbc.sql("select count(*) from run where status = ? and submitted_by = ?").params(status.word(), client)
                .query(Long.class).single();
    }

    /** Runs with a pace that are queued or running (every instance's). */
    public long countPacedActive() {
        return jdbc.sql("select count(*) from run where pace is not null and status in (?, ?)")
                .params(RunStatus.QUEUED.word(), RunStatus.RUNNING.word()).query(Long.class).single();
    }

    /**
     * Takes the queue's admission lock (the one row of {@code queue_admission}, {@code FOR UPDATE}) until the current
     * transaction ends: admissions on every instance sharing the database count and insert one after another (Flyway
     * V11). Call inside a transaction.
     */
    public void lockAdmission() {
        jdbc.sql("select id from queue_admission where id = 1 for update").query(Integer.class).single();
    }

    public long count(RunStatus status) {
        return jdbc.sql("select count(*) from run where status = ?").param(status.word()).query(Long.class).single();
    }

    /**
     * An executor starts (or restarts) the run: status running, progress reset, attempts + 1.
     * @return false if the run is already finished (e.g. cancelled while queued) and must not execute
     */
    public boolean start(String id, String worker, long durationNs) {
        return jdbc.sql("""
                update run set status = 'running', progress = 0, simulated_ns = 0, events = 0, wall_ms = 0,
                    duration_ns = ?, attempts = attempts + 1, worker = ?, started_at = ?, error = null
                where id = ? and status in ('queued', 'running')""")
                .params(durationNs, worker, Timestamp.from(Instant.now()), id).update() == 1;
    }

    /**
     * Records progress of a running run.
     * @return true if a cancel was requested meanwhile
     */
    public boolean progress(String id, double percent, long simulatedNs, long events, long wallMs) {
        jdbc.sql("update run set progress = ?, simulated_ns = ?, events = ?, wall_ms = ? where id = ? and status = 'running'")
                .params(percent, simulatedNs, events, wallMs, id).update();
        return jdbc.sql("select cancel_requested from run where id = ?").param(id).query(Boolean.class)
                .optional().orElse(false);
    }

    /** Ends a running run as done, failed or cancelled. @return false if it was not running */
    public boolean finish(String id, RunStatus status, String error, double percent, long simulatedNs, long events,
                          long wallMs) {
        return jdbc.sql("""
                update run set status = ?, error = ?, progress = ?, simulated_ns = ?, events = ?, wall_ms = ?,
                    finished_at = ?
                where id = ? and status = 'running'""")
                .params(status.word(), error, percent, simulatedNs, events, wallMs, Timestamp.from(Instant.now()), id)
                .update() == 1;
    }

    /** A running run goes back to the queue (its instance is shutting down). */
    public boolean requeue(String id) {
        return jdbc.sql("update run set status = 'queued', progress = 0, simulated_ns = 0, events = 0 where id = ? and status = 'running'")
                .param(id).update() == 1;
    }

    /**
     * A running run whose attempt died with its instance (crash, kill -9): back to the queue from the start, the
     * interruption counted ({@code interruptions + 1}, when, which instance).
     *
     * @return false if it was not running
     */
    public boolean requeueInterrupted(String id, String deadWorker) {
        return jdbc.sql("""
                update run set status = 'queued', progress = 0, simulated_ns = 0, events = 0,
                    interruptions = interruptions + 1, interrupted_at = ?, interrupted_worker = ?
                where id = ? and status = 'running'""")
                .params(Timestamp.from(Instant.now()), cut(deadWorker), id).update() == 1;
    }

    /**
     * A running run whose attempt died with its instance, given up: {@code failed} with {@code error}, the interruption
     * counted.
     *
     * @return false if it was not running
     */
    public boolean failInterrupted(String id, String deadWorker, String error) {
        Timestamp now = Timestamp.from(Instant.now());
        return jdbc.sql("""
                update run set status = 'failed', error = ?, finished_at = ?, interruptions = interruptions + 1,
                    interrupted_at = ?, interrupted_worker = ?
                where id = ? and status = 'running'""")
                .params(error, now, now, cut(deadWorker), id).update() == 1;
    }

    private static String cut(String worker) {
        return worker == null || worker.length() <= 200 ? worker : worker.substring(0, 200);
    }

    /** Cancels a queued run. @return false if it was not queued */
    public boolean cancelQueued(String id, String reason) {
        return jdbc.sql("update run set status = 'cancelled', error = ?, finished_at = ? where id = ? and status = 'queued'")
                .params(reason, Timestamp.from(Instant.now()), id).update() == 1;
    }

    /** Asks a running run to stop; the instance executing it polls the flag. @return false if not running */
    public boolean requestCancel(String id) {
        return jdbc.sql("update run set cancel_requested = true where id = ? and status = 'running'").param(id).update() == 1;
    }

    /** Tables that hold a run's results, whole or in parts. */
    private static final List<String> RESULT_TABLES = List.of("run_result", "run_histogram", "run_cgroup_stats");

    /**
     * Stores (or replaces) the result of one repeat, and its parts ({@link ResultParts}: each histogram, the cgroup
     * files) for the endpoints that serve them alone.
     *
     * @param resultJson the contract's result JSON
     */
    public void saveResult(String runId, int repeat, String resultJson) {
        saveResult(runId, repeat, resultJson, ResultParts.of(resultJson));
    }

    /** {@link #saveResult(String, int, String)} with its parts already cut out. */
    public void saveResult(String runId, int repeat, String resultJson, ResultParts parts) {
        for (String table : RESULT_TABLES) {
            jdbc.sql("delete from " + table + " where run_id = ? and repeat_index = ?").params(runId, repeat).update();
        }
        jdbc.sql("insert into run_result (run_id, repeat_index, result_json) values (?, ?, ?)")
                .params(runId, repeat, resultJson).update();
        saveParts(jdbc, runId, repeat, parts);
    }

    /**
     * Stores the parts of a result (the {@code run_cgroup_stats} row last: it marks them complete). The migration
     * {@code db.migration.V7__Cut_stored_results_into_parts} writes the same rows for results stored before V6.
     */
    static void saveParts(JdbcClient jdbc, String runId, int repeat, ResultParts parts) {
        for (var h : parts.histograms().entrySet()) {
            jdbc.sql("insert into run_histogram (run_id, repeat_index, name, histogram_json) values (?, ?, ?, ?)")
                    .params(runId, repeat, h.getKey(), h.getValue()).update();
        }
        jdbc.sql("insert into run_cgroup_stats (run_id, repeat_index, cgroups_json) values (?, ?, ?)")
                .params(runId, repeat, parts.cgroups()).update();
    }

    /** Drops the results of earlier attempts (a re-queued run starts from the beginning), parts included. */
    public void deleteResults(String runId) {
        for (String table : RESULT_TABLES) jdbc.sql("delete from " + table + " where run_id = ?").param(runId).update();
    }

    /**
     * One histogram of a stored result, as compact JSON ({@code {"count", "sum", "buckets"}}): reads that row only.
     *
     * @return empty if there is no such histogram, or the result's parts are not stored ({@link #hasParts})
     */
    public Optional<String> findHistogram(String runId, int repeat, String name) {
        return jdbc.sql("select histogram_json from run_histogram where run_id = ? and repeat_index = ? and name = ?")
                .params(runId, repeat, name).query(String.class).optional();
    }

    /** Every histogram of a stored result, by name (sorted), as compact JSON; empty if its parts are not stored. */
    public Map<String, String> findHistograms(String runId, int repeat) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        jdbc.sql("select name, histogram_json from run_histogram where run_id = ? and repeat_index = ? order by name")
                .params(runId, repeat).query(rs -> { out.put(rs.getString(1), rs.getString(2)); });
        return out;
    }

    /** The {@code cgroups} member of a stored result, compact JSON; empty if its parts are not stored. */
    public Optional<String> findCgroupStats(String runId, int repeat) {
        return jdbc.sql("select cgroups_json from run_cgroup_stats where run_id = ? and repeat_index = ?")
                .params(runId, repeat).query(String.class).optional();
    }

    /**
     * Cuts the parts out of a stored result that has none yet (stored by a version before them, and missed by the
     * migration: e.g. written by an older instance sharing the database) and stores them.
     *
     * @return the parts, or empty if there is no such result
     */
    public Optional<ResultParts> storeMissingParts(String runId, int repeat) {
        Optional<ResultParts> parts = findResult(runId, repeat).map(ResultParts::of);
        parts.ifPresent(p -> {
            try {
                if (findCgroupStats(runId, repeat).isEmpty()) saveParts(jdbc, runId, repeat, p);
            } catch (org.springframework.dao.DataIntegrityViolationException raced) {
                // another request stored them at the same time
            }
        });
        return parts;
    }

    /** Whether repeat {@code repeat} of the run has a stored result (a cancelled run has one per repeat it reached). */
    public boolean hasResult(String runId, int repeat) {
        return jdbc.sql("select count(*) from run_result where run_id = ? and repeat_index = ?").params(runId, repeat)
                .query(Long.class).single() > 0;
    }

    public Optional<String> findResult(String runId, int repeat) {
        return jdbc.sql("select result_json from run_result where run_id = ? and repeat_index = ?")
                .params(runId, repeat).query(String.class).optional();
    }

    private static RunRecord map(ResultSet rs, int row) throws SQLException { return map(rs, true); }

    private static RunRecord mapStatus(ResultSet rs, int row) throws SQLException { return map(rs, false); }

    private static RunRecord map(ResultSet rs, boolean withScenario) throws SQLException {
        long seed = rs.getLong("seed");
        Long seedOrNull = rs.wasNull() ? null : seed;
        return new RunRecord(rs.getString("id"), rs.getString("scenario_id"), rs.getString("scenario_name"),
                withScenario ? rs.getString("scenario_json") : null, seedOrNull, rs.getInt("repeats"), RunStatus.of(rs.getString("status")),
                rs.getDouble("progress"), rs.getLong("simulated_ns"), rs.getLong("duration_ns"), rs.getLong("events"),
                rs.getLong("wall_ms"), rs.getString("error"), rs.getBoolean("cancel_requested"), rs.getInt("attempts"),
                rs.getString("worker"), instant(rs, "created_at"), instant(rs, "started_at"), instant(rs, "finished_at"),
                rs.getString("experiment_id"), integer(rs, "arm_index"), rs.getString("arm_name"),
                integer(rs, "repeat_index"), rs.getString("settings_json"), rs.getInt("interruptions"),
                instant(rs, "interrupted_at"), rs.getString("interrupted_worker"), pace(rs));
    }

    private static Double pace(ResultSet rs) throws SQLException {
        double v = rs.getDouble("pace");
        return rs.wasNull() ? null : v;
    }

    private static Integer integer(ResultSet rs, String column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? null : v;
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
