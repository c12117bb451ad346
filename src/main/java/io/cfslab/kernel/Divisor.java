package io.cfslab.kernel;

/**
 * Division of non-negative ints by a fixed divisor with a multiply and a shift (Granlund and Montgomery,
 * "Division by invariant integers using multiplication", PLDI 1994, theorem 4.2): exact for every
 * {@code 0 <= n < 2^31}. The kernel's index helpers ({@code group = q / cpus}) run at every level of every
 * enqueue, dequeue and pick; a hardware division by a value the JIT cannot see costs several multiplies.
 */
final class Divisor {
    private final int d;
    /** floor(2^(32+l) / d) + 1 with l = ceil(log2 d): below 2^33, so n × magic stays below 2^64 for n below 2^31. */
    private final long magic;
    private final int shift;

    /** @param d the divisor, at least 1 */
    Divisor(int d) {
        if (d < 1) throw new IllegalArgumentException("divisor " + d);
        this.d = d;
        int l = 32 - Integer.numberOfLeadingZeros(d - 1); // ceil(log2 d)
        this.shift = 32 + l;
        this.magic = Long.divideUnsigned(1L << shift, d) + 1; // 1L << 63 for l = 31 is read unsigned
    }

    /** {@code n / d} for {@code 0 <= n}. */
    int div(int n) { return (int) ((n * magic) >>> shift); }

    int divisor() { return d; }
}
