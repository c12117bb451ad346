package io.cfslab.kernel;

import io.cfslab.scenario.KernelSpec.ThrottledClockStart;

import java.util.Arrays;

import static io.cfslab.kernel.Kernel.NICE_0_LOAD;
import static io.cfslab.kernel.Kernel.NONE;
import static io.cfslab.kernel.Kernel.NO_CLOCK;

/**
 * The fair class's runqueues (kernel/sched/fair.c): a {@code cfs_rq} per task group per CPU
 * ({@code q = Kernel.cfsRq(group, cpu)}) with its queued entities (tasks {@code t < tasks}, group entities
 * {@code tasks + q}), vruntimes and runnable counts; {@code enqueue_task_fair()}, {@code dequeue_task_fair()},
 * {@code place_entity()}, the hierarchical pick and the group entity weights of {@code calc_group_shares()}.
 * Also each CPU's list of queued tasks (fair and RT), which the load balancer walks.
 *
 * <p>Bandwidth control decides where the walks stop: in the cfs_rq model a throttled cfs_rq's subtree is
 * detached, so runnable counts stop there.
 */
final class FairRq {
    private final Kernel k;
    private final int ntasks;
    private final long schedSliceNs;
    private final boolean taskBased;
    private final ThrottledClockStart clockStart;
    private BandwidthControl bwc;
    private Throttling thr;

    // ---- task groups ----
    final long[] shares;
    final int[] groupRunnable;

    // ---- cfs_rq, index q = Kernel.cfsRq(group, cpu), and scheduling entities: tasks, then one group
    //      entity per cfs_rq; vruntime, min_vruntime and h_nr_running live in their records ----
    private final SchedRecords records;
    private final int[] recInts;
    /**
     * cfs_rqs with runnable tasks (hNrRunning &gt; 0), kept unless {@code throttled_clock_start=first-park}: a
     * throttle starts the throttled_clock_self of exactly these; null otherwise.
     */
    final GroupBitmap nonEmpty;

    /** Each cfs_rq's queued entities, first by (vruntime, index). */
    private final EntityQueue queued;

    // ---- per-CPU list of queued tasks (fair and RT) ----
    final int[] cpuTaskHead;
    /** Tasks on each CPU's list: queued fair tasks, in a throttled subtree or not, and queued RT tasks. */
    final int[] cpuTaskCount;
    final int[] cpuTaskNext, cpuTaskPrev;

    /*
     * EEVDF's lag (kernel/sched/fair.c, 6.6+): per cfs_rq the sum of its queued entities' vruntimes less its
     * min_vruntime (avg_vruntime()'s numerator, entities counted alike; SchedRecords.VRUNTIME_SUM), and per entity
     * the lag it left with (se->vlag, update_entity_lag(); SchedRecords.VLAG). Both in the records: every level
     * of a park, a pick and a re-enqueue touches them beside the vruntimes.
     */
    /** entity_lag()'s limit: max(2 × slice, TICK_NSEC) of a nice-0 task. */
    private final long lagLimitNs;

    /**
     * EEVDF (kernel/sched/fair.c, 6.6+; {@link Kernel#eevdf}): the pick is the eligible entity with the earliest
     * virtual deadline, avg_vruntime is weighted by the entities' weights, and a group entity's weight is the one
     * update_cfs_group() last gave it. Before 6.6 (CFS) the pick is the least vruntime and every entity counts 1 in
     * the mean, as before these arrays existed.
     */
    final boolean eevdf;
    /** cfs_rq->avg_load: the summed weight of q's queued entities (their count before 6.6). */
    private final long[] avgLoad;
    /** se->load.weight of each entity as update_cfs_group() set it (6.6+; tasks NICE_0_LOAD). */
    private final long[] seWeight;
    /** se->deadline, virtual ns (6.6+). */
    private final long[] deadline;
    /** se->vprot: RUN_TO_PARITY's protected vruntime, set when the entity is picked (set_protect_slice(), 6.17+). */
    private final long[] vprot;
    /** cfs_rq->curr: the entity of q set by set_next_entity(), or NONE (6.6+). */
    private final int[] currEnt;
    /** The pick's walk of a heap (no allocation): entities still to visit. */
    private final int[] pickStack;
    /** PELT load averages behind calc_group_shares() (6.6+), or null (before: shares by runnable tasks). */
    final GroupShares groupShares;

