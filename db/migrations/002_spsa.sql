-- 002_spsa.sql — schema version 2: SPSA runs and their iterations.
--
-- Why: `dama spsa` tunes search parameters by simultaneous perturbation
-- stochastic approximation; a run is resumed from its last stored
-- iteration (resume key: game, seed, config), so every iteration's result
-- and parameter values are kept.

CREATE TABLE spsa_runs (
    id         INTEGER PRIMARY KEY,
    game       TEXT NOT NULL,
    base_ws    INTEGER REFERENCES weight_sets(id),
    result_ws  INTEGER REFERENCES weight_sets(id),
    seed       INTEGER,
    config     TEXT,                  -- effective configuration (resume key with game, seed)
    params     TEXT NOT NULL,         -- one line per parameter: name min max c_end r_end start
    iterations INTEGER NOT NULL CHECK (iterations >= 1),
    pairs      INTEGER NOT NULL CHECK (pairs >= 1), -- game pairs per iteration
    a_const    REAL,                  -- stability constant A
    alpha      REAL,
    gamma      REAL,
    status     TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'interrupted')),
    created    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    finished   TEXT
);
CREATE TABLE spsa_iterations (
    spsa_run_id INTEGER NOT NULL REFERENCES spsa_runs(id),
    iter        INTEGER NOT NULL CHECK (iter >= 1),
    wins        INTEGER,              -- games won by theta+ (theta+ - theta- per pair in result)
    draws       INTEGER,
    losses      INTEGER,
    result      INTEGER,              -- theta+ points minus theta- points, all pairs
    theta       TEXT NOT NULL,        -- values after this iteration, %.17g, params order
    created     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (spsa_run_id, iter)
);
