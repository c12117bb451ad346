-- A run's pace (issue 12): simulated seconds per wall-clock second, so that a person can watch a short
-- simulation grow (10 = ten times real time). Null: as fast as possible. Only the runner's live hook reads it;
-- it never changes a result.
alter table run add column pace double precision;