    /** Set by {@link #pickFair}: the pick crossed a throttled level (task models). */
    boolean lastPickThrottled;

    FairRq(Kernel k) {
        this.k = k;
        this.ntasks = k.ntasks;
        this.schedSliceNs = k.schedSliceNs;
        this.taskBased = k.taskBased;
        this.clockStart = k.clockStart;
        shares = new long[k.ngroups];
        Arrays.fill(shares, NICE_0_LOAD);
        groupRunnable = new int[k.ngroups];
        records = k.records;
        recInts = records.ints;
        nonEmpty = clockStart != ThrottledClockStart.FIRST_PARK ? new GroupBitmap(k.ngroups, k.ncpu) : null;
        queued = new EntityQueue(records);
        cpuTaskHead = new int[k.ncpu];
        Arrays.fill(cpuTaskHead, NONE);
        cpuTaskCount = new int[k.ncpu];
        cpuTaskNext = new int[ntasks];
        cpuTaskPrev = new int[ntasks];
        lagLimitNs = Math.max(2 * schedSliceNs, k.tickNs);
        if (lagLimitNs > Integer.MAX_VALUE) throw new IllegalStateException("lag limit " + lagLimitNs + " ns beyond an int");
        eevdf = k.eevdf;
        int nent = ntasks + k.ngroups * k.ncpu;
        avgLoad = new long[k.ngroups * k.ncpu];
        seWeight = new long[nent];
        Arrays.fill(seWeight, NICE_0_LOAD);
        deadline = new long[eevdf ? nent : 0];
        vprot = new long[eevdf ? nent : 0];
        currEnt = new int[eevdf ? k.ngroups * k.ncpu : 0];
        Arrays.fill(currEnt, NONE);
        pickStack = new int[eevdf ? nent : 0];
        groupShares = eevdf ? new GroupShares(k) : null;
    }

    void link(BandwidthControl bwc, Throttling thr) {
        this.bwc = bwc;
        this.thr = thr;
    }

    /** se->vruntime of entity e, ns. */
    long vruntime(int e) { return records.vruntime(e); }

    /**
     * Sets the vruntime of an entity that is not queued: a queued one's only changes through
     * {@link #updateCurrFair}, which tells its cfs_rq's {@link EntityQueue} (the pick order relies on it).
     */
    void setVruntime(int e, long v) {
        if (queued.isQueued(e)) throw new IllegalStateException("vruntime of queued entity " + e + " set directly");
        records.setLong(records.ent(e) + SchedRecords.VRUNTIME, v);
    }

    /** cfs_rq->min_vruntime of cfs_rq q, ns. */
    long minVruntime(int q) { return records.getLong(records.rq(q) + SchedRecords.MIN_VRUNTIME); }

    /** cfs_rq->h_nr_running of cfs_rq q: runnable tasks in its hierarchy on its CPU. */
    int hNrRunning(int q) { return recInts[records.rq(q) + SchedRecords.H_NR_RUNNING]; }

