package db.migration;

import io.cfslab.experiment.ExperimentPlanJson;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Issue 13 (a finding of issue 7's breaker): {@code GET /api/experiments} read and parsed every listed experiment's
 * whole plan, whose {@code limited_groups} name every cgroup with a quota (thousands in a large tree). Column
 * {@code experiment.summary_json} holds what the list needs ({@link ExperimentPlanJson#summary}); this fills it for
 * the experiments stored before, one at a time. A plan that cannot be read is left without a summary (the list then
 * reads the plan, as before).
 */
public class V9__Experiment_list_summary extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws SQLException {
        Connection c = context.getConnection();
        try (Statement st = c.createStatement()) {
            st.execute("alter table experiment add column summary_json text");
        }
        List<String> ids = new ArrayList<>();
        try (PreparedStatement q = c.prepareStatement("select id from experiment order by id");
             ResultSet rs = q.executeQuery()) {
            while (rs.next()) ids.add(rs.getString(1));
        }
        try (PreparedStatement read = c.prepareStatement("select plan_json from experiment where id = ?");
             PreparedStatement write = c.prepareStatement("update experiment set summary_json = ? where id = ?")) {
            for (String id : ids) {
                read.setString(1, id);
                String plan;
                try (ResultSet rs = read.executeQuery()) {
                    if (!rs.next()) continue;
                    plan = rs.getString(1);
                }
                String summary;
                try {
                    summary = ExperimentPlanJson.summary(plan);
                } catch (RuntimeException unreadable) {
                    continue;
                }
                write.setString(1, summary);
                write.setString(2, id);
                write.executeUpdate();
            }
        }
    }
}
