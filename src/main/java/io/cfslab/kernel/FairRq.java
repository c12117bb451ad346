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
    /**
     * The last task of each CPU's list, or NONE: the least recently enqueued, where new-idle's detach_tasks() starts.
     * The list is kept in enqueue order, or MRU with {@code kernel.periodic_balance} kernel ({@link #cpuTaskToHead},
     * see LoadBalancer.detachTasks).
     */
    final int[] cpuTaskTail;

    /*
     * EEVDF's lag (kernel/sched/fair.c, 6.6+): per cfs_rq the sum of its queued entities' vruntimes less its
     * min_vruntime (avg_vruntime()'s numerator, entities counted alike; SchedRecords.VRUNTIME_SUM), and per entity
     * the lag it left with (se->vlag, update_entity_lag(); SchedRecords.VLAG). Both in the records: every level
     * of a park, a pick and a re-enqueue touches them beside the vruntimes.
     */
    /** entity_lag()'s limit: max(2 × slice, TICK_NSEC) of a nice-0 task. */
    private final long lagLimitNs;

    /** Set by {@link #pickFair}: the pick crossed a throttled level (task models). */
    boolean lastPickThrottled;

    /**
     * DELAY_DEQUEUE (6.12, 152e11f6df29) above a task's own level, task models only: a group entity whose cfs_rq
     * empties as a task sleeps, exits or migrates stays queued while it is not eligible (a delayed entity: queued,
     * with an empty cfs_rq), until it is picked or its cfs_rq gets a task back. Never as a task parks: 6.18's
     * throttle_cfs_rq_work() dequeues with DEQUEUE_THROTTLE, which dequeue_entities() keeps at every level and
     * dequeue_entity() exempts from the delay (eb962f251fbb).
     */
    private final boolean delayDequeue;

    /**
     * cfs_rq->next (NONE when unset): the next buddy that a parking task nominates (253b3f587241, 6.18:
     * dequeue_entities() calls set_next_buddy() for a throttled hierarchy too) and that pick_next_entity() takes
     * first while it is eligible (PICK_BUDDY). Task models only; null otherwise. Only a group entity is ever
     * nominated, so only the cfs_rqs of groups with children have a slot ({@link #buddySlot}), CPU by CPU: a CPU's
     * slots are a few lines (203 ints in the seeds' large tree), where one int per cfs_rq in group-major order cost
     * each park a cache miss at its leaf and at its leaf's parent.
     */
    private final int[] nextBuddy;
    /** Each group's index among the groups with children (-1 for a group without: its cfs_rqs never have a buddy). */
    private final int[] innerIndex;
    /** Groups with children. */
    private final int innerGroups;

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
        queued = new EntityQueue(records, ntasks + k.ngroups * k.ncpu);
        cpuTaskHead = new int[k.ncpu];
        Arrays.fill(cpuTaskHead, NONE);
        cpuTaskTail = new int[k.ncpu];
        Arrays.fill(cpuTaskTail, NONE);
        cpuTaskCount = new int[k.ncpu];
        cpuTaskNext = new int[ntasks];
        cpuTaskPrev = new int[ntasks];
        lagLimitNs = Math.max(2 * schedSliceNs, k.tickNs);
        delayDequeue = k.taskBased && k.delayDequeue;
        innerIndex = new int[k.ngroups];
        int inner = 0;
        for (int g = 0; g < k.ngroups; g++) innerIndex[g] = k.tree.childCount(g) > 0 ? inner++ : -1;
        innerGroups = inner;
        if (k.taskBased) {
            nextBuddy = new int[Math.multiplyExact(innerGroups, k.ncpu)];
            Arrays.fill(nextBuddy, NONE);
        } else {
            nextBuddy = null;
        }
        if (lagLimitNs > Integer.MAX_VALUE) throw new IllegalStateException("lag limit " + lagLimitNs + " ns beyond an int");
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
            addVruntimeSum(leaf, d);
        }
        // by group: q = g × cpus + c, so no level divides its cfs_rq index to find its group and parent
        int ncpu = k.ncpu;
        for (int g = k.tGroup[t], q = leaf; g != 0; ) {
            bwc.accountCfsRqRuntime(q, g, d, t);
            int se = k.groupEntity(q);
            long dv = d * NICE_0_LOAD / groupEntityWeight(q, g);
            int sv = records.ent(se) + SchedRecords.VRUNTIME;
            records.setLong(sv, records.getLong(sv) + dv);
            g = k.tree.parent(g);
            int p = g * ncpu + c;
            if (dv != 0 && onRq(se)) {
                queued.keyIncreased(p, se);
                addVruntimeSum(p, dv);
            }
            q = p;
        }
    }

    /** calc_group_shares(): the group's shares split by this CPU's share of its runnable tasks. */
    long groupEntityWeight(int q) { return groupEntityWeight(q, k.groupOf(q)); }

    /** {@link #groupEntityWeight(int)} of cfs_rq q of group g. */
    private long groupEntityWeight(int q, int g) {
        int total = groupRunnable[g];
        long w = total > 0 ? shares[g] * Math.max(1, hNrRunning(q)) / total : shares[g];
        return Math.max(2, w);
    }

    /** __enqueue_entity(): entity se joins cfs_rq q. */
    void entAdd(int q, int se) {
        queued.add(q, se);
        addVruntimeSum(q, vruntime(se) - minVruntime(q));
    }

    /** __dequeue_entity(): entity se leaves cfs_rq q. */
    void entRemove(int q, int se) {
        if (nextBuddy != null) clearBuddies(q, se);
        updateEntityLag(q, se);
        queued.remove(q, se);
        addVruntimeSum(q, -(vruntime(se) - minVruntime(q)));
    }

    /**
     * avg_vruntime(): the mean vruntime of cfs_rq q's queued entities (the running one included: it stays
     * queued here), or its min_vruntime when it has none. Entities count alike, which is the kernel's weighted
     * mean when they have equal weights (tasks of one nice level).
     */
    long avgVruntime(int q) {
        int n = nrQueued(q);
        return n == 0 ? minVruntime(q) : minVruntime(q) + Math.floorDiv(vruntimeSum(q), n);
    }

    /** avg_vruntime()'s numerator of cfs_rq q: its queued entities' vruntimes less its min_vruntime, summed. */
    private long vruntimeSum(int q) { return records.getLong(records.rq(q) + SchedRecords.VRUNTIME_SUM); }

    private void addVruntimeSum(int q, long delta) {
        int at = records.rq(q) + SchedRecords.VRUNTIME_SUM;
        records.setLong(at, records.getLong(at) + delta);
    }

    /**
     * se->vlag of entity e, which is not queued: the lag it left its cfs_rq with at its last dequeue, as service
     * owed in ns of a nice-0 entity (its virtual lag × its weight / NICE_0_LOAD), so that it survives the weight changes of a group entity
     * while it is off the cfs_rq (reweight_entity() rescales se->vlag by old / new weight).
     */
    long vlag(int e) {
        // while e is queued its slot holds the heap's insertion number (EntityQueue.INSERTED), not a lag
        assert !onRq(e) : "vlag of queued entity " + e;
        return recInts[records.ent(e) + SchedRecords.VLAG];
    }

    /** The weight of entity e: NICE_0_LOAD for a task, calc_group_shares() for a group entity. */
    private long entityWeight(int e) { return e < ntasks ? NICE_0_LOAD : groupEntityWeight(e - ntasks); }

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
        if (n > 0) v -= vlag(se) * NICE_0_LOAD / entityWeight(se) * (n + 1) / n;
        setVruntime(se, v);
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
        if (k.loads != null) k.loads.taskEnqueued(t);
        cpuTaskAdd(c, t);
        boolean structural = true;
        int se = t;
        for (int g = k.tGroup[t], x = q; ; g = k.tree.parent(g), x = g * k.ncpu + c) { // x: group g's cfs_rq on c
            if (structural) {
                if (!onRq(se)) {
                    if (se != t) placeEntity(x, se);
                    entAdd(x, se);
                    if (nrQueued(x) == 1 && !k.isRootQ(x)) bwc.checkEnqueueThrottle(x);
                } else {
                    if (delayDequeue && se != t && nrQueued(se - ntasks) == 1) requeueDelayedEntity(x, se);
                    structural = false;
                }
            }
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
    void dequeueTask(int t, int c) { dequeueTask(t, c, false); }

    /**
     * {@link #dequeueTask(int, int)}; {@code park}: task t throttles itself (throttle_cfs_rq_work(), 6.18), whose
     * DEQUEUE_THROTTLE stays set at every level (eb962f251fbb), so no entity is delayed, and whose DEQUEUE_SLEEP
     * nominates the next buddy where the walk stops (253b3f587241).
     */
    void dequeueTask(int t, int c, boolean park) {
        int q = k.leafQ(t, c);
        if (k.loads != null) k.loads.taskDequeued(t);
        cpuTaskRemove(c, t);
        boolean structural = true;
        boolean mayDelay = delayDequeue && !park;
        int se = t;
        for (int g = k.tGroup[t], x = q; ; g = k.tree.parent(g), x = g * k.ncpu + c) { // x: group g's cfs_rq on c
            if (structural && onRq(se)) {
                if (mayDelay && se != t && !entityEligible(x, se)) {
                    if (nextBuddy != null) clearBuddies(x, se);
                    structural = false; // delayed: stays queued on x, its cfs_rq empty
                } else {
                    entRemove(x, se);
                    if (nrQueued(x) == 0) {
                        if (!k.isRootQ(x)) bwc.returnCfsRqRuntime(x);
                    } else {
                        structural = false;
                        if (park && nextBuddy != null && !k.isRootQ(x)) setNextBuddy(x);
                    }
                }
            } else {
                structural = false;
            }
            addRunnable(x, g, c, -1);
            if ((!taskBased && thr.throttled[x]) || k.isRootQ(x)) break;
            se = k.groupEntity(x);
        }
        k.onAvailabilityChange(c);
    }

    void cpuTaskAdd(int c, int t) {
        cpuTaskCount[c]++;
        k.forkInputsChanged(c);
        linkHead(c, t);
    }

    void cpuTaskRemove(int c, int t) {
        cpuTaskCount[c]--;
        k.forkInputsChanged(c);
        unlink(c, t);
    }

    /**
     * Moves queued task t to the head of CPU c's list: {@code list_move(&se->group_node, &rq->cfs_tasks)} of
     * {@code __set_next_task_fair()} at a pick and of {@code detach_tasks()} for a task it leaves (6.18).
     */
    void cpuTaskToHead(int c, int t) {
        if (cpuTaskHead[c] == t) return;
        unlink(c, t);
        linkHead(c, t);
    }

    private void linkHead(int c, int t) {
        int h = cpuTaskHead[c];
        cpuTaskPrev[t] = NONE;
        cpuTaskNext[t] = h;
        if (h != NONE) cpuTaskPrev[h] = t; else cpuTaskTail[c] = t;
        cpuTaskHead[c] = t;
    }

    private void unlink(int c, int t) {
        int p = cpuTaskPrev[t], n = cpuTaskNext[t];
        if (p == NONE) cpuTaskHead[c] = n; else cpuTaskNext[p] = n;
        if (n != NONE) cpuTaskPrev[n] = p; else cpuTaskTail[c] = p;
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
                if (delayDequeue) {
                    int first = queued.first(x);
                    if (first >= ntasks && nrQueued(first - ntasks) == 0) {
                        dequeueDelayed(x, first);
                        continue restart;
                    }
                }
                int g = k.isRootQ(x) ? 0 : k.groupOf(x);
                if (g != 0) {
                    if (bwc.checkCfsRqRuntime(x, g)) {
                        if (!taskBased) continue restart;
                        lastPickThrottled = true;
                    }
                    if (thr.isThrottled(g, c)) throttledAbove++; // per-CPU bitmap: a hot line
                    if (throttledAbove > 0 || thr.inWalk(g, c)) lastPickThrottled = true; // throttle_count > 0
                }
                int best = queued.first(x); // least vruntime, the first inserted of equals
                long bv = vruntime(best);
                int minAt = records.rq(x) + SchedRecords.MIN_VRUNTIME;
                long min = records.getLong(minAt);
                if (bv > min) {
                    addVruntimeSum(x, -(bv - min) * nrQueued(x));
                    records.setLong(minAt, bv);
                }
                int slot;
                if (nextBuddy != null && (slot = buddySlot(g, c)) >= 0) {
                    int nb = nextBuddy[slot];
                    if (nb != NONE && (nb == best || entityEligible(x, nb))) { // PICK_BUDDY
                        best = nb;
                        nextBuddy[slot] = NONE; // set_next_entity()'s clear_buddies()
                    }
                }
                if (best < ntasks) return best;
                x = best - ntasks;
            }
        }
    }

    /**
     * set_next_buddy() from the group entity of cfs_rq x (where a parking task's dequeue stopped, x keeping other
     * entities) up to the root: each level's cfs_rq nominates the entity on the parking task's path.
     */
    private void setNextBuddy(int x) {
        int c = k.cpuOf(x);
        for (int g = k.groupOf(x); g != 0; ) {
            int se = k.groupEntity(k.cfsRq(g, c));
            g = k.tree.parent(g);
            nextBuddy[buddySlot(g, c)] = se;
        }
    }

    /** clear_buddies() as entity se leaves cfs_rq q: the nominations of se and of its ancestors above it. */
    private void clearBuddies(int q, int se) {
        int g = k.groupOf(q), c = k.cpuOf(q);
        for (int slot; (slot = buddySlot(g, c)) >= 0 && nextBuddy[slot] == se; ) {
            nextBuddy[slot] = NONE;
            if (g == 0) return;
            se = k.groupEntity(k.cfsRq(g, c));
            g = k.tree.parent(g);
        }
    }

    /** Where cfs_rq->next of group g's cfs_rq on CPU c is kept, or -1 if g has no children (it is never set). */
    private int buddySlot(int g, int c) {
        int i = innerIndex[g];
        return i < 0 ? -1 : c * innerGroups + i;
    }

    /** entity_eligible(): entity se, queued on cfs_rq q, is owed service (its vruntime is not after the average). */
    private boolean entityEligible(int q, int se) { return vruntime(se) <= avgVruntime(q); }

    /**
     * pick_next_entity() found delayed group entity se first on cfs_rq q: dequeue_entities(DEQUEUE_SLEEP |
     * DEQUEUE_DELAYED) takes it off with its positive lag dropped (DELAY_ZERO), and every ancestor entity whose
     * cfs_rq empties follows it, unless it is not eligible and is delayed in turn. Runnable counts were
     * decremented when the last task left.
     */
    private void dequeueDelayed(int q, int se) {
        entRemove(q, se);
        int lag = records.ent(se) + SchedRecords.VLAG;
        if (recInts[lag] > 0) recInts[lag] = 0; // finish_delayed_dequeue_entity(): the delayed level only
        for (int x = q; ; ) {
            if (nrQueued(x) > 0 || k.isRootQ(x)) return;
            bwc.returnCfsRqRuntime(x);
            se = k.groupEntity(x);
            x = k.parentQ(x);
            if (!onRq(se) || !entityEligible(x, se)) return;
            entRemove(x, se);
        }
    }

    /**
     * requeue_delayed_entity() with DELAY_ZERO: delayed group entity se, queued on cfs_rq q, gets a task back in
     * its cfs_rq; if it is owed service by now it is placed again at the average with its lag dropped, else it
     * keeps its place.
     */
    private void requeueDelayedEntity(int q, int se) {
        if (vruntime(se) < avgVruntime(q)) { // update_entity_lag() finds it owed service
            entRemove(q, se);
            recInts[records.ent(se) + SchedRecords.VLAG] = 0;
            placeEntity(q, se);
            entAdd(q, se);
        }
    }

    /** {@link #checkPreemptWakeup}'s granularity argument that selects EEVDF's rule. */
    static final long EEVDF_PICK = -1;

    /**
     * check_preempt_wakeup_fair() (kernel/sched/fair.c): task t, just woken onto CPU c
     * where fair task cur runs, preempts it if at the first cfs_rq their hierarchies share (find_matching_se()) the
     * pick would now be t's entity. 6.6+ (EEVDF, 147f3efaa241): {@code __pick_eevdf(cfs_rq, true)} keeps cur's entity
     * while it is eligible and within the slice it was picked for (RUN_TO_PARITY), else picks what {@link #pickFair}
     * would, the least vruntime. Before 6.6 (CFS, {@code wakeup_preempt_entity()}): cur's entity's vruntime is ahead
     * of t's by more than {@code wakeup_gran()}, {@code sysctl_sched_wakeup_granularity} scaled to t's entity's weight.
     * A wakee in a throttled hierarchy never preempts (its {@code throttled_hierarchy(cfs_rq_of(pse))} check, kept by
     * the task-based series and in the 2025 tip).
     *
     * @param curProtected cur runs within the slice it was picked for (RUN_TO_PARITY's protection, 6.6+)
     * @param wakeupGranNs {@code sysctl_sched_wakeup_granularity} as scaled for the CPU count (before 6.6), or
     *                     {@link #EEVDF_PICK} for EEVDF's rule
     */
    boolean checkPreemptWakeup(int t, int cur, int c, boolean curProtected, long wakeupGranNs) {
        int pq = k.leafQ(t, c), sq = k.leafQ(cur, c);
        if (thr.throttledHierarchy(pq)) return false;
        int pse = t, se = cur;
        int pd = k.tree.depth(k.groupOf(pq)), sd = k.tree.depth(k.groupOf(sq));
        while (pd > sd) { pse = k.groupEntity(pq); pq = k.parentQ(pq); pd--; }
        while (sd > pd) { se = k.groupEntity(sq); sq = k.parentQ(sq); sd--; }
        while (pq != sq) {
            pse = k.groupEntity(pq); pq = k.parentQ(pq);
            se = k.groupEntity(sq); sq = k.parentQ(sq);
        }
        if (pse == se || !onRq(pse)) return false;
        if (wakeupGranNs >= 0) return vruntime(se) - vruntime(pse) > wakeupGranNs * NICE_0_LOAD / entityWeight(pse);
        if (curProtected && entityEligible(pq, se)) return false;
        return queued.first(pq) == pse;
    }

    void migrateVruntime(int t, int from, int to) {
        setVruntime(t, vruntime(t) - minVruntime(k.leafQ(t, from)) + minVruntime(k.leafQ(t, to)));
    }
}