    /**
     * The fair part of update_curr() at every level of running task t's hierarchy: vruntime, and
     * account_cfs_rq_runtime() where a quota applies.
     */
    void updateCurrFair(int t, int c, long d) {
        int leaf = k.leafQ(t, c);
        int tv = records.ent(t) + SchedRecords.VRUNTIME;
        records.setLong(tv, records.getLong(tv) + d);
        if (onRq(t)) {
            queued.keyIncreased(leaf, t);
            addVruntimeSum(leaf, d * avgWeight(t));
            if (eevdf) updateDeadline(leaf, t, c);
        }
        // by group: q = g × cpus + c, so no level divides its cfs_rq index to find its group and parent
        int ncpu = k.ncpu;
        for (int g = k.tGroup[t], q = leaf; g != 0; ) {
            bwc.accountCfsRqRuntime(q, g, d, t);
            int se = k.groupEntity(q);
            long dv = d * NICE_0_LOAD / (eevdf ? seWeight[se] : groupEntityWeight(q, g));
            int sv = records.ent(se) + SchedRecords.VRUNTIME;
            records.setLong(sv, records.getLong(sv) + dv);
            g = k.tree.parent(g);
            int p = g * ncpu + c;
            if (dv != 0 && onRq(se)) {
                queued.keyIncreased(p, se);
                addVruntimeSum(p, dv * avgWeight(se));
                if (eevdf) updateDeadline(p, se, c);
            }
            q = p;
        }
    }

    /**
     * update_deadline() and the resched of update_curr() (6.6+; 6.17's RUN_TO_PARITY): entity se, running on
     * cfs_rq q, has used its slice once its vruntime reaches its deadline; it gets the next deadline one slice
     * further (slice × NICE_0_LOAD / weight of virtual time), and the CPU reschedules if q has another entity,
     * also when se's protected slice is over.
     */
    private void updateDeadline(int q, int se, int c) {
        long v = vruntime(se);
        boolean resched = false;
        if (v - deadline[se] >= 0) {
            deadline[se] = v + calcDeltaFair(schedSliceNs, se);
            resched = true;
        }
        if (nrQueued(q) > 1 && (resched || v - vprot[se] >= 0)) k.needResched[c] = true;
    }

    /** calc_delta_fair(): ns of real time as virtual time of entity se. */
    private long calcDeltaFair(long ns, int se) {
        long w = seWeight[se];
        return w == NICE_0_LOAD ? ns : ns * NICE_0_LOAD / w;
    }

    /** An entity's weight in avg_vruntime: its load weight (6.6+), or 1 (the unweighted mean before). */
    private long avgWeight(int e) { return eevdf ? seWeight[e] : 1; }

    /**
     * calc_group_shares(): the group's shares split by this CPU's part of its load: PELT load averages from 6.6
     * ({@link GroupShares}), its runnable tasks before.
     */
    long groupEntityWeight(int q) { return groupEntityWeight(q, k.groupOf(q)); }

    /** {@link #groupEntityWeight(int)} of cfs_rq q of group g. */
    private long groupEntityWeight(int q, int g) {
        if (groupShares != null) return groupShares.calcGroupShares(q, shares[g], avgLoad[q]);
        int total = groupRunnable[g];
        long w = total > 0 ? shares[g] * Math.max(1, hNrRunning(q)) / total : shares[g];
        return Math.max(2, w);
    }

    /** __enqueue_entity() with avg_vruntime_add(): entity se joins cfs_rq q. */
    void entAdd(int q, int se) {
        queued.add(q, se);
        long w = avgWeight(se);
        addVruntimeSum(q, (vruntime(se) - minVruntime(q)) * w);
        avgLoad[q] += w;
    }

    /** __dequeue_entity() with avg_vruntime_sub(): entity se leaves cfs_rq q. */
    void entRemove(int q, int se) {
        updateEntityLag(q, se);
        queued.remove(q, se);
        long w = avgWeight(se);
        addVruntimeSum(q, -(vruntime(se) - minVruntime(q)) * w);
        avgLoad[q] -= w;
    }

    /**
     * avg_vruntime(): the mean vruntime of cfs_rq q's queued entities (the running one included: it stays
     * queued here), weighted by their weights from 6.6 (counted alike before), or its min_vruntime when it has
     * none. Rounded towards minus infinity, as the kernel does for a negative sum.
     */
    long avgVruntime(int q) {
        long load = avgLoad[q];
        return load == 0 ? minVruntime(q) : minVruntime(q) + Math.floorDiv(vruntimeSum(q), load);
    }

