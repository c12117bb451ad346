package io.cfslab.scenario;

/**
 * A value that a cgroupfs file, a syscall or the scenario format would refuse. Thrown by the
 * helpers {@link Durations}, {@link CgroupFiles} and {@link CpuLists}; {@link ScenarioParser} turns
 * it into a {@link Problem} at the JSON pointer of the value.
 */
public class InvalidValueException extends RuntimeException {
    /** What is wrong. */
    private final String reason;
    /** errno name, or null. */
    private final String errno;

    /**
     * @param reason what is wrong, in kernel-developer words (no path prefix)
     * @param errno  the errno the kernel would return ({@code EINVAL}, {@code ERANGE}, {@code ENOENT}),
     *               or null where no kernel interface corresponds
     */
    public InvalidValueException(String reason, String errno) {
        super(errno == null ? reason : reason + " (" + errno + ")");
        this.reason = reason;
        this.errno = errno;
    }

    /** @return what is wrong, without the errno */
    public String reason() { return reason; }

    /** @return errno name such as {@code EINVAL}, or null */
    public String errno() { return errno; }

    /**
     * @param path JSON pointer of the offending value
     * @return the problem at that pointer
     */
    public Problem toProblem(String path) { return new Problem(path, reason, errno); }
}
