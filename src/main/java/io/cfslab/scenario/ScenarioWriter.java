package io.cfslab.scenario;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes a {@link Scenario} as canonical contract v1 JSON: every default explicit, {@code generate}
 * and {@code leaves:} already expanded into {@code cgroups} and per-task cgroup paths, durations in
 * their exact largest unit. A task entry placed in several cgroups uses the extension key
 * {@code "cgroups": [...]} instead of {@code "cgroup"}. {@code ScenarioParser.parse(toJson(s))}
 * equals {@code s}.
 */
public final class ScenarioWriter {
    private ScenarioWriter() {}

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /**
     * @param s a scenario returned by {@link ScenarioParser#parse(String)}
     * @return pretty-printed canonical JSON
     */
    public static String toJson(Scenario s) {
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(toTree(s));
    }

    /**
     * @param s a scenario
     * @return the canonical JSON tree
     */
    public static ObjectNode toTree(Scenario s) {
        ObjectNode o = JSON.createObjectNode();
        o.put("name", s.name());
        o.put("seed", s.seed());
        o.put("duration", Durations.format(s.durationNs()));
        MachineSpec m = s.machine();
        ObjectNode mo = o.putObject("machine");
        mo.put("profile", m.profile());
        if (io.cfslab.machine.MachineProfiles.GENERIC.equals(m.profile())) { // a named machine fixes its topology
            mo.put("cpus", m.cpus());
            mo.put("smt", m.smt());
            mo.put("sockets", m.sockets());
        }
        if (m.exactTime()) mo.put("exact_time", true);
        KernelSpec k = s.kernel();
        ObjectNode ko = o.putObject("kernel");
        // every switch explicitly (explicit keys override the version), the cgroup version follows from the files
        k.switches().forEach((key, v) -> {
            if (!key.equals("cgroup_version")) ko.set(key, JSON.valueToTree(v));
        });
        CgroupFiles.Rules rules = CgroupFiles.Rules.of(k);
        java.util.List<String> files = CgroupFiles.files(rules);
        ArrayNode cg = o.putArray("cgroups");
        for (CgroupSpec c : s.cgroups()) {
            ObjectNode co = cg.addObject();
            co.put("path", c.path());
            if (k.cgroupVersion() == 1) {
                // separate writes: the period first, so that the quota is checked against the final period
                co.put(CgroupFiles.CFS_PERIOD_US, c.cpuMax().periodUs());
                co.put(CgroupFiles.CFS_QUOTA_US, c.cpuMax().limited() ? c.cpuMax().quotaUs() : -1);
                if (files.contains(CgroupFiles.CFS_BURST_US)) co.put(CgroupFiles.CFS_BURST_US, c.cpuMaxBurstUs());
                co.put(CgroupFiles.SHARES, c.cpuShares());
                if (files.contains(CgroupFiles.RT_PERIOD_US)) {
                    co.put(CgroupFiles.RT_PERIOD_US, c.rtPeriodUs());
                    co.put(CgroupFiles.RT_RUNTIME_US, c.rtRuntimeUs());
                }
            } else {
                co.put(CgroupFiles.CPU_MAX, c.cpuMax().toString());
                if (files.contains(CgroupFiles.CPU_MAX_BURST)) co.put(CgroupFiles.CPU_MAX_BURST, c.cpuMaxBurstUs());
                co.put(CgroupFiles.CPU_WEIGHT, c.cpuWeight());
            }
        }
        ArrayNode ts = o.putArray("tasks");
        for (TaskSpec t : s.tasks()) {
            ObjectNode to = ts.addObject();
            to.put("name", t.name());
            if (t.cgroups().size() == 1) {
                to.put("cgroup", t.cgroups().get(0));
            } else {
                ArrayNode a = to.putArray("cgroups");
                t.cgroups().forEach(a::add);
            }
            to.put("count", t.countPerCgroup());
            ObjectNode wo = to.putObject("workload");
            WorkloadSpec w = t.workload();
            wo.put("kind", w.kind());
            if (w instanceof WorkloadSpec.Periodic p) {
                wo.put("run", Durations.format(p.runNs()));
                wo.put("sleep", Durations.format(p.sleepNs()));
                wo.put("kernel", Durations.format(p.kernelNs()));
                wo.put("loops", p.loops());
            } else if (w instanceof WorkloadSpec.FixedWork f) {
                wo.put("work", Durations.format(f.workNs()));
            } else if (w instanceof WorkloadSpec.Hackbench h) {
                wo.put("mode", ScenarioParser.jsonName(h.mode()));
                wo.put("groups", h.groups());
                wo.put("fds", h.fds());
                wo.put("loops", h.loops());
                wo.put("datasize", h.datasize());
            } else if (w instanceof WorkloadSpec.GoSleepLoop g) {
                wo.put("run", Durations.format(g.runNs()));
                wo.put("sleep", Durations.format(g.sleepNs()));
                wo.put("threads", g.threads());
            } else if (w instanceof WorkloadSpec.NetperfUdpRr n) {
                wo.put("request_size", n.requestSize());
                wo.put("response_size", n.responseSize());
            }
            if (t.cpusAllowed() != null) to.put("cpus_allowed", CpuLists.format(t.cpusAllowed()));
            to.put("policy", ScenarioParser.jsonName(t.policy()));
            to.put("priority", t.rtPriority());
        }
        ArrayNode tl = o.putArray("timeline");
        for (TimelineAction a : s.timeline()) {
            ObjectNode ao = tl.addObject();
            ao.put("at", Durations.format(a.atNs()));
            if (a instanceof TimelineAction.Write w) {
                ao.put("write", (w.cgroup().equals("/") ? "" : w.cgroup()) + "/" + w.file());
                ao.put("value", w.value());
            } else if (a instanceof TimelineAction.Move mv) {
                ao.put("move", mv.task());
                ao.put("to", mv.to());
            } else if (a instanceof TimelineAction.Taskset ts2) {
                ao.put("taskset", ts2.task());
                ao.put("cpus", CpuLists.format(ts2.cpus()));
            } else if (a instanceof TimelineAction.Chrt ch) {
                ao.put("chrt", ch.task());
                ao.put("policy", ScenarioParser.jsonName(ch.policy()));
                ao.put("priority", ch.priority());
            } else if (a instanceof TimelineAction.Kill kl) {
                ao.put("kill", kl.task());
            } else if (a instanceof TimelineAction.Rmdir rm) {
                ao.put("rmdir", rm.cgroup());
            }
        }
        RecordSpec r = s.record();
        ObjectNode ro = o.putObject("record");
        ro.put("interval", Durations.format(r.intervalNs()));
        ro.put("max_distribute_calls", r.maxDistributeCalls());
        ro.put("max_series_tasks", r.maxSeriesTasks());
        ro.put("max_series_cgroups", r.maxSeriesCgroups());
        return o;
    }
}
