-- Schema shared by H2 (default, file under ./data) and PostgreSQL (profile "postgres").
-- Only types both accept: varchar, text, bigint, integer, boolean, double precision, bytea,
-- timestamp with time zone.

-- User scenarios: the contract document as the user built it (JSON text, canonical key order kept).
create table scenario (
    id          varchar(64)  not null primary key,
    name        varchar(500) not null,
    document    text         not null,
    created_at  timestamp with time zone not null,
    updated_at  timestamp with time zone not null,
    version     bigint       not null
);

-- One submitted run. The queue itself is db-scheduler's table below; this row is what users see.
-- status: queued | running | done | failed | cancelled
create table run (
    id               varchar(64)  not null primary key,
    scenario_id      varchar(64),
    scenario_name    varchar(500) not null,
    scenario_json    text         not null,
    seed             bigint,
    repeats          integer      not null,
    status           varchar(16)  not null,
    progress         double precision not null,
    simulated_ns     bigint       not null,
    duration_ns      bigint       not null,
    events           bigint       not null,
    wall_ms          bigint       not null,
    error            text,
    cancel_requested boolean      not null,
    attempts         integer      not null,
    worker           varchar(200),
    created_at       timestamp with time zone not null,
    started_at       timestamp with time zone,
    finished_at      timestamp with time zone
);
create index run_status_idx on run (status);
create index run_created_idx on run (created_at);

-- Results, one per repeat (repeat_index 0..repeats-1), the contract's result JSON.
create table run_result (
    run_id        varchar(64) not null,
    repeat_index  integer     not null,
    result_json   text        not null,
    primary key (run_id, repeat_index)
);

-- db-scheduler's queue (com.github.kagkarlsson:db-scheduler), portable column types.
create table scheduled_tasks (
    task_name            varchar(100) not null,
    task_instance        varchar(100) not null,
    task_data            bytea,
    execution_time       timestamp with time zone not null,
    picked               boolean      not null,
    picked_by            varchar(200),
    last_success         timestamp with time zone,
    last_failure         timestamp with time zone,
    consecutive_failures integer,
    last_heartbeat       timestamp with time zone,
    version              bigint       not null,
    priority             smallint,
    primary key (task_name, task_instance)
);
create index execution_time_idx on scheduled_tasks (execution_time);
create index last_heartbeat_idx on scheduled_tasks (last_heartbeat);
create index priority_execution_time_idx on scheduled_tasks (priority desc, execution_time asc);