    /**
     * vruntime_eligible() / entity_eligible(): entity e of cfs_rq q has not received more than its share, its
     * vruntime at or below q's weighted avg_vruntime (compared without the division, as the kernel does).
     */
    boolean entityEligible(int q, int e) {
        return vruntimeSum(q) >= (vruntime(e) - minVruntime(q)) * avgLoad[q];
    }

    /** se->deadline of entity e, virtual ns (6.6+). */
    long deadline(int e) { return deadline[e]; }

    /** Sets the deadline of an entity that is not queued (tests build hand-computed cfs_rqs with it). */
    void setDeadline(int e, long d) {
        if (queued.isQueued(e)) throw new IllegalStateException("deadline of queued entity " + e + " set directly");
        deadline[e] = d;
    }

    /** se->load.weight of entity e as last set (6.6+: update_cfs_group()'s value for a group entity). */
    long weight(int e) { return seWeight[e]; }



    /** avg_vruntime()'s numerator of cfs_rq q: its queued entities' vruntimes less its min_vruntime, summed. */
    private long vruntimeSum(int q) { return records.getLong(records.rq(q) + SchedRecords.VRUNTIME_SUM); }

    private void addVruntimeSum(int q, long delta) {
        int at = records.rq(q) + SchedRecords.VRUNTIME_SUM;
        records.setLong(at, records.getLong(at) + delta);
    }

    /**
     * se->vlag of entity e: the lag it left its cfs_rq with at its last dequeue, as service owed in ns of a nice-0
     * entity (its virtual lag × its weight / NICE_0_LOAD), so that it survives the weight changes of a group entity
     * while it is off the cfs_rq (reweight_entity() rescales se->vlag by old / new weight).
     */
    long vlag(int e) { return recInts[records.ent(e) + SchedRecords.VLAG]; }

    /**
     * The weight of entity e: NICE_0_LOAD for a task; for a group entity its stored se->load.weight (6.6+) or
     * calc_group_shares() now (before).
     */
    private long entityWeight(int e) {
        return e < ntasks ? NICE_0_LOAD : eevdf ? seWeight[e] : groupEntityWeight(e - ntasks);
    }

    /**
     * update_entity_lag(): entity e, queued on cfs_rq q, is leaving; its lag is kept within entity_lag()'s limit,
     * max(2 × slice, TICK_NSEC) of real time.
     */
    private void updateEntityLag(int q, int e) {
        long lag = (avgVruntime(q) - vruntime(e)) * entityWeight(e) / NICE_0_LOAD;
        recInts[records.ent(e) + SchedRecords.VLAG] = (int) Math.max(-lagLimitNs, Math.min(lagLimitNs, lag));
    }

    /**
     * place_entity() with PLACE_LAG (6.6+): a waking entity (a task, or a group entity whose cfs_rq gets its
     * first task back) returns with the lag it left with, so one that got less than its share before it slept
     * or was throttled still has it owed. The lag, in its virtual time at its present weight, is scaled by
     * (n + 1) / n for the n entities already queued, as the kernel scales it by (W + w) / W so that adding the
     * entity does not shrink it; an empty cfs_rq places it at its avg_vruntime (the lag is not applied).
     */
    void placeEntity(int q, int se) {
        int n = nrQueued(q);
        long v = avgVruntime(q);
        if (eevdf) {
            // lag × (W + w) / W with W the queued entities' weight (6.6+)
            long w = seWeight[se], load = avgLoad[q];
            if (n > 0 && load > 0) v -= vlag(se) * NICE_0_LOAD / w * (load + w) / load;
            setVruntime(se, v);
            deadline[se] = v + calcDeltaFair(schedSliceNs, se);
            return;
        }
        if (n > 0) v -= vlag(se) * NICE_0_LOAD / entityWeight(se) * (n + 1) / n;
        setVruntime(se, v);
    }

