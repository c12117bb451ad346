-- One row that every admission of a client's runs locks (SELECT ... FOR UPDATE) in the transaction that counts the
-- queued runs and inserts the new ones (issue 13: concurrent submissions to two instances sharing a database were
-- counted before either had inserted, and 52 runs were accepted against a bound of 50). The lock makes the count and
-- the insert one step across instances; a second admission waits for the first one's commit, then counts again.
create table queue_admission (id int primary key);
insert into queue_admission (id) values (1);
