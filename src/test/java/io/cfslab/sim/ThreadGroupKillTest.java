package io.cfslab.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.metrics.SimulationResult;
import io.cfslab.scenario.ScenarioParser;
import org.junit.jupiter.api.Test;

/**
 * {@code kill} of one thread of a multi-threaded program (a go-sleep-loop's Ms) ends the whole program, as SIGKILL
 * ends a thread group; the other instance of the entry, another process, lives on. Processes of their own (hogs)
 * still die one by one. A breaker's finding: only the named thread exited and the rest of the Go program ran on.
 */
class ThreadGroupKillTest {
    private static SimulationResult run(String kill) {
        return Simulator.run(ScenarioParser.parse("""
                { "name": "kill", "seed": 1, "duration": "1s", "machine": { "cpus": 4 },
                  "cgroups": [ { "path": "/a", "cpu.max": "50000 100000" } ],
                  "tasks": [
                    { "name": "go", "cgroup": "/a", "count": 2,
                      "workload": { "kind": "go-sleep-loop", "run": "5ms", "sleep": "20ms", "threads": 3 } },
                    { "name": "hog", "cgroup": "/a", "count": 2, "workload": { "kind": "hog" } } ],
                  "timeline": [ { "at": "100ms", "kill": "%s" } ] }
                """.formatted(kill)), new RunControl() { });
    }

    @Test
    void killingOneThreadEndsItsProcessOnly() {
        SimulationResult r = run("go/1");
        assertThat(r.actions().get(0).ok()).isTrue();
        for (String t : new String[] {"go/0", "go/1", "go/2"}) {
            assertThat(r.tasks().get(t).exitS()).as(t).isNotNull().isBetween(0.1, 0.11);
        }
        for (String t : new String[] {"go/3", "go/4", "go/5", "hog/0", "hog/1"}) {
            assertThat(r.tasks().get(t).exitS()).as(t).isNull();
        }
    }

    @Test
    void aProcessOfItsOwnDiesAlone() {
        SimulationResult r = run("hog/1");
        assertThat(r.tasks().get("hog/1").exitS()).isNotNull();
        assertThat(r.tasks().get("hog/0").exitS()).isNull();
        assertThat(r.tasks().get("go/0").exitS()).isNull();
    }
}
