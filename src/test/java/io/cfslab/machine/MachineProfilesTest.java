package io.cfslab.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The named machine profiles' topologies as the contract fixes them, and their SMT curves and power models. */
class MachineProfilesTest {

    @Test
    void topologiesAreTheContractsMachines() {
        Topology emr = MachineProfiles.named("intel-emr-2s").topology();
        assertThat(new int[] {emr.cpus(), emr.sockets(), emr.cores(), emr.smt(), emr.llcs()})
                .containsExactly(240, 2, 120, 2, 2);
        Topology genoa = MachineProfiles.named("amd-genoa-2s").topology();
        assertThat(new int[] {genoa.cpus(), genoa.sockets(), genoa.cores(), genoa.smt(), genoa.llcs()})
                .containsExactly(384, 2, 192, 2, 24);
        for (int cores : new int[] {1, 2, 4, 8}) {
            Topology p = MachineProfiles.named("power10-" + cores + "c-smt8").topology();
            assertThat(p.cpus()).isEqualTo(8 * cores);
            assertThat(p.cores()).isEqualTo(cores);
            assertThat(p.smt()).isEqualTo(8);
        }
    }

    @Test
    void siblingsAreNumberedAsLinuxNumbersThemOnEachArchitecture() {
        Topology genoa = MachineProfiles.named("amd-genoa-2s").topology();
        assertThat(genoa.coreOf(0)).isEqualTo(genoa.coreOf(192));          // x86: thread siblings are cores apart
        assertThat(genoa.sibling(0, 0)).isEqualTo(192);
        assertThat(genoa.llcOf(7)).isEqualTo(genoa.llcOf(0));              // one CCD: 8 cores, one L3
        assertThat(genoa.llcOf(8)).isNotEqualTo(genoa.llcOf(0));
        Topology p10 = MachineProfiles.named("power10-2c-smt8").topology();
        assertThat(p10.coreOf(7)).isEqualTo(0);                            // POWER: cpu0-7 are core 0
        assertThat(p10.coreOf(8)).isEqualTo(1);
        assertThat(p10.siblingCount(3)).isEqualTo(7);
        for (int i = 0; i < 7; i++) assertThat(p10.coreOf(p10.sibling(3, i))).isZero();
    }

    @Test
    void power10ThreadsSlowDownAsTheirCoreFillsAndTheCoreStillGains() {
        MachineProfile p = MachineProfiles.named("power10-8c-smt8");
        for (int n = 2; n <= 8; n++) {
            assertThat(p.smtSpeed(n)).isLessThan(p.smtSpeed(n - 1));
            assertThat(p.smt().coreThroughput(n)).isGreaterThan(p.smt().coreThroughput(n - 1));
        }
        // seed 02: a thread with 8 busy siblings runs about 1.45x slower than with 4
        assertThat(p.smtSpeed(4) / p.smtSpeed(8)).isBetween(1.40, 1.50);
    }

    @Test
    void genericHasNoPowerModelAndNamedMachinesDo() {
        assertThat(MachineProfile.generic(4, 2, 1).power()).isNull();
        for (String name : MachineProfiles.NAMED) {
            PowerModel pm = MachineProfiles.named(name).power();
            assertThat(pm).as(name).isNotNull();
            assertThat(pm.meanPowerW(1, 2)).isGreaterThan(pm.meanPowerW(0, 0));
        }
    }

    @Test
    void anUnknownNameOrACurveThatRisesIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> MachineProfiles.named("cray-1"));
        assertThrows(IllegalArgumentException.class, () -> MachineProfiles.named("generic"));
        assertThrows(IllegalArgumentException.class, () -> new SmtCurve(1.0, 1.1));
        assertThrows(IllegalArgumentException.class, () -> new SmtCurve(1.0, 0.3)); // core slower than one thread
    }
}
