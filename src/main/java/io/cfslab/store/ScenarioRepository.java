package io.cfslab.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Table {@code scenario}: blocking JDBC; call it through {@link Jdbc#call}. */
@Repository
public class ScenarioRepository {
    private final JdbcClient jdbc;

    public ScenarioRepository(JdbcClient jdbc) { this.jdbc = jdbc; }

    /** Inserts a new scenario with version 1. */
    public ScenarioRecord insert(String id, String name, String document) {
        Instant now = Instant.now();
        jdbc.sql("insert into scenario (id, name, document, created_at, updated_at, version) values (?, ?, ?, ?, ?, 1)")
                .params(id, name, document, Timestamp.from(now), Timestamp.from(now)).update();
        return new ScenarioRecord(id, name, document, now, now, 1);
    }

    /** Replaces the document; @return false if no such scenario. */
    public boolean update(String id, String name, String document) {
        return jdbc.sql("update scenario set name = ?, document = ?, updated_at = ?, version = version + 1 where id = ?")
                .params(name, document, Timestamp.from(Instant.now()), id).update() == 1;
    }

    /**
     * Replaces the document only if the stored version is still {@code expectedVersion} (optimistic
     * concurrency: a read-modify-write whose version changed meanwhile must re-read and re-apply).
     *
     * @return false if no such scenario or its version is no longer {@code expectedVersion}
     */
    public boolean update(String id, String name, String document, long expectedVersion) {
        return jdbc.sql("update scenario set name = ?, document = ?, updated_at = ?, version = version + 1"
                        + " where id = ? and version = ?")
                .params(name, document, Timestamp.from(Instant.now()), id, expectedVersion).update() == 1;
    }

    public Optional<ScenarioRecord> find(String id) {
        return jdbc.sql("select * from scenario where id = ?").param(id).query(ScenarioRepository::map).optional();
    }

    /** The ids of the stored scenarios whose id starts with {@code prefix}, in id order, at most {@code limit} ({@link RunIds}). */
    public List<String> idsStartingWith(String prefix, int limit) {
        return RunIds.idsStartingWith(jdbc, "scenario", prefix, limit);
    }

    /** Every stored scenario, oldest first. */
    public List<ScenarioRecord> findAll() {
        return jdbc.sql("select * from scenario order by created_at, id").query(ScenarioRepository::map).list();
    }

    /**
     * Every stored scenario, oldest first, without its document ({@link ScenarioRecord#document()} is null): what
     * lists show, read from the row's own columns (60 large documents took 0.5–1.2 s to read in full, issue 13).
     */
    public List<ScenarioRecord> findAllSummaries() {
        return jdbc.sql("select id, name, created_at, updated_at, version from scenario order by created_at, id")
                .query((rs, n) -> new ScenarioRecord(rs.getString("id"), rs.getString("name"), null,
                        rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant(),
                        rs.getLong("version")))
                .list();
    }

    /** @return false if no such scenario */
    public boolean delete(String id) {
        return jdbc.sql("delete from scenario where id = ?").param(id).update() == 1;
    }

    /** @return false if no such scenario or its version is no longer {@code expectedVersion} */
    public boolean delete(String id, long expectedVersion) {
        return jdbc.sql("delete from scenario where id = ? and version = ?").params(id, expectedVersion).update() == 1;
    }

    private static ScenarioRecord map(ResultSet rs, int row) throws SQLException {
        return new ScenarioRecord(rs.getString("id"), rs.getString("name"), rs.getString("document"),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant(),
                rs.getLong("version"));
    }
}
