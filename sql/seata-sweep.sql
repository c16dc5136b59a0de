-- seata-sweep.sql: deletes the global sessions a Seata TC (server 2.0.x, `db` store, sql/seata-server.sql) ended
-- but could not delete, which no TC will ever delete.
--
-- How such a row comes about: a TC writes a session's final status, then deletes the row. When the database goes
-- away between the two (MariaDB killed at that moment, docs/failures.md), the row stays in
-- `global_table` with a final status and no branch left. The TCs' retry tasks pick up rows in `Committed` (and
-- finish deleting them) but never `Rollbacked`, `TimeoutRollbacked` or `Finished` ones, so such a row stays for
-- good: the console lists it, and the inventory reconciler reports it as OVERDUE_GLOBAL_SESSION.
--
-- What it deletes: rows of `global_table` in status Rollbacked (11), TimeoutRollbacked (13) or Finished (15), with no
-- row left in `branch_table`, last modified at least @min_age_seconds ago (300 when unset; a TC deletes such a row
-- milliseconds after writing the status), and any `lock_table` rows of those XIDs. Nothing of such a transaction is
-- left to do: no branch waits for a phase. Sessions in any other status, or with branches, are never touched
-- (`CommitFailed`, `RollbackFailed`, `TimeoutRollbackFailed` and the retry timeouts need a person: docs/failures.md,
-- "Sessions the coordinator does not finish").
--
-- Run by hand on the TC's database: bin/seata-sweep. The drills and bin/chaos run it while a sale settles
-- (flash-sale's StateReader, statement by statement as separated by the lines ending in ';'), and print what it
-- deleted. Common SQL of MySQL 8 and MariaDB 10.11; safe to run at any time and any number of times.

SET @min_age_seconds = COALESCE(@min_age_seconds, 300);
-- one cutoff for every statement below, so that what is listed is what is deleted
SET @cutoff = NOW() - INTERVAL @min_age_seconds SECOND;

-- what will go, for the log
SELECT g.xid, g.status, g.gmt_modified FROM global_table g
WHERE g.status IN (11, 13, 15) AND g.gmt_modified < @cutoff
  AND NOT EXISTS (SELECT 1 FROM branch_table b WHERE b.xid = g.xid);

DELETE FROM lock_table
WHERE xid IN (SELECT g.xid FROM global_table g
              WHERE g.status IN (11, 13, 15) AND g.gmt_modified < @cutoff
                AND NOT EXISTS (SELECT 1 FROM branch_table b WHERE b.xid = g.xid));

DELETE FROM global_table
WHERE status IN (11, 13, 15) AND gmt_modified < @cutoff
  AND NOT EXISTS (SELECT 1 FROM branch_table b WHERE b.xid = global_table.xid);
