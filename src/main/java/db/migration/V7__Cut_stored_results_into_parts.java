package db.migration;

import io.cfslab.store.ResultParts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Issue 13: cuts every result stored before V6 into the parts that {@code GET …/histograms/{name}} and
 * {@code GET …/cpu.stat} read ({@link ResultParts}: tables {@code run_histogram} and {@code run_cgroup_stats}), so
 * that those endpoints never read a whole result. One result at a time (a 384-CPU result is 3.7 MB), in the
 * migration's transaction. The results themselves are not changed (they stay byte-identical).
 */
public class V7__Cut_stored_results_into_parts extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws SQLException {
        Connection c = context.getConnection();
        List<Object[]> keys = new ArrayList<>();
        try (PreparedStatement q = c.prepareStatement("""
                select r.run_id, r.repeat_index from run_result r
                where not exists (select 1 from run_cgroup_stats s
                                  where s.run_id = r.run_id and s.repeat_index = r.repeat_index)
                order by r.run_id, r.repeat_index""");
             ResultSet rs = q.executeQuery()) {
            while (rs.next()) keys.add(new Object[] {rs.getString(1), rs.getInt(2)});
        }
        try (PreparedStatement read = c.prepareStatement(
                     "select result_json from run_result where run_id = ? and repeat_index = ?");
             PreparedStatement histogram = c.prepareStatement(
                     "insert into run_histogram (run_id, repeat_index, name, histogram_json) values (?, ?, ?, ?)");
             PreparedStatement cgroups = c.prepareStatement(
                     "insert into run_cgroup_stats (run_id, repeat_index, cgroups_json) values (?, ?, ?)")) {
            for (Object[] k : keys) {
                String runId = (String) k[0];
                int repeat = (Integer) k[1];
                read.setString(1, runId);
                read.setInt(2, repeat);
                String json;
                try (ResultSet rs = read.executeQuery()) {
                    if (!rs.next()) continue;
                    json = rs.getString(1);
                }
                ResultParts parts;
                try {
                    parts = ResultParts.of(json);
                } catch (RuntimeException notAResult) {
                    continue; // left to the first read (RunRepository.storeMissingParts), which answers its own error
                }
                for (Map.Entry<String, String> h : parts.histograms().entrySet()) {
                    histogram.setString(1, runId);
                    histogram.setInt(2, repeat);
                    histogram.setString(3, h.getKey());
                    histogram.setString(4, h.getValue());
                    histogram.executeUpdate();
                }
                cgroups.setString(1, runId);
                cgroups.setInt(2, repeat);
                cgroups.setString(3, parts.cgroups());
                cgroups.executeUpdate();
            }
        }
    }
}