    /**
     * place_entity() of a forked task (ENQUEUE_INITIAL, 6.6+): at its cfs_rq's avg_vruntime with no lag, and
     * PLACE_DEADLINE_INITIAL's half slice to its first deadline. Before 6.6 the fork starts at min_vruntime.
     */
    void placeInitial(int t, int c) {
        int q = k.leafQ(t, c);
        if (!eevdf) {
            setVruntime(t, minVruntime(q));
            return;
        }
        long v = avgVruntime(q);
        setVruntime(t, v);
        deadline[t] = v + calcDeltaFair(schedSliceNs, t) / 2;
        recInts[records.ent(t) + SchedRecords.VLAG] = 0;
        if (groupShares != null) groupShares.attachTask(q);
    }

    /**
     * update_cfs_group() (6.6+): group entity se gets calc_group_shares() of the cfs_rq it represents; if it is
     * queued, reweight_entity() keeps its lag (and its deadline relative to its vruntime, scaled by old / new
     * weight) across the change, re-placing it. Called where the kernel calls it: enqueue and dequeue at every
     * level walked, and entity_tick() on the running path, so a group entity on another CPU keeps a stale weight
     * until its own CPU updates it.
     */
    void updateCfsGroup(int se) {
        if (!eevdf || se < ntasks) return;
        long w = groupEntityWeight(se - ntasks);
        long old = seWeight[se];
        if (w == old) return;
        if (!onRq(se)) {
            seWeight[se] = w;
            return;
        }
        int q = k.parentQ(se - ntasks);
        long relDeadline = deadline[se] - vruntime(se);
        long relProt = vprot[se] - vruntime(se);
        entRemove(q, se);
        seWeight[se] = w;
        placeEntity(q, se);
        deadline[se] = vruntime(se) + relDeadline * old / w;
        vprot[se] = vruntime(se) + relProt * old / w;
        entAdd(q, se);
    }

    /** entity_tick()'s update_cfs_group() at every level of running task t's hierarchy (6.6+). */
    void entityTick(int t, int c) {
        if (!eevdf) return;
        int thrDepth = peltThrottledDepth(k.leafQ(t, c));
        for (int q = k.leafQ(t, c); !k.isRootQ(q); q = k.parentQ(q)) {
            updateLoadAvg(q, thrDepth);
            updateCfsGroup(k.groupEntity(q));
        }
    }

    /**
     * update_load_avg() of cfs_rq q (6.6+): its PELT load average up to now ({@link GroupShares}).
     *
     * @param throttledDepth {@link Throttling#throttledDepth} of the walk's leaf: q is in a throttled hierarchy if
     *                       its group is at least that deep, or an unthrottle walk has not reached it yet
     */
    private void updateLoadAvg(int q, int throttledDepth) {
        if (groupShares == null || k.isRootQ(q)) return;
        int g = k.groupOf(q);
        boolean throttled = (throttledDepth != Integer.MAX_VALUE && k.tree.depth(g) >= throttledDepth)
                || thr.inWalk(g, k.cpuOf(q));
        groupShares.updateLoadAvg(q, avgLoad[q], throttled);
    }

    /** The {@link Throttling#throttledDepth} of cfs_rq q's path, for the PELT updates of a walk up from q. */
    private int peltThrottledDepth(int q) {
        return groupShares == null ? Integer.MAX_VALUE : thr.throttledDepth(k.groupOf(q), k.cpuOf(q));
    }

    /** cfs_rq->nr_queued: entities queued on cfs_rq q. */
    int nrQueued(int q) { return queued.count(q); }

    /** se->on_rq: entity se is queued. */
    boolean onRq(int se) { return queued.isQueued(se); }

    void addRunnable(int x, int delta) { addRunnable(x, k.groupOf(x), k.cpuOf(x), delta); }

