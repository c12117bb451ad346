package io.cfslab.scenario;

import static io.cfslab.scenario.ParseContext.type;

import tools.jackson.databind.JsonNode;

/** A task entry's {@code workload} object: one {@link WorkloadSpec} per {@code kind}. */
final class WorkloadSection {
    private WorkloadSection() {}

    /** Shortest stretch of a periodic workload: 1 us; below it a stretch is shorter than the context switch around it. */
    static final long MIN_STRETCH_NS = 1_000;

    /** The workload, or null with its problems added. */
    static WorkloadSpec parse(JsonNode n, String ptr, ParseContext c) {
        CheckedObject o = c.obj(n, ptr);
        if (o == null) return null;
        JsonNode kn = o.get("kind");
        WorkloadSpec w = null;
        if (kn == null) {
            c.add(o.at("kind"), "workload kind is required: hog, periodic or fixed-work", null);
        } else if (!kn.isString()) {
            c.add(o.at("kind"), "must be a string, not " + type(kn), null);
        } else {
            switch (kn.stringValue()) {
                case "hog" -> w = new WorkloadSpec.Hog();
                case "periodic" -> w = periodic(o, c);
                case "fixed-work" -> {
                    long work = c.requiredDuration(o, "work", true);
                    if (work > 0) w = new WorkloadSpec.FixedWork(work);
                }
                default -> c.add(o.at("kind"), "unknown workload kind \"" + kn.stringValue()
                        + "\"; one of hog, periodic, fixed-work", null);
            }
        }
        o.finish(c);
        return w;
    }

    private static WorkloadSpec periodic(CheckedObject o, ParseContext c) {
        long run = c.requiredDuration(o, "run", true);
        long sleep = c.requiredDuration(o, "sleep", false);
        JsonNode kk = o.get("kernel");
        long kernel = kk == null ? 0 : c.duration(kk, o.at("kernel"));
        long loops = c.integer(o, "loops", 0, 0, Long.MAX_VALUE);
        if (run > 0 && run < MIN_STRETCH_NS) c.add(o.at("run"), "run below 1us", null);
        else if (sleep > 0 && sleep < MIN_STRETCH_NS) c.add(o.at("sleep"), "sleep below 1us (0 for none)", null);
        else if (kernel > 0 && kernel < MIN_STRETCH_NS) c.add(o.at("kernel"), "kernel below 1us (0 for none)", null);
        else if (run > 0 && sleep >= 0 && kernel >= 0) return new WorkloadSpec.Periodic(run, kernel, sleep, loops);
        return null;
    }
}
