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
 * {@code kernel.throttled_lb}), where the simulated work differs but the code does not. With {@code --equivalence} it
 * compares two builds' results on random scenarios instead (the class {@code RandomEquivalence} below).
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
import java.util.Random;

public class SameJvm {
    /** A class loader for one unpacked build (its BOOT-INF classes and libraries), apart from every other build's. */
    static ClassLoader loader(String dir) throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(new File(dir, "BOOT-INF/classes").toURI().toURL());
        File[] libs = new File(dir, "BOOT-INF/lib").listFiles();
        Arrays.sort(libs);
        for (File f : libs) urls.add(f.toURI().toURL());
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    public static void main(String[] a) throws Exception {
        if (a.length > 0 && a[0].equals("--equivalence")) {
            RandomEquivalence.main(Arrays.copyOfRange(a, 1, a.length));
            return;
        }
        String[] texts = new String[a.length];
        int rounds = Integer.parseInt(a[1]);
        int n = a.length - 2;
        Method[] parse = new Method[n], run = new Method[n];
        Object[] none = new Object[n];
        for (int i = 0; i < n; i++) {
            String[] build = a[2 + i].split("=", 2); // dir, or dir=scenario
            texts[i] = Files.readString(Path.of(build.length > 1 ? build[1] : a[0]));
            ClassLoader cl = loader(build[0]);
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

/*
 * --equivalence N SEED BUILD BUILD: random-scenario equivalence of two builds (docs/benchmarks.md, "What changed" and
 * "Eighth session"). An optimisation must leave every result as it was, and the golden files cover only the
 * ready-made and reference scenarios. This generates N random small scenarios from SEED (2-16 CPUs, SMT, nested
 * quotas, every throttle model, unthrottle mode, clock start, list insertion, DELAY_DEQUEUE, kernel versions, hog,
 * periodic and fixed-work tasks, affinity, timeline writes, moves, taskset, chrt, kill), runs each in both builds
 * and compares the result JSON with its "engine" member emptied, byte for byte:
 *
 *   java -Xmx2g src/test/tools/SameJvm.java --equivalence 500 1 base head
 *
 * Prints one line per scenario that differs (the scenario written to /tmp/equivalence-N.json) and a summary;
 * scenarios both builds refuse are counted and skipped. Exit 1 if any differ.
 */
class RandomEquivalence {
    static final class Build {
        final Method parse, run, write;
        final Object none;

        Build(String dir) throws Exception {
            ClassLoader cl = SameJvm.loader(dir);
            Class<?> scen = cl.loadClass("io.cfslab.scenario.Scenario");
            Class<?> rc = cl.loadClass("io.cfslab.sim.RunControl");
            parse = cl.loadClass("io.cfslab.scenario.ScenarioParser").getMethod("parse", String.class);
            run = cl.loadClass("io.cfslab.sim.Simulator").getMethod("run", scen, rc);
            write = cl.loadClass("io.cfslab.metrics.ResultJson").getMethod("write",
                    cl.loadClass("io.cfslab.metrics.SimulationResult"));
            none = rc.getField("NONE").get(null);
        }

        /** The result JSON without "engine" (the last member), or null if the scenario is refused. */
        String result(String text) throws Exception {
            Object s;
            try {
                s = parse.invoke(null, text);
            } catch (java.lang.reflect.InvocationTargetException e) {
                if (System.getenv("EQ_VERBOSE") != null) System.out.println("refused: " + e.getCause().getMessage());
                return null;
            }
            String json = (String) write.invoke(null, run.invoke(null, s, none));
            return json.replaceFirst("\"engine\"\\s*:\\s*\\{[^}]*\\}", "\"engine\": {}");
        }
    }

    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        long seed = Long.parseLong(a[1]);
        Build x = new Build(a[2]), y = new Build(a[3]);
        int same = 0, refused = 0, differ = 0;
        for (int i = 0; i < n; i++) {
            String text = scenario(new Random(seed * 1_000_003L + i));
            String rx = x.result(text), ry = y.result(text);
            if (rx == null || ry == null) {
                if ((rx == null) != (ry == null)) {
                    differ++;
                    System.out.println("scenario " + i + ": refused by one build only");
                } else {
                    refused++;
                }
                continue;
            }
            if (rx.equals(ry)) {
                same++;
            } else {
                differ++;
                Path p = Path.of("/tmp/equivalence-" + i + ".json");
                Files.writeString(p, text);
                int d = 0;
                while (d < Math.min(rx.length(), ry.length()) && rx.charAt(d) == ry.charAt(d)) d++;
                System.out.println("scenario " + i + " differs at char " + d + ": ..."
                        + rx.substring(Math.max(0, d - 80), Math.min(rx.length(), d + 40)) + " (" + p + ")");
            }
        }
        System.out.printf("%d identical, %d differ, %d refused by both (of %d)%n", same, differ, refused, n);
        System.exit(differ == 0 ? 0 : 1);
    }

    static String pick(Random r, String... options) { return options[r.nextInt(options.length)]; }

    static String scenario(Random r) {
        int cpus = 2 + r.nextInt(15);
        StringBuilder s = new StringBuilder("{\"name\":\"random\",\"seed\":").append(r.nextInt(1000))
                .append(",\"duration\":\"").append(1 + r.nextInt(3)).append("s\",");
        s.append("\"machine\":{\"profile\":\"generic\",\"cpus\":").append(cpus);
        if (cpus % 2 == 0 && r.nextBoolean()) s.append(",\"smt\":2");
        s.append("},\"kernel\":{");
        List<String> k = new ArrayList<>();
        if (r.nextInt(3) == 0) k.add("\"version\":\"" + pick(r, "4.14", "4.18", "4.19", "5.4", "5.10", "5.15", "6.1",
                "6.6", "6.8", "6.12", "6.18", "tip-2026") + "\"");
        String throttle = pick(r, "task", "task", "task-account", "cfs_rq");
        if (k.isEmpty() || r.nextBoolean()) k.add("\"throttle\":\"" + throttle + "\"");
        else throttle = null;
        if (r.nextBoolean()) k.add("\"unthrottle\":\"" + pick(r, "sync", "async") + "\"");
        k.add("\"hz\":" + pick(r, "100", "250", "1000"));
        if (r.nextBoolean()) k.add("\"bandwidth_slice_us\":" + pick(r, "1000", "5000", "20000"));
        if (r.nextInt(3) == 0) k.add("\"timer_placement\":\"" + pick(r, "random", "aligned", "interleave", "spread") + "\"");
        if (r.nextInt(3) == 0) k.add("\"throttled_list_insert\":\"" + pick(r, "tail", "head") + "\"");
        if ("task".equals(throttle) || "task-account".equals(throttle)) {
            if (r.nextInt(3) == 0) k.add("\"throttled_clock_start\":\"" + pick(r, "throttle", "nonempty", "first-park") + "\"");
            if (r.nextInt(3) == 0) k.add("\"delay_dequeue\":" + r.nextBoolean());
        }
        s.append(String.join(",", k)).append("},");
        // a random tree of up to 3 levels under the root, some groups limited
        List<String> groups = new ArrayList<>();
        List<String> cg = new ArrayList<>();
        int top = 1 + r.nextInt(3);
        for (int i = 1; i <= top; i++) {
            String p = "/g" + i;
            groups.add(p);
            int kids = r.nextInt(4);
            for (int j = 1; j <= kids; j++) {
                String q = p + "/c" + j;
                groups.add(q);
                if (r.nextInt(3) == 0) groups.add(q + "/l1");
            }
        }
        for (String g : groups) {
            String e = "{\"path\":\"" + g + "\"";
            if (r.nextInt(5) < 2) e += ",\"cpu.max\":\"" + (1000 + r.nextInt(200) * 1000) + " " + pick(r, "10000", "50000", "100000") + "\"";
            cg.add(e + "}");
        }
        s.append("\"cgroups\":[").append(String.join(",", cg)).append("],");
        List<String> leaves = new ArrayList<>(); // tasks go in leaves (EBUSY otherwise)
        for (String g : groups) if (groups.stream().noneMatch(o -> o.startsWith(g + "/"))) leaves.add(g);
        List<String> tasks = new ArrayList<>();
        int nt = 1 + r.nextInt(6);
        for (int i = 0; i < nt; i++) {
            String g = leaves.get(r.nextInt(leaves.size()));
            String w = switch (r.nextInt(4)) {
                case 0, 1 -> "{\"kind\":\"hog\"}";
                case 2 -> "{\"kind\":\"periodic\",\"run\":\"" + (1 + r.nextInt(20)) + "ms\",\"sleep\":\"" + (1 + r.nextInt(30))
                        + "ms\"" + (r.nextBoolean() ? ",\"kernel\":\"0.2ms\"" : "") + "}";
                default -> "{\"kind\":\"fixed-work\",\"work\":\"" + (100 + r.nextInt(900)) + "ms\"}";
            };
            String t = "{\"name\":\"t" + i + "\",\"cgroup\":\"" + g + "\",\"count\":" + (1 + r.nextInt(8)) + ",\"workload\":" + w;
            if (r.nextInt(4) == 0) t += ",\"cpus_allowed\":\"0-" + (r.nextInt(cpus)) + "\"";
            tasks.add(t + "}");
        }
        s.append("\"tasks\":[").append(String.join(",", tasks)).append("],");
        List<String> tl = new ArrayList<>();
        int actions = r.nextInt(5);
        for (int i = 0; i < actions; i++) {
            String at = "\"at\":\"" + (100 + r.nextInt(900)) + "ms\"";
            String task = "t" + r.nextInt(nt);
            String g = groups.get(r.nextInt(groups.size())), leaf = leaves.get(r.nextInt(leaves.size()));
            tl.add(switch (r.nextInt(5)) {
                case 0 -> "{" + at + ",\"write\":\"" + g + "/cpu.max\",\"value\":\"" + (r.nextBoolean() ? "max" : String.valueOf(1000 + r.nextInt(100) * 1000)) + " 100000\"}";
                case 1 -> "{" + at + ",\"move\":\"" + task + "\",\"to\":\"" + leaf + "\"}";
                case 2 -> "{" + at + ",\"taskset\":\"" + task + "\",\"cpus\":\"" + r.nextInt(cpus) + "\"}";
                case 3 -> "{" + at + ",\"chrt\":\"" + task + "\",\"policy\":"
                        + pick(r, "\"rr\",\"priority\":10", "\"fifo\",\"priority\":20", "\"normal\"") + "}";
                default -> "{" + at + ",\"kill\":\"" + task + "\"}";
            });
        }
        tl.sort((p, q) -> Integer.compare(Integer.parseInt(p.replaceAll(".*?\"at\":\"(\\d+)ms.*", "$1")),
                Integer.parseInt(q.replaceAll(".*?\"at\":\"(\\d+)ms.*", "$1"))));
        s.append("\"timeline\":[").append(String.join(",", tl)).append("],");
        s.append("\"record\":{\"interval\":\"").append(pick(r, "100ms", "500ms", "1s")).append("\"}}");
        return s.toString();
    }
}
