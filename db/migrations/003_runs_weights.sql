-- 003_runs_weights.sql — schema version 3: run owners, weight-set content
-- hashes, and the member weight sets of a run in their own table.
--
-- Why: a run left 'running' by a process that died must be told from one
-- still under way (owner_pid, owner_host, owner_start: the process and its
-- start time, so a reused pid is not mistaken for the owner); weight sets are
-- identified by their content (hash), so equal contents share one row and
-- weight_sets.run_id (the run that first stored a set) no longer lists a
-- run's members: run_weight_sets does.
--
-- Needs the SQL function dama_weights_hash(game, terms, weights), which
-- db.c registers on every connection (db_weights_hash of the stored text).

ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
ALTER TABLE runs ADD COLUMN owner_host TEXT;
ALTER TABLE runs ADD COLUMN owner_start INTEGER;
ALTER TABLE weight_sets ADD COLUMN hash TEXT;
UPDATE weight_sets SET hash = dama_weights_hash(game, terms, weights);
CREATE INDEX weight_sets_hash ON weight_sets(game, hash);
CREATE TABLE run_weight_sets (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    member INTEGER NOT NULL CHECK (member >= 0),
    ws_id  INTEGER NOT NULL REFERENCES weight_sets(id),
    PRIMARY KEY (run_id, member)
);
INSERT INTO run_weight_sets(run_id, member, ws_id)
    SELECT run_id, row_number() OVER (PARTITION BY run_id ORDER BY id) - 1, id
    FROM weight_sets WHERE run_id IS NOT NULL;
