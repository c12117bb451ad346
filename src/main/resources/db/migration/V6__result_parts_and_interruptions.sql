-- Issue 13, "steady under load". Types as in V1 (H2 and PostgreSQL).

-- What GET /api/runs/{id}/histograms/{name} and /cpu.stat read, cut out of the result when it is stored
-- (io.cfslab.store.ResultParts), so that they no longer read and parse the whole result (3.7 MB for a 384-CPU run).
-- Results stored before this version are cut by V7 (and, should one be missed, on their first read).

-- Each member of a result's "histograms", compact JSON.
create table run_histogram (
    run_id          varchar(64)  not null,
    repeat_index    integer      not null,
    name            varchar(500) not null,
    histogram_json  text         not null,
    primary key (run_id, repeat_index, name)
);

-- A result's "cgroups" member (cpu.stat, cpu.stat.local and read-back files of every group), compact JSON. Written
-- after the run's histograms: its row says that the result's parts are stored.
create table run_cgroup_stats (
    run_id        varchar(64) not null,
    repeat_index  integer     not null,
    cgroups_json  text        not null,
    primary key (run_id, repeat_index)
);

-- Crash recovery: how many of a run's attempts died with their instance (crash, kill -9, out of memory), and the
-- last such death. cfslab.runs.max-attempts bounds them.
alter table run add column interruptions integer default 0 not null;
alter table run add column interrupted_at timestamp with time zone;
alter table run add column interrupted_worker varchar(200);

-- Retention (cfslab.retention.*) deletes the oldest finished runs first.
create index run_finished_idx on run (finished_at);