    /** {@link #addRunnable(int, int)} of cfs_rq x, group g's on CPU c. */
    private void addRunnable(int x, int g, int c, int delta) {
        int i = records.rq(x) + SchedRecords.H_NR_RUNNING;
        int before = recInts[i];
        recInts[i] = before + delta;
        groupRunnable[g] += delta;
        if (nonEmpty != null && (before == 0) != (before + delta == 0)) {
            if (before == 0) nonEmpty.set(g, c); else nonEmpty.clear(g, c);
        }
        if (g == 0) k.balancer.nrRunningChanged(c);
    }

    /**
     * enqueue_task_fair(): enqueue entities upwards while they are off the runqueue; the runnable counts stop
     * at a throttled cfs_rq in the cfs_rq model (its subtree is detached).
     */
    void enqueueTask(int t, int c, boolean wakeup) {
        int q = k.leafQ(t, c);
        if (wakeup) placeEntity(q, t);
        cpuTaskAdd(c, t);
        boolean structural = true;
        int se = t;
        int thrDepth = peltThrottledDepth(q);
        for (int g = k.tGroup[t], x = q; ; g = k.tree.parent(g), x = g * k.ncpu + c) { // x: group g's cfs_rq on c
            updateLoadAvg(x, thrDepth);
            if (structural) {
                if (!onRq(se)) {
                    if (se != t) {
                        updateCfsGroup(se);
                        placeEntity(x, se);
                    }
                    entAdd(x, se);
                    if (nrQueued(x) == 1 && !k.isRootQ(x)) bwc.checkEnqueueThrottle(x);
                } else {
                    structural = false;
                }
            }
            if (!structural) updateCfsGroup(se);
            addRunnable(x, g, c, 1);
            if (clockStart != ThrottledClockStart.FIRST_PARK && thr.throttledHierarchy(x)) {
                thr.startSelfClockIfStopped(x);
                if (clockStart == ThrottledClockStart.NONEMPTY && thr.throttled[x] && thr.throttledClockNs[x] == NO_CLOCK) {
                    thr.throttledClockNs[x] = k.now;
                }
            }
            if ((!taskBased && thr.throttled[x]) || k.isRootQ(x)) break;
            se = k.groupEntity(x);
        }
        k.onAvailabilityChange(c);
    }

    /** dequeue_task_fair(): dequeue entities upwards while their cfs_rq empties; return slack on empty ones. */
    void dequeueTask(int t, int c) {
        int q = k.leafQ(t, c);
        cpuTaskRemove(c, t);
        boolean structural = true;
        int se = t;
        int thrDepth = peltThrottledDepth(q);
        for (int g = k.tGroup[t], x = q; ; g = k.tree.parent(g), x = g * k.ncpu + c) { // x: group g's cfs_rq on c
            updateLoadAvg(x, thrDepth);
            if (structural && onRq(se)) {
                entRemove(x, se);
                if (eevdf && currEnt[x] == se) currEnt[x] = NONE; // put_prev_entity(): picked again, protected again
                if (nrQueued(x) == 0) {
                    if (!k.isRootQ(x)) bwc.returnCfsRqRuntime(x);
                } else {
                    structural = false;
                }
            } else {
                structural = false;
            }
            updateCfsGroup(se);
            addRunnable(x, g, c, -1);
            if ((!taskBased && thr.throttled[x]) || k.isRootQ(x)) break;
            se = k.groupEntity(x);
        }
        k.onAvailabilityChange(c);
    }

    void cpuTaskAdd(int c, int t) {
        cpuTaskCount[c]++;
        k.forkInputsChanged(c);
        int h = cpuTaskHead[c];
        cpuTaskPrev[t] = NONE;
        cpuTaskNext[t] = h;
        if (h != NONE) cpuTaskPrev[h] = t;
        cpuTaskHead[c] = t;
    }

