-- 007_tournament_runs.sql — schema version 7: runs of kind 'tournament'.
--
-- Why: tournaments were stored as runs of kind 'match'. SQLite cannot change
-- a CHECK constraint in place, so the table is rebuilt
-- (https://www.sqlite.org/lang_altertable.html, "Making Other Kinds Of Table
-- Schema Changes"): db.c runs every step with foreign keys off and checks
-- them before it commits. Every row and column is copied; runs has no index
-- of its own (its rowid serves the lookups).

CREATE TABLE runs_new (
    id       INTEGER PRIMARY KEY,
    kind     TEXT NOT NULL CHECK (kind IN ('selfplay', 'tune', 'match', 'tournament')),
    game     TEXT NOT NULL,                       -- 'russian', 'turkish', 'shatra'
    created  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    finished TEXT,                                -- NULL while running
    status   TEXT NOT NULL DEFAULT 'running'
             CHECK (status IN ('running', 'done', 'interrupted')),
    seed     INTEGER,
    config   TEXT,                                -- effective configuration, as text
    note     TEXT,
    owner_pid INTEGER,
    owner_host TEXT,
    owner_start INTEGER
);
INSERT INTO runs_new(id, kind, game, created, finished, status, seed, config, note, owner_pid, owner_host,
                     owner_start)
    SELECT id, kind, game, created, finished, status, seed, config, note, owner_pid, owner_host, owner_start
    FROM runs;
DROP TABLE runs;
ALTER TABLE runs_new RENAME TO runs;
UPDATE runs SET kind = 'tournament' WHERE id IN (SELECT run_id FROM tournaments);
