package io.cfslab.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code bench}: one line per run with wall and CPU rates, then the medians of the runs (what docs/benchmarks.md records). */
class BenchCommandTest {
    private static final Pattern RUN = Pattern.compile(
            "run (\\d): 5\\.00 simulated s in [0-9.]+ wall s = ([0-9.]+) simulated s per wall s \\(([0-9.]+) per CPU s.*");
    private static final Pattern MEDIAN = Pattern.compile(
            "median of 3 runs: ([0-9.]+) simulated s per wall s \\(([0-9.]+) per CPU s\\); peak heap \\d+ MiB");

    @Test
    void printsEachRunThenTheMedians() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream old = System.out;
        int status;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            status = Cli.run(new String[] {"bench", Path.of("src/test/resources/reference/E1.json").toString(), "--runs", "3"});
        } finally {
            System.setOut(old);
        }
        assertThat(status).isZero();
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(4);
        double[] wall = new double[3], cpu = new double[3];
        for (int i = 0; i < 3; i++) {
            Matcher m = RUN.matcher(lines.get(i));
            assertThat(m.matches()).as(lines.get(i)).isTrue();
            assertThat(m.group(1)).isEqualTo(String.valueOf(i + 1));
            wall[i] = Double.parseDouble(m.group(2));
            cpu[i] = Double.parseDouble(m.group(3));
        }
        Matcher m = MEDIAN.matcher(lines.get(3));
        assertThat(m.matches()).as(lines.get(3)).isTrue();
        assertThat(Double.parseDouble(m.group(1))).isEqualTo(median(wall));
        assertThat(Double.parseDouble(m.group(2))).isEqualTo(median(cpu));
    }

    /** The middle of three values, as printed with two decimals. */
    private static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        return s[1];
    }
}