    void cpuTaskRemove(int c, int t) {
        cpuTaskCount[c]--;
        k.forkInputsChanged(c);
        int p = cpuTaskPrev[t], n = cpuTaskNext[t];
        if (p == NONE) cpuTaskHead[c] = n; else cpuTaskNext[p] = n;
        if (n != NONE) cpuTaskPrev[n] = p;
    }

    /**
     * pick_next_entity() from the root down; runs check_cfs_rq_runtime() at each level. cfs_rq model: a level
     * throttled during the pick is dequeued and the pick restarts. Task models: the pick continues and
     * {@link #lastPickThrottled} records that a throttled level was crossed.
     */
    int pickFair(int c) {
        restart:
        while (true) {
            lastPickThrottled = false;
            int x = k.rootQ(c);
            int throttledAbove = thr.throttled[x] ? 1 : 0; // throttled cfs_rqs on the way down
            while (true) {
                if (nrQueued(x) == 0) return NONE;
                if (!k.isRootQ(x)) {
                    int g = k.groupOf(x);
                    if (bwc.checkCfsRqRuntime(x, g)) {
                        if (!taskBased) continue restart;
                        lastPickThrottled = true;
                    }
                    if (thr.isThrottled(g, c)) throttledAbove++; // per-CPU bitmap: a hot line
                    if (throttledAbove > 0 || thr.inWalk(g, c)) lastPickThrottled = true; // throttle_count > 0
                }
                int first = queued.first(x); // least vruntime, the lower index of equals
                long bv = vruntime(first);
                int minAt = records.rq(x) + SchedRecords.MIN_VRUNTIME;
                long min = records.getLong(minAt);
                if (bv > min) {
                    addVruntimeSum(x, -(bv - min) * avgLoad[x]);
                    records.setLong(minAt, bv);
                }
                int best = first;
                if (eevdf) {
                    best = pickEevdf(x, true);
                    setNextEntity(x, best);
                }
                if (best < ntasks) return best;
                x = best - ntasks;
            }
        }
    }

    /**
     * __pick_eevdf() (6.6+, with 6.17's RUN_TO_PARITY): of cfs_rq q's queued entities, the eligible one with the
     * earliest virtual deadline; q's current entity keeps the CPU while it is eligible and inside its protected
     * slice ({@code protect}); otherwise it is compared last (entity_before() by deadline) and loses ties. Ties
     * among the others go to the lower vruntime, then the lower index. The walk visits only eligible entities whose
     * vruntime is before the best deadline found so far: about those within one slice of the least vruntime. Walks the vruntime heap and skips every subtree whose
     * root is not eligible (its entities have larger vruntimes), so it visits the eligible entities only.
     *
     * @return the entity, or NONE if q has none queued
     */
    int pickEevdf(int q, boolean protect) {
        int n = nrQueued(q);
        if (n == 0) return NONE;
        int cur = currEnt[q];
        if (cur != NONE && !queuedOn(cur, q)) cur = NONE;
        if (n == 1) return cur != NONE ? cur : queued.root(q);
        if (cur != NONE && !entityEligible(q, cur)) cur = NONE;
        if (cur != NONE && protect && vruntime(cur) - vprot[cur] < 0) return cur;
        long sum = vruntimeSum(q), load = avgLoad[q], min = minVruntime(q);
        int best = NONE;
        long bestDeadline = 0, bestV = 0;
        int sp = 0;
        pickStack[sp++] = queued.root(q);
        int stale = queued.stale(q); // its vruntime grew in place: what is below it may be smaller
        while (sp > 0) {
            int e = pickStack[--sp];
            int next = queued.nextSibling(e);
            if (next != NONE) pickStack[sp++] = next;
            long v = vruntime(e);
            boolean eligible = sum >= (v - min) * load;
            // below an entity that is not eligible, or whose vruntime is past the best deadline so far, nothing can
            // win: vruntimes only grow down the heap, and a queued entity's deadline is past its vruntime (only
            // the running one's can fall behind it between two update_curr(), and it is the stale one)
            if (e != stale && (!eligible || (best != NONE && v - bestDeadline >= 0))) continue;
            int child = queued.firstChild(e);
            if (child != NONE) pickStack[sp++] = child;
            if (!eligible) continue;
            if (e == cur) continue; // the kernel's curr is out of the tree: compared last, and loses ties
            long d = deadline[e];
            if (best == NONE || d - bestDeadline < 0 || (d == bestDeadline && (v < bestV || (v == bestV && e < best)))) {
                best = e;
                bestDeadline = d;
                bestV = v;
            }
        }
        if (best == NONE || (cur != NONE && deadline[cur] - bestDeadline < 0)) best = cur;
        return best == NONE ? queued.first(q) : best;
    }

