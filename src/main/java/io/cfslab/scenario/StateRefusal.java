package io.cfslab.scenario;

/**
 * A write the kernel refuses only because of the state at that moment, not because of the value itself: a burst
 * above the group's current quota (or a quota below its current burst), a cgroup v1 ratio above the parent's or
 * below a child's, RT bandwidth that the siblings or children already use. In {@code cgroups[]} such a refusal is
 * a problem of the scenario; in the timeline it is not: the run goes on, as a shell script does, and the result's
 * {@code actions} records the errno (contract v1.1, "Timeline").
 */
public final class StateRefusal extends InvalidValueException {
    /**
     * @param reason what is wrong, naming the state that refuses it
     * @param errno  the errno the kernel gives ({@code EINVAL}, {@code EBUSY})
     */
    public StateRefusal(String reason, String errno) { super(reason, errno); }
}
