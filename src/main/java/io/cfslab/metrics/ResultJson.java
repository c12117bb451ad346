package io.cfslab.metrics;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.util.DefaultIndenter;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes and reads {@link SimulationResult} as the contract's JSON ({@code docs/contract.md},
 * "Result").
 *
 * <p>Keys: record components in snake_case ({@code simulated_ns}, {@code distribute_calls}, {@code at_ns},
 * {@code duration_ns}, {@code cfs_rqs}, {@code remote_rqs}, {@code usage_usec}, {@code nr_periods},
 * {@code cpu_percent}, {@code wall_ms}, ...), except the cgroup files, keyed by their cgroupfs names:
 * {@link SimulationResult.CgroupStats#cpuStat()} is {@code "cpu.stat"},
 * {@link SimulationResult.CgroupStats#cpuStatLocal()} is {@code "cpu.stat.local"}, and likewise
 * {@code "cpuacct.usage"} and the read-back bandwidth files ({@code "cpu.max"}, {@code "cpu.cfs_quota_us"}, ...).
 * Parts a kernel or cgroup version does not have are null and left out. A histogram is
 * {@code {"count", "sum", "buckets": [{"low", "high", "count"}]}}.
 *
 * <p>Deterministic bytes: properties in record component order (so {@code engine} is last), map entries in
 * the maps' own iteration order (callers pass {@link LinkedHashMap}s in creation order; a read gives
 * {@link LinkedHashMap}s in file order), two-space indentation with {@code '\n'} line ends whatever the
 * platform, {@code "key": value} spacing, and doubles written by Jackson's own shortest-repr writer
 * ({@link StreamWriteFeature#USE_FAST_DOUBLE_WRITER}), which does not depend on the JDK's
 * {@code Double.toString}. {@link SimulationResult.TaskSample#cpuPercent()} is rounded to 2 decimals
 * (half up) on write, as {@code pidstat} prints it; other doubles are written unrounded. Hence
 * {@code read(write(r)).equals(r)} for every result whose {@code cpu_percent} values have at most 2
 * decimals.
 *
 * <p>Reading is strict: an unknown key is an error (the contract's rule), reported with its JSON path.
 */
public final class ResultJson {
    private static final JsonMapper MAPPER = buildMapper();

    private ResultJson() {}

    /**
     * The configured mapper: snake_case with the {@code cpu.stat} / {@code cpu.stat.local} keys, component
     * order, pretty-printed with {@code '\n'}, fast double writer, unknown properties rejected. Immutable
     * and thread-safe; reuse it for other contract types (e.g. to stream results from the REST API).
     *
     * @return the shared mapper
     */
    public static JsonMapper mapper() {
        return MAPPER;
    }

    /**
     * Serialises a result (see the class comment for the exact form).
     *
     * @param result the result; its maps' iteration order is kept
     * @return pretty-printed JSON ending without a newline
     * @throws JacksonException if serialisation fails
     */
    public static String write(SimulationResult result) {
        return MAPPER.writeValueAsString(roundForWrite(result));
    }

    /**
     * Parses the contract's result JSON.
     *
     * @param json a result as {@link #write} produces it
     * @return the result, maps as {@link LinkedHashMap}s in the file's order
     * @throws JacksonException if the JSON is malformed, a key is unknown or a value has the wrong type
     *                          (the message names the JSON path)
     */
    public static SimulationResult read(String json) {
        return MAPPER.readValue(json, SimulationResult.class);
    }

    /**
     * Rounds {@code value} to 2 decimals, half up, the rule {@link #write} applies to {@code cpu_percent}.
     *
     * @param value a finite value (NaN and infinities are returned unchanged)
     * @return the nearest multiple of 0.01 to the decimal expansion of {@code value}, ties away from zero
     */
    public static double round2(double value) {
        if (!Double.isFinite(value)) {
            return value;
        }
        return new BigDecimal(value).setScale(2, RoundingMode.HALF_UP).doubleValue();
    }

    private static SimulationResult roundForWrite(SimulationResult r) {
        if (r.series() == null) {
            return r;
        }
        List<SimulationResult.SeriesSample> series = r.series().stream().map(ResultJson::roundSample).toList();
        return new SimulationResult(r.scenario(), r.seed(), r.simulatedNs(), r.partial(), r.cgroups(), r.tasks(), r.histograms(),
                r.distributeCalls(), series, r.benchmarks(), r.machine(), r.cpus(), r.cpuTimeline(), r.kernel(), r.actions(),
                r.kernelLog(), r.engine());
    }

    private static SimulationResult.SeriesSample roundSample(SimulationResult.SeriesSample s) {
        if (s.tasks() == null) {
            return s;
        }
        Map<String, SimulationResult.TaskSample> tasks = new LinkedHashMap<>();
        s.tasks().forEach((name, t) ->
                tasks.put(name, t == null ? null : new SimulationResult.TaskSample(round2(t.cpuPercent()), t.cpu())));
        return new SimulationResult.SeriesSample(s.atNs(), s.cgroups(), tasks);
    }

    private static JsonMapper buildMapper() {
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter(
                Separators.createDefaultInstance().withObjectNameValueSpacing(Separators.Spacing.AFTER))
                .withObjectIndenter(indenter)
                .withArrayIndenter(indenter);
        return JsonMapper.builder()
                .propertyNamingStrategy(new ContractNaming())
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .disable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .defaultPrettyPrinter(printer)
                .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .build();
    }

    /**
     * @param component a record component of the result's types ({@code throttledUsec}, {@code cpuStat})
     * @return its key in the result JSON ({@code throttled_usec}, {@code cpu.stat}), as this class writes it
     */
    public static String jsonName(String component) { return NAMING.translate(component); }

    private static final ContractNaming NAMING = new ContractNaming();

    /** snake_case, except the cgroup file components, which take the cgroupfs file names. */
    static final class ContractNaming extends PropertyNamingStrategies.SnakeCaseStrategy {
        private static final long serialVersionUID = 1L;

        @Override
        protected String translate(String name) {
            return switch (name) {
                case "cpuStat" -> "cpu.stat";
                case "cpuStatLocal" -> "cpu.stat.local";
                case "cpuacctUsage" -> "cpuacct.usage";
                case "cpuMax" -> "cpu.max";
                case "cpuMaxBurst" -> "cpu.max.burst";
                case "cpuCfsQuotaUs" -> "cpu.cfs_quota_us";
                case "cpuCfsPeriodUs" -> "cpu.cfs_period_us";
                case "cpuCfsBurstUs" -> "cpu.cfs_burst_us";
                default -> super.translate(name);
            };
        }
    }
}
