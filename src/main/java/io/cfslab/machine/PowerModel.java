package io.cfslab.machine;

/**
 * A machine's power draw, linear in what is busy: {@code idleW} for the machine with every CPU idle (uncore,
 * memory, fans as the seeds' wall or BMC meters see them), plus {@code coreActiveW} for each core with at least
 * one busy thread (the core leaves its idle state: clocks, private caches), plus {@code threadBusyW} for each busy
 * hardware thread. Mean power over a run is this applied to the run's mean counts; energy is mean power × the
 * simulated time. Sources per profile in docs/cost-model.md ("Power").
 *
 * @param idleW       W with all CPUs idle
 * @param coreActiveW W per core with one or more busy threads
 * @param threadBusyW W per busy hardware thread
 */
public record PowerModel(double idleW, double coreActiveW, double threadBusyW) {
    public PowerModel {
        if (!(idleW >= 0 && coreActiveW >= 0 && threadBusyW >= 0))
            throw new IllegalArgumentException("power constants must be >= 0: " + this);
    }

    /**
     * Mean power, W.
     *
     * @param activeCores mean number of cores with a busy thread
     * @param busyThreads mean number of busy hardware threads
     */
    public double meanPowerW(double activeCores, double busyThreads) {
        return idleW + coreActiveW * activeCores + threadBusyW * busyThreads;
    }
}
