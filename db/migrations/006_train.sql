-- 006_train.sql — schema version 6: trains and their generations.
--
-- Why: `dama train` chains self-play, tuning and gate matches into gated
-- generations and resumes where it stopped: one row per train (its
-- configuration is the resume key) and one per generation (the next stage).

-- A `dama train` run: gated generations of one game. Rerunning the same
-- command (same game, seed and configuration) resumes it.
CREATE TABLE trains (
    id          INTEGER PRIMARY KEY,
    game        TEXT NOT NULL,
    seed        INTEGER,
    config      TEXT NOT NULL,                -- effective configuration that identifies the train
    start_ws    INTEGER NOT NULL REFERENCES weight_sets(id), -- generation 0
    generations INTEGER,                      -- generations asked for by the last invocation
    status      TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'interrupted')),
    created     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    finished    TEXT                          -- NULL while running
);
-- One generation: self-play with the best weights so far (parent_ws),
-- a candidate tuned on a window of recent generations' self-play data,
-- a gate match candidate vs parent, and for an accepted candidate a
-- ladder match against generation 0. Generation 0 is the start weights
-- (accepted, ladder Elo 0). Elo: logistic, from the candidate's view,
-- with the 95% interval of the pentanomial model.
CREATE TABLE generations (
    id                INTEGER PRIMARY KEY,
    train_id          INTEGER NOT NULL REFERENCES trains(id),
    game              TEXT NOT NULL,
    generation        INTEGER NOT NULL CHECK (generation >= 0),
    stage             TEXT NOT NULL CHECK (stage IN ('selfplay', 'tune', 'gate', 'ladder', 'done')),
                                              -- the next stage to run; 'done' when complete
    parent_generation INTEGER,                -- generation whose best weights this one started from (NULL for 0)
    parent_ws         INTEGER REFERENCES weight_sets(id), -- the best weights at the start: played self-play, gated against
    selfplay_run      INTEGER REFERENCES runs(id), -- this generation's self-play run
    data_runs         TEXT,                   -- self-play runs the candidate was tuned on (comma-separated ids)
    tuning_run        INTEGER REFERENCES tuning_runs(id),
    candidate_ws      INTEGER REFERENCES weight_sets(id), -- the tuned candidate (generation 0: the start weights)
    gate_match        INTEGER REFERENCES matches(id), -- candidate (A) vs parent (B), SPRT
    gate_elo          REAL,                   -- Elo of candidate vs parent in the gate match
    gate_elo_lo       REAL,
    gate_elo_hi       REAL,
    gate_games        INTEGER,
    accepted          INTEGER CHECK (accepted IN (0, 1)), -- NULL until the gate decided
    reason            TEXT,                   -- why accepted or not (SPRT verdict, LLR, pairs)
    best_ws           INTEGER REFERENCES weight_sets(id), -- best weights after this generation
    ladder_match      INTEGER REFERENCES matches(id), -- candidate (A) vs generation 0 (B)
    ladder_elo        REAL,                   -- Elo vs generation 0 (accepted generations; 0 for generation 0)
    ladder_elo_lo     REAL,
    ladder_elo_hi     REAL,
    ladder_games      INTEGER,
    created           TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    finished          TEXT,                   -- when stage became 'done'
    UNIQUE (train_id, generation)
);
