-- 010_run_owners.sql — schema version 10: one writer a run, for every kind
-- of run.
--
-- Why: two copies of a command started together both created or resumed
-- the same run (issue 31). A command now finds or makes its run and takes
-- it in one BEGIN IMMEDIATE transaction, writing itself in as the owner;
-- a run whose owner is alive is refused. Trains and SPSA runs get the owner
-- columns runs have had since step 3, and all three the time the owner took
-- the row (owner_since, UTC), which the refusal names.

ALTER TABLE runs ADD COLUMN owner_since TEXT;
ALTER TABLE trains ADD COLUMN owner_pid INTEGER;
ALTER TABLE trains ADD COLUMN owner_host TEXT;
ALTER TABLE trains ADD COLUMN owner_start INTEGER;
ALTER TABLE trains ADD COLUMN owner_since TEXT;
ALTER TABLE spsa_runs ADD COLUMN owner_pid INTEGER;
ALTER TABLE spsa_runs ADD COLUMN owner_host TEXT;
ALTER TABLE spsa_runs ADD COLUMN owner_start INTEGER;
ALTER TABLE spsa_runs ADD COLUMN owner_since TEXT;