    /** Entity e is queued on cfs_rq q. */
    private boolean queuedOn(int e, int q) {
        return onRq(e) && (e < ntasks ? k.leafQ(e, k.tCpu[e]) : k.parentQ(e - ntasks)) == q;
    }

    /**
     * set_next_entity() (6.6+): entity se becomes cfs_rq q's current entity; a newly picked one gets its
     * protected slice (set_protect_slice(): up to its deadline, every entity having the base slice). The entity
     * it replaces is put back (put_prev_entity()), and with it the current entities of its subtree.
     */
    private void setNextEntity(int q, int se) {
        int old = currEnt[q];
        if (old == se) return;
        if (old != NONE) putPrevEntity(q);
        currEnt[q] = se;
        vprot[se] = deadline[se];
    }

    /** put_prev_entity() of cfs_rq q's current entity, and of the current entities below it. */
    private void putPrevEntity(int q) {
        for (int e = currEnt[q]; e != NONE; ) {
            currEnt[q] = NONE;
            if (e < ntasks) return;
            q = e - ntasks;
            e = currEnt[q];
        }
    }

    /** The CPU went idle: every level of its running path is put back (6.6+). */
    void putPrevAll(int c) {
        if (eevdf) putPrevEntity(k.rootQ(c));
    }

    /**
     * check_preempt_wakeup_fair() (6.6+): task t, just woken onto CPU c where fair task cur runs, preempts it if,
     * at the first level where their hierarchies meet, EEVDF would pick t's entity now (cur's entity keeps its
     * protected slice while it is eligible). A wakee in a throttled hierarchy does not preempt.
     */
    boolean checkPreemptWakeup(int t, int cur, int c) {
        if (thr.throttledHierarchy(k.leafQ(t, c))) return false;
        int pse = t, se = cur;
        int pq = k.leafQ(t, c), sq = k.leafQ(cur, c);
        // find_matching_se(): climb the deeper one, then both, until they share a cfs_rq
        int pd = k.tree.depth(k.groupOf(pq)), sd = k.tree.depth(k.groupOf(sq));
        while (pd > sd) { pse = k.groupEntity(pq); pq = k.parentQ(pq); pd--; }
        while (sd > pd) { se = k.groupEntity(sq); sq = k.parentQ(sq); sd--; }
        while (pq != sq) {
            pse = k.groupEntity(pq); pq = k.parentQ(pq);
            se = k.groupEntity(sq); sq = k.parentQ(sq);
        }
        if (!onRq(pse)) return false;
        return pickEevdf(pq, true) == pse;
    }

    void migrateVruntime(int t, int from, int to) {
        long dv = minVruntime(k.leafQ(t, to)) - minVruntime(k.leafQ(t, from));
        setVruntime(t, vruntime(t) + dv);
        if (eevdf) deadline[t] += dv;
    }

    /** Task t (not queued) moves from cfs_rq {@code from} to {@code to} keeping its vruntime and deadline relative. */
    void moveVruntime(int t, int from, int to) {
        long dv = minVruntime(to) - minVruntime(from);
        setVruntime(t, vruntime(t) + dv);
        if (eevdf) deadline[t] += dv;
    }
}
