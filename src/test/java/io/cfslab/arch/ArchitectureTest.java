package io.cfslab.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The simulation core (sim, kernel, machine, workload), the contract types it speaks (scenario, metrics) and the
 * experiments (experiment) import nothing from Spring, Reactor, Jakarta or Micrometer: the simulator and an
 * experiment run the same on the command line, in a benchmark and behind the service.
 */
class ArchitectureTest {

    static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.cfslab");

    @Test
    void simulationCoreHasNoFrameworkImports() {
        noClasses().that().resideInAnyPackage("io.cfslab.sim..", "io.cfslab.kernel..", "io.cfslab.machine..",
                        "io.cfslab.workload..", "io.cfslab.scenario..", "io.cfslab.metrics..", "io.cfslab.experiment..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "reactor..", "jakarta..",
                        "io.micrometer..")
                .check(CLASSES);
    }

    /** The kernel model sits on the event engine (sim.EventQueue) and below the run driver and the service. */
    @Test
    void kernelModelDoesNotReachUpIntoTheLayersAboveIt() {
        noClasses().that().resideInAnyPackage("io.cfslab.kernel..", "io.cfslab.machine..", "io.cfslab.workload..")
                .should().dependOnClassesThat().resideInAnyPackage("io.cfslab.cli..",
                        "io.cfslab.api..", "io.cfslab.runs..", "io.cfslab.store..", "io.cfslab.web..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("io.cfslab.sim.Simulation")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("io.cfslab.sim.Simulator")
                .check(CLASSES);
    }

    /** Experiments sit on the simulator and the contract types, below the service layers. */
    @Test
    void experimentsDoNotReachUpIntoTheService() {
        noClasses().that().resideInAPackage("io.cfslab.experiment..")
                .should().dependOnClassesThat().resideInAnyPackage("io.cfslab.cli..", "io.cfslab.api..",
                        "io.cfslab.runs..", "io.cfslab.store..", "io.cfslab.web..")
                .check(CLASSES);
    }
}
