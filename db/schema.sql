-- schema.sql — dama's database schema, complete, at the current version
-- (PRAGMA user_version = 11, set at the end of this file).
--
-- What a new database gets: embedded into the binary at build time
-- (cmake/embed_text.cmake) and applied by db.c inside BEGIN IMMEDIATE, which
-- sets PRAGMA user_version and PRAGMA application_id = 0x44414D41 ('DAMA')
-- in the same transaction. `sqlite3 FILE < db/schema.sql` makes the same
-- database by hand.
--
-- An older database is brought here step by step by db/migrations/NNN_*.sql
-- (001_initial.sql is version 1). A schema change is a new numbered step
-- there AND the same change here, with DB_SCHEMA_VERSION (db/db.h) and the
-- user_version below raised by one; tests/test_schema.c checks that a
-- database made from version 1 plus every step equals one made from this
-- file (tables, columns, constraints, indexes, triggers). Columns added by
-- a step come after the older ones, as ALTER TABLE ADD COLUMN puts them.
--
-- Conventions: times are UTC ISO 8601 text ('2024-05-01T12:00:00Z'); seeds
-- are 64-bit unsigned values stored as the bit pattern of a signed INTEGER
-- (values >= 2^63 read back negative in sqlite3); scores are centi-men from
-- White's view; results are from White's view; weight sets are plain text so
-- that sqlite3 alone can read them. The number after a table's comment is
-- the schema version that made it (or its newest column).

-- One invocation of a long job: a self-play batch, a tuning run, a match, a
-- tournament. owner_*: the process that runs it, so that a run left
-- 'running' by a dead process is marked 'interrupted' (3; kind 'tournament'
-- since 7), and a second process refused while it lives (owner_since, 10).
CREATE TABLE runs (
    id       INTEGER PRIMARY KEY,
    kind     TEXT NOT NULL CHECK (kind IN ('selfplay', 'tune', 'match', 'tournament')),
    game     TEXT NOT NULL,                       -- the game's registry name ('russian', ...)
    created  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    finished TEXT,                                -- NULL while running
    status   TEXT NOT NULL DEFAULT 'running'
             CHECK (status IN ('running', 'done', 'interrupted')),
    seed     INTEGER,
    config   TEXT,                                -- effective configuration, as text
    note     TEXT,
    owner_pid INTEGER,                            -- the owner's process id; NULL: unknown (made before 3)
    owner_host TEXT,                              -- its host name
    owner_start INTEGER,                          -- its start time (tells a reused pid apart)
    owner_since TEXT                              -- when it took the run (10)
);

-- Evaluation weights with their lineage, identified by their content (hash,
-- 3); a set may be stored as a delta of its parent (9).
CREATE TABLE weight_sets (
    id        INTEGER PRIMARY KEY,
    game      TEXT NOT NULL,
    name      TEXT,
    parent_id INTEGER REFERENCES weight_sets(id),
    how       TEXT NOT NULL,   -- 'compiled-in', 'perturbed from 3 seed=.. delta=..', 'tuned by tuning run 2'
    run_id    INTEGER REFERENCES runs(id), -- the run that first stored it (a run's members: run_weight_sets)
    created   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    terms     TEXT NOT NULL,   -- comma-separated weight names, one per weight (validated on load)
    weights   TEXT NOT NULL,   -- comma-separated int32 values, same order as terms
    hash      TEXT,            -- FNV-1a 64 (hex) of the resolved set: db_weights_hash
    delta     INTEGER NOT NULL DEFAULT 0 CHECK (delta IN (0, 1))
                               -- 1: parent_id's values, resolved, with the weights named in terms set to weights
);
CREATE INDEX weight_sets_hash ON weight_sets(game, hash);

-- The member weight sets of a run, in member order (equal contents share one
-- weight_sets row) (3).
CREATE TABLE run_weight_sets (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    member INTEGER NOT NULL CHECK (member >= 0),
    ws_id  INTEGER NOT NULL REFERENCES weight_sets(id),
    PRIMARY KEY (run_id, member)
);

-- One played game. game_index numbers the games of a run from 0; self-play
-- game i is seeded from (run seed, i), so a run resumes by the missing
-- indices. A tournament's game names its players and round (5).
CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL REFERENCES runs(id),
    game_index INTEGER NOT NULL CHECK (game_index >= 0),
    game       TEXT,
    opening    TEXT,                              -- opening label
    start_fen  TEXT,
    white_ws   INTEGER REFERENCES weight_sets(id),
    black_ws   INTEGER REFERENCES weight_sets(id),
    seed       INTEGER,
    result     TEXT CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    reason     TEXT,                              -- 'no-moves', 'D3'..'D8', 'move-cap', 'adjudicated', ...
    plies      INTEGER CHECK (plies >= 0),
    movetext   TEXT,                              -- PDN movetext
    created    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    white_player INTEGER REFERENCES participants(id),
    black_player INTEGER REFERENCES participants(id),
    round INTEGER,
    detail TEXT,                                  -- what a failing engine wrote ('crash', 'timeout', 'illegal-move')
    -- the time each colour used (step 11): its moves and the wall and CPU
    -- seconds its player used for them; NULL when not timed
    white_moves INTEGER CHECK (white_moves >= 0),
    black_moves INTEGER CHECK (black_moves >= 0),
    white_wall_s REAL CHECK (white_wall_s >= 0),
    black_wall_s REAL CHECK (black_wall_s >= 0),
    white_cpu_s REAL CHECK (white_cpu_s >= 0),
    black_cpu_s REAL CHECK (black_cpu_s >= 0),
    UNIQUE (run_id, game_index)                   -- its index also serves lookups by run_id
);
CREATE INDEX games_white_ws ON games(white_ws);
CREATE INDEX games_black_ws ON games(black_ws);

