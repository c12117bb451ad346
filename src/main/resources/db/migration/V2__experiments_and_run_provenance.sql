-- Issue 7: experiments, and what each run ran with. Types as in V1 (H2 and PostgreSQL).

-- One experiment: a scenario under several arms, each repeated. Its runs are ordinary rows of `run`
-- (experiment_id, arm_index, repeat_index), each queued as its own db-scheduler job.
create table experiment (
    id               varchar(64)  not null primary key,
    name             varchar(500) not null,
    scenario_id      varchar(64),
    -- the experiment document as submitted, the scenario snapshot inline ("scenario": {...})
    definition_json  text         not null,
    -- the resolved plan: seed, repeat seeds, arms (name, overrides), metrics, limited groups
    plan_json        text         not null,
    seed             bigint       not null,
    arms             integer      not null,
    repeats          integer      not null,
    cancel_requested boolean      not null,
    -- the statistics, computed once every run is done
    result_json      text,
    created_at       timestamp with time zone not null
);
create index experiment_created_idx on experiment (created_at);

alter table run add column experiment_id varchar(64);
alter table run add column arm_index integer;
alter table run add column arm_name varchar(200);
alter table run add column repeat_index integer;
-- the effective settings the run ran with: seed, duration, machine and every kernel switch (JSON)
alter table run add column settings_json text;
create index run_experiment_idx on run (experiment_id);
