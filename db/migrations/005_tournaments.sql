-- 005_tournaments.sql — schema version 5: tournaments and their
-- participants; the players, round and failure detail of each game.
--
-- Why: `dama tournament` plays many players (dama weight sets and external
-- Hub engines) against each other and resumes by the missing games. A
-- tournament's run had kind 'match' here; step 7 gives it kind 'tournament'.

-- A tournament: one run (kind 'match') with its participants.
CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL UNIQUE REFERENCES runs(id),
    name        TEXT,
    format      TEXT NOT NULL CHECK (format IN ('round-robin', 'gauntlet')),
    rounds      INTEGER NOT NULL CHECK (rounds >= 1),
    games_total INTEGER,
    created     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
-- Its players: in-process dama engines (kind 'dama', spec = weights) or
-- external Hub engines (kind 'hub', spec = command).
CREATE TABLE participants (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    idx           INTEGER NOT NULL CHECK (idx >= 0),
    name          TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('dama', 'hub')),
    spec          TEXT NOT NULL,
    limits        TEXT,
    weight_set    INTEGER REFERENCES weight_sets(id),
    UNIQUE (tournament_id, idx),
    UNIQUE (tournament_id, name)
);
ALTER TABLE games ADD COLUMN white_player INTEGER REFERENCES participants(id);
ALTER TABLE games ADD COLUMN black_player INTEGER REFERENCES participants(id);
ALTER TABLE games ADD COLUMN round INTEGER;
-- What a failing engine wrote (reason 'crash', 'timeout', 'illegal-move').
ALTER TABLE games ADD COLUMN detail TEXT;