-- Positions of the stored games: the tuner's training data.
CREATE TABLE positions (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply     INTEGER CHECK (ply >= 0),
    fen     TEXT NOT NULL,
    stm     INTEGER CHECK (stm IN (0, 1)),        -- side to move: 0 White, 1 Black
    score   INTEGER,                              -- search score, White's view, centi-men; NULL if none
    result  REAL CHECK (result IN (0, 0.5, 1)),   -- game result, White's view
    quiet   INTEGER CHECK (quiet IN (0, 1))       -- 1 if the side to move has no capture
);
CREATE INDEX positions_game_id ON positions(game_id);

-- One fit of the evaluation weights.
CREATE TABLE tuning_runs (
    id              INTEGER PRIMARY KEY,
    run_id          INTEGER REFERENCES runs(id),
    game            TEXT,
    base_ws         INTEGER REFERENCES weight_sets(id),
    result_ws       INTEGER REFERENCES weight_sets(id),
    k               REAL,                         -- sigmoid scale
    positions_train INTEGER,
    positions_valid INTEGER,
    train_loss      REAL,
    valid_loss      REAL,
    data            TEXT,                         -- which data: the SQL filter, run ids
    created         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE tuning_epochs (
    tuning_run_id INTEGER NOT NULL REFERENCES tuning_runs(id),
    epoch         INTEGER NOT NULL,
    train_loss    REAL,
    valid_loss    REAL,
    PRIMARY KEY (tuning_run_id, epoch)
);

-- A match between two weight sets; counts from A's view. The SPRT's
-- decision is kept apart from the final LLR (4): the pairs under way when it
-- decided are finished and counted in llr.
CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER REFERENCES runs(id),
    game        TEXT,
    ws_a        INTEGER REFERENCES weight_sets(id),
    ws_b        INTEGER REFERENCES weight_sets(id),
    games       INTEGER,
    wins        INTEGER,
    draws       INTEGER,
    losses      INTEGER,
    penta0      INTEGER,                          -- game pairs scoring 0 for A
    penta1      INTEGER,                          -- 0.5
    penta2      INTEGER,                          -- 1
    penta3      INTEGER,                          -- 1.5
    penta4      INTEGER,                          -- 2
    elo         REAL,
    elo_lo      REAL,                             -- 95% interval
    elo_hi      REAL,
    llr         REAL,
    sprt_elo0   REAL,
    sprt_elo1   REAL,
    sprt_alpha  REAL,
    sprt_beta   REAL,
    sprt_result TEXT,                             -- NULL while undecided, e.g. 'H0', 'H1'
    created     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    sprt_llr    REAL,                             -- LLR when the SPRT decided, NULL while undecided
    sprt_pairs  INTEGER                           -- pairs counted at that decision
);

-- SPSA runs (dama spsa) and their iterations (2); owner_* as in runs (10).
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
    finished   TEXT,
    owner_pid  INTEGER,               -- the process that writes it (as runs.owner_*, 10)
    owner_host TEXT,
    owner_start INTEGER,
    owner_since TEXT
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

-- A tournament: one run (kind 'tournament') with its participants (5; the
-- PDN file it appends its games to, an absolute path or NULL, 8).
CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL UNIQUE REFERENCES runs(id),
    name        TEXT,
    format      TEXT NOT NULL CHECK (format IN ('round-robin', 'gauntlet')),
    rounds      INTEGER NOT NULL CHECK (rounds >= 1),
    games_total INTEGER,
    created     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    pdn_out     TEXT
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

-- A `dama train` run: gated generations of one game. Rerunning the same
-- command (same game, seed and configuration) resumes it (6); owner_* as in
-- runs (10).
CREATE TABLE trains (
    id          INTEGER PRIMARY KEY,
    game        TEXT NOT NULL,
    seed        INTEGER,
    config      TEXT NOT NULL,                -- effective configuration that identifies the train
    start_ws    INTEGER NOT NULL REFERENCES weight_sets(id), -- generation 0
    generations INTEGER,                      -- generations asked for by the last invocation
    status      TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'interrupted')),
    created     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    finished    TEXT,                         -- NULL while running
    owner_pid   INTEGER,                      -- the process that writes it (as runs.owner_*, 10)
    owner_host  TEXT,
    owner_start INTEGER,
    owner_since TEXT
);
-- One generation: self-play with the best weights so far (parent_ws),
-- a candidate tuned on a window of recent generations' self-play data,
-- a gate match candidate vs parent, and for an accepted candidate a
-- ladder match against generation 0. Generation 0 is the start weights
-- (accepted, ladder Elo 0). Elo: logistic, from the candidate's view,
-- with the 95% interval of the pentanomial model (6).
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

PRAGMA application_id = 1145130305; -- 0x44414D41, 'DAMA'
PRAGMA user_version = 11;
