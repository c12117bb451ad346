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

    /**
     * No answer of the service can carry a library's own words (a Jackson, SnakeYAML, Spring, Netty or JDK exception's
     * message names Java classes, reader switches and internals): outside the command line, which prints to its own
     * user, nothing reads the message of an exception that is not the project's own, except {@code SyntaxWords}, which
     * only inspects a reader's message to choose a sentence of its own (logs may print an exception's
     * {@code toString()}: they are the operator's, not an answer). So a problem's {@code detail}, a run's {@code error} and a page are written in the project's words by
     * construction ({@code ProblemWordsTest} feeds malformed requests and checks the answers).
     */
    @Test
    void noLibraryExceptionMessageReachesAnAnswer() {
        com.tngtech.archunit.base.DescribedPredicate<com.tngtech.archunit.core.domain.JavaMethodCall> readsForeignMessage =
                new com.tngtech.archunit.base.DescribedPredicate<>("read the message of an exception not of io.cfslab") {
                    @Override
                    public boolean test(com.tngtech.archunit.core.domain.JavaMethodCall call) {
                        var target = call.getTarget();
                        String name = target.getName();
                        boolean message = java.util.Set.of("getMessage", "getLocalizedMessage", "getOriginalMessage",
                                "getReason", "getMostSpecificCause", "getRootCause", "getProblem", "getContext",
                                "getBody", "getDetailMessageCode").contains(name);
                        return message && target.getOwner().isAssignableTo(Throwable.class)
                                && !target.getOwner().getPackageName().startsWith("io.cfslab");
                    }
                };
        noClasses().that().resideInAPackage("io.cfslab..")
                .and().resideOutsideOfPackage("io.cfslab.cli..")
                .and().doNotHaveFullyQualifiedName(io.cfslab.scenario.SyntaxWords.class.getName())
                .should().callMethodWhere(readsForeignMessage)
                .check(CLASSES);
    }
}
