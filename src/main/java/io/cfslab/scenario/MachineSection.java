package io.cfslab.scenario;

import static io.cfslab.scenario.ParseContext.type;

import io.cfslab.machine.MachineProfiles;
import io.cfslab.machine.Topology;
import tools.jackson.databind.JsonNode;

/** The scenario's {@code machine} section: profile and topology ({@link MachineSpec}). */
final class MachineSection {
    private MachineSection() {}

    /**
     * @param spec        the machine (defaults where a value was refused)
     * @param checkedCpus its CPU count, or -1 if the machine is invalid: CPU lists are then checked only for syntax
     */
    record Parsed(MachineSpec spec, int checkedCpus) { }

    static Parsed parse(CheckedObject top, ParseContext c) {
        MachineSpec dflt = new MachineSpec("generic", 2, 1, 1);
        JsonNode n = top.get("machine");
        if (n == null) return new Parsed(dflt, 2);
        CheckedObject o = c.obj(n, "/machine");
        if (o == null) return new Parsed(dflt, -1);
        String profile = c.string(o, "profile", "generic");
        if (profile != null && !ScenarioParser.PROFILES.contains(profile)) {
            c.add(o.at("profile"), "unknown profile " + ParseContext.echoed(profile) + "; implemented: "
                    + String.join(", ", ScenarioParser.PROFILES), null);
            profile = null;
        }
        if (profile != null && !MachineProfiles.GENERIC.equals(profile)) return named(o, c, profile);
        boolean ok = true;
        JsonNode cn = o.get("cpus");
        long cpus = 2;
        if (cn != null) {
            if (!cn.isIntegralNumber()) {
                c.add(o.at("cpus"), "must be an integer, not " + type(cn), "EINVAL"); // as every integer (Integers)
                ok = false;
            } else if (!cn.canConvertToLong() || cn.longValue() < 1 || cn.longValue() > Limits.MAX_CPUS) {
                c.add(o.at("cpus"), cn.canConvertToLong() && cn.longValue() < 1 ? "cpus " + cn + " is below 1"
                        : "cpus " + cn + " exceeds the limit of " + Limits.MAX_CPUS, Integers.RANGE);
                ok = false;
            } else {
                cpus = cn.longValue();
            }
        }
        long smt = 1;
        JsonNode sn = o.get("smt");
        if (sn != null) {
            smt = c.integer(sn, o.at("smt"), -1, 1, 8);
            if (smt != 1 && smt != 2 && smt != 4 && smt != 8) {
                if (smt != -1) c.add(o.at("smt"), "smt must be 1, 2, 4 or 8, not " + smt, null);
                ok = false;
                smt = 1;
            }
        }
        long sockets = c.integer(o, "sockets", 1, 1, Limits.MAX_CPUS);
        if (ok && cpus % (smt * sockets) != 0) {
            c.add(o.at("cpus"), "cpus " + cpus + " is not a multiple of smt " + smt + " x sockets " + sockets, null);
        }
        boolean exactTime = c.bool(o, "exact_time", false);
        o.finish(c);
        return new Parsed(new MachineSpec(profile == null ? "generic" : profile, (int) cpus, (int) smt, (int) sockets,
                exactTime),
                ok ? (int) cpus : -1);
    }

    /**
     * A named real machine fixes its topology: {@code cpus}, {@code smt} and {@code sockets} are refused beside it
     * (contract v1.1), each with its own problem, rather than silently overridden.
     */
    private static Parsed named(CheckedObject o, ParseContext c, String profile) {
        Topology t = MachineProfiles.named(profile).topology();
        for (String key : new String[] {"cpus", "smt", "sockets"}) {
            if (o.get(key) != null) {
                c.add(o.at(key), key + " cannot be set with the named profile \"" + profile + "\", which has "
                        + t.cpus() + " CPUs (" + t.sockets() + " socket" + (t.sockets() > 1 ? "s" : "") + ", SMT"
                        + t.smt() + "); use profile \"generic\" to choose a topology", null);
            }
        }
        o.finish(c);
        return new Parsed(new MachineSpec(profile, t.cpus(), t.smt(), t.sockets()), t.cpus());
    }
}
