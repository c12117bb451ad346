#!/usr/bin/env python3
"""Expected values for io.cfslab.experiment.StatisticsTest, computed without Commons Math (and without NumPy/SciPy,
which are not installable on the project's machines): Python's `statistics` module for the summaries, and a
hand-written Welch t-test whose p-value is computed twice, with the regularized incomplete beta function
(continued fraction, Numerical Recipes §6.4) and with Simpson integration of the t density; the two must agree.

    python3 src/test/resources/experiment/expected_statistics.py
"""
import math
import statistics as st

CASES = {
    # seed 04's kind of data: 5 runs of hackbench seconds, head slower and noisier
    "significant": ([207.33, 207.83, 208.10, 210.20, 207.99], [214.20, 218.33, 222.47, 215.36, 218.44]),
    # seed 00's kind: the same kernel twice, different run counts
    "noise": ([176.1, 174.3, 178.9, 177.2], [176.8, 179.1, 173.9, 177.5, 175.6]),
    # a counter that is 0 in one run: geometric and harmonic means are undefined
    "with_zero": ([0.0, 3.0, 5.0], [4.0, 6.0, 8.0]),
}


def welch(a, b):
    va, vb = st.variance(a) / len(a), st.variance(b) / len(b)
    t = (st.mean(b) - st.mean(a)) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    return t, df


def betacf(a, b, x):
    tiny, eps = 1e-300, 1e-16
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d; d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c; c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d; d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c; c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < eps:
            break
    return h


def betainc(a, b, x):
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(lbeta + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * betacf(a, b, x) / a
    return 1 - front * betacf(b, a, 1 - x) / b


def p_beta(t, df):
    return betainc(df / 2, 0.5, df / (df + t * t))


def p_simpson(t, df, steps=200000):
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    f = lambda x: c * (1 + x * x / df) ** (-(df + 1) / 2)
    h = abs(t) / steps
    s = f(0) + f(abs(t)) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, steps))
    return 1 - 2 * s * h / 3


for name, (a, b) in CASES.items():
    print(f"== {name}")
    for arm, xs in (("base", a), ("head", b)):
        pos = all(x > 0 for x in xs)
        g = st.geometric_mean(xs) if pos else None
        hm = st.harmonic_mean(xs) if pos else None
        sd = st.stdev(xs)
        print(f"{arm}: min={min(xs)!r} max={max(xs)!r} median={st.median(xs)!r} amean={st.mean(xs)!r} "
              f"gmean={g!r} hmean={hm!r} stddev={sd!r} coefvar_pct={100 * sd / abs(st.mean(xs))!r}")
    t, df = welch(a, b)
    p1, p2 = p_beta(t, df), p_simpson(t, df)
    assert abs(p1 - p2) < 1e-9, (p1, p2)
    diff = (st.mean(b) - st.mean(a)) / abs(st.mean(a)) * 100
    print(f"t={t!r} df={df!r} p_beta={p1!r} p_simpson={p2!r} diff_percent={diff!r}")
