package io.cfslab.runs;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Linux nice value of the calling thread. Simulation threads run at a lower priority ({@code cfslab.runs.nice})
 * so that the web server's event loop and the JDBC pool, at the default nice 0, get a core at once when a request
 * comes, while the simulations take every cycle the requests leave (issue 13: with the pool on every core, the API's
 * p99 was 1.7–2.3 s at 200 requests/s).
 *
 * <p>Linux keeps the nice value per thread: {@code setpriority(PRIO_PROCESS, 0, n)} called from a thread changes that
 * thread only (setpriority(2), "BUGS": the per-process value of POSIX is a per-thread attribute under NPTL). Java has
 * no API for it, so the call goes through JNA to the C library. Raising the value needs no privilege; lowering it
 * again does ({@code CAP_SYS_NICE} or {@code RLIMIT_NICE}), so a thread that was lowered stays lowered: only threads
 * that do nothing but simulate are lowered. Elsewhere (another OS, no JNA native library) it does nothing and says
 * so once in the log.
 *
 * <p>With {@code kernel.sched_autogroup_enabled=1} (most desktop distributions) the kernel first shares the CPUs
 * between sessions and only then between the threads of one session by nice value: the simulations then yield to
 * this service's own request threads, not to other sessions' processes.
 */
public final class ThreadNice {
    private static final Logger log = LoggerFactory.getLogger(ThreadNice.class);
    /** {@code PRIO_PROCESS} of {@code <sys/resource.h>}. */
    private static final int PRIO_PROCESS = 0;
    private static final ThreadLocal<Integer> applied = new ThreadLocal<>();
    private static volatile boolean warned;

    private ThreadNice() {}

    /** The C library's {@code setpriority(2)}. */
    interface CLibrary extends Library {
        int setpriority(int which, int who, int prio) throws LastErrorException;
    }

    private static final class Holder {
        static final CLibrary C = load();

        private static CLibrary load() {
            if (!Platform.isLinux()) return null;
            try {
                return Native.load("c", CLibrary.class);
            } catch (LinkageError | RuntimeException e) {
                log.warn("simulation threads keep their priority: the C library cannot be called through JNA ({})",
                        e.toString());
                warned = true;
                return null;
            }
        }
    }

    /**
     * Sets the calling thread's nice value to {@code nice} (once per thread: later calls with the same value do
     * nothing).
     *
     * @param nice 1..19 (higher = lower priority); 0 or less leaves the thread as it is
     * @return true if the thread now runs at {@code nice}
     */
    public static boolean lowerCurrentThread(int nice) {
        if (nice <= 0) return false;
        int n = Math.min(19, nice);
        Integer done = applied.get();
        if (done != null && done == n) return true;
        CLibrary c = Holder.C;
        if (c == null) return false;
        try {
            c.setpriority(PRIO_PROCESS, 0, n);
            applied.set(n);
            return true;
        } catch (LastErrorException e) {
            if (!warned) {
                warned = true;
                log.warn("simulation threads keep their priority: setpriority(PRIO_PROCESS, 0, {}) failed: errno {}", n,
                        e.getErrorCode());
            }
            return false;
        }
    }

    /**
     * The nice value of thread {@code tid} of this process, from {@code /proc/self/task/<tid>/stat} (field 19), or
     * of the calling thread for {@code tid} &le; 0 ({@code /proc/thread-self/stat}).
     *
     * @return the nice value, or null where there is no such file (not Linux, thread gone)
     */
    public static Integer niceOf(long tid) {
        Path stat = tid <= 0 ? Path.of("/proc/thread-self/stat") : Path.of("/proc/self/task/" + tid + "/stat");
        try {
            String s = Files.readString(stat);
            // "tid (comm) state ppid ...": comm may hold spaces and parentheses; fields count from after its ')'
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(f[19 - 3]);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
