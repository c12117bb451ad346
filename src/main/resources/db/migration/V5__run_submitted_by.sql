-- Who submitted a run (the client's remote address), so that one client cannot fill the bounded queue
-- (cfslab.runs.queue.max-per-client). Null for runs submitted before this column and by the service itself.
alter table run add column submitted_by varchar(200);
create index run_status_submitted_by_idx on run (status, submitted_by);
