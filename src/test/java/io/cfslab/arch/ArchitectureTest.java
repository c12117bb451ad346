package io.cfslab.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The simulation core (event, sim, kernel, machine, workload), the contract types it speaks (scenario, metrics) and
 * the experiments (experiment) import nothing from Spring, Reactor, Jakarta or Micrometer: the simulator and an
 * experiment run the same on the command line, in a benchmark and behind the service. The layers depend downwards
 * only (docs/architecture.md).
 */
class ArchitectureTest {

    static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.cfslab");

    @Test
    void simulationCoreHasNoFrameworkImports() {
        noClasses().that().resideInAnyPackage("io.cfslab.event..", "io.cfslab.sim..", "io.cfslab.kernel..",
                        "io.cfslab.machine..", "io.cfslab.workload..", "io.cfslab.scenario..", "io.cfslab.metrics..",
                        "io.cfslab.experiment..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "reactor..", "jakarta..",
                        "io.micrometer..")
                .check(CLASSES);
    }

    /** The kernel model sits below the run driver and the service. */
    @Test
    void kernelModelDoesNotReachUpIntoTheLayersAboveIt() {
        noClasses().that().resideInAnyPackage("io.cfslab.kernel..", "io.cfslab.machine..", "io.cfslab.workload..")
                .should().dependOnClassesThat().resideInAnyPackage("io.cfslab.cli..",
                        "io.cfslab.api..", "io.cfslab.runs..", "io.cfslab.store..", "io.cfslab.web..")
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

    /** sim drives the kernel; the kernel knows nothing of sim (it schedules its events on event.EventQueue). */
    @Test
    void kernelModelDoesNotDependOnTheRunDriver() {
        noClasses().that().resideInAnyPackage("io.cfslab.kernel..", "io.cfslab.machine..", "io.cfslab.workload..")
                .should().dependOnClassesThat().resideInAPackage("io.cfslab.sim..")
                .check(CLASSES);
    }

    /** The event queue is the bottom layer: it depends on no other cfslab package. */
    @Test
    void eventQueueDependsOnNothingAboveIt() {
        noClasses().that().resideInAPackage("io.cfslab.event..")
                .should().dependOnClassesThat(resideInAPackage("io.cfslab..")
                        .and(not(resideInAPackage("io.cfslab.event.."))))
                .check(CLASSES);
    }

    /** No two packages depend on each other, directly or through others. */
    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("io.cfslab.(*)..").should().beFreeOfCycles().check(CLASSES);
    }
}
