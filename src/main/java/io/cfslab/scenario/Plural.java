package io.cfslab.scenario;

/**
 * A count and its noun in agreement, for every message and page that states one: {@code 1 group}, {@code 2 groups},
 * {@code 1 CPU}, {@code 384 CPUs} (a newcomer read "1 groups"). The frontend's twin is {@code plural} in
 * frontend/src/format.ts.
 */
public final class Plural {
    private Plural() {}

    /** {@code n} and {@code one}, with an "s" unless {@code n} is 1 ({@code of(1, "run")} is "1 run"). */
    public static String of(long n, String one) {
        return of(n, one, one + "s");
    }

    /** {@code n} and {@code one} or {@code many} ({@code of(2, "arm", "arms")}). */
    public static String of(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }
}
