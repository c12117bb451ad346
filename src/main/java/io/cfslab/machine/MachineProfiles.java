package io.cfslab.machine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The machine profiles by name (contract v1.1 {@code machine.profile}). */
public final class MachineProfiles {
    public static final String GENERIC = "generic";

    /** The named real machines, which fix their own topology. */
    public static final List<String> NAMED;
    /** Every profile name, {@code generic} first. */
    public static final List<String> ALL;

    static {
        List<String> named = new ArrayList<>(List.of(IntelEmr2s.NAME, AmdGenoa2s.NAME));
        for (int c : Power10Smt8.CORES) named.add(Power10Smt8.name(c));
        NAMED = Collections.unmodifiableList(named);
        List<String> all = new ArrayList<>();
        all.add(GENERIC);
        all.addAll(named);
        ALL = Collections.unmodifiableList(all);
    }

    private MachineProfiles() {}

    /**
     * A named profile.
     *
     * @throws IllegalArgumentException for {@code generic} (it needs a topology) or an unknown name
     */
    public static MachineProfile named(String name) {
        if (IntelEmr2s.NAME.equals(name)) return IntelEmr2s.profile();
        if (AmdGenoa2s.NAME.equals(name)) return AmdGenoa2s.profile();
        for (int c : Power10Smt8.CORES) if (Power10Smt8.name(c).equals(name)) return Power10Smt8.profile(c);
        throw new IllegalArgumentException("unknown machine profile \"" + name + "\"");
    }

    /** The profile a scenario names: {@code generic} with the given topology, or a named machine (which ignores it). */
    public static MachineProfile of(String name, int cpus, int smt, int sockets) {
        return GENERIC.equals(name) ? MachineProfile.generic(cpus, smt, sockets) : named(name);
    }
}
