/*
 * Same-JVM A/B of two or more cfslab builds (docs/benchmarks.md, "Fourth session"): on a machine shared with other
 * work, runs of two jars in two processes minutes apart differ by the load; here each round runs every build once,
 * back to back in one JVM (each build in its own class loader), and the figure is the CPU time of the simulating
 * thread, with the median of the per-round ratios of the first two builds. Not part of the build; run as a
 * single-file program (JDK 17):
 *
 *   mkdir base head && (cd base && unzip -q ../base.jar 'BOOT-INF/*') && (cd head && unzip -q ../head.jar 'BOOT-INF/*')
 *   java -Xmx3g src/test/tools/SameJvm.java src/main/resources/scenarios/seed03-large-tree-async.json 8 base head
 *
 * Round 0 includes the JIT's warm-up and is left out of the medians. A build may be given as {@code dir=scenario.json}
 * to run another scenario with it than the first argument's: one build against itself with a setting changed (e.g.
 * {@code kernel.throttled_lb}), where the simulated work differs but the code does not.
 */
import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class SameJvm {
    public static void main(String[] a) throws Exception {
        String[] texts = new String[a.length];
        int rounds = Integer.parseInt(a[1]);
        int n = a.length - 2;
        Method[] parse = new Method[n], run = new Method[n];
        Object[] none = new Object[n];
        for (int i = 0; i < n; i++) {
            String[] build = a[2 + i].split("=", 2); // dir, or dir=scenario
            File dir = new File(build[0]);
            texts[i] = Files.readString(Path.of(build.length > 1 ? build[1] : a[0]));
            List<URL> urls = new ArrayList<>();
            urls.add(new File(dir, "BOOT-INF/classes").toURI().toURL());
            File[] libs = new File(dir, "BOOT-INF/lib").listFiles();
            Arrays.sort(libs);
            for (File f : libs) urls.add(f.toURI().toURL());
            ClassLoader cl = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
            Class<?> parser = cl.loadClass("io.cfslab.scenario.ScenarioParser");
            Class<?> scen = cl.loadClass("io.cfslab.scenario.Scenario");
            Class<?> rc = cl.loadClass("io.cfslab.sim.RunControl");
            parse[i] = parser.getMethod("parse", String.class);
            run[i] = cl.loadClass("io.cfslab.sim.Simulator").getMethod("run", scen, rc);
            none[i] = rc.getField("NONE").get(null);
        }
        ThreadMXBean th = ManagementFactory.getThreadMXBean();
        double[][] cpu = new double[n][rounds];
        for (int r = 0; r < rounds; r++) {
            StringBuilder line = new StringBuilder("round " + r + ":");
            for (int i = 0; i < n; i++) {
                Object s = parse[i].invoke(null, texts[i]);
                long c0 = th.getCurrentThreadCpuTime(), w0 = System.nanoTime();
                run[i].invoke(null, s, none[i]);
                cpu[i][r] = (th.getCurrentThreadCpuTime() - c0) / 1e9;
                line.append(String.format(" %s cpu %.3f s wall %.3f s;", a[2 + i], cpu[i][r], (System.nanoTime() - w0) / 1e9));
            }
            System.out.println(line);
        }
        for (int i = 0; i < n; i++) {
            double[] x = Arrays.copyOfRange(cpu[i], Math.min(1, rounds - 1), rounds);
            Arrays.sort(x);
            System.out.printf("%s median cpu (rounds 2..) %.3f s%n", a[2 + i], x[x.length / 2]);
        }
        if (n >= 2) {
            double[] ratio = new double[rounds - 1];
            for (int r = 1; r < rounds; r++) ratio[r - 1] = cpu[0][r] / cpu[1][r];
            Arrays.sort(ratio);
            System.out.printf("median paired ratio %s/%s = %.3f%n", a[2], a[3], ratio[ratio.length / 2]);
        }
    }
}
