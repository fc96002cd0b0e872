-- 001_initial.sql — dama's database schema, version 1, as first released.
--
-- Kept as the start of the migration history and as a test fixture (the
-- schema test builds a database from this file plus every later step and
-- compares it with one made from db/schema.sql; the CLI tests make version-1
-- databases from it). dama itself never runs it: a new database is made from
-- db/schema.sql, the current schema. Never edit a released step.
--
-- Conventions: times are UTC ISO 8601 text ('2024-05-01T12:00:00Z'); seeds
-- are 64-bit unsigned values stored as the bit pattern of a signed INTEGER
-- (values >= 2^63 read back negative in sqlite3); scores are centi-men from
-- White's view; results are from White's view; weight sets are plain text so
-- that sqlite3 alone can read them.

-- One invocation of a long job: a self-play batch, a tuning run, a match.
CREATE TABLE runs (
    id       INTEGER PRIMARY KEY,
    kind     TEXT NOT NULL CHECK (kind IN ('selfplay', 'tune', 'match')),
    game     TEXT NOT NULL,                       -- 'russian', 'turkish', 'shatra'
    created  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    finished TEXT,                                -- NULL while running
    status   TEXT NOT NULL DEFAULT 'running'
             CHECK (status IN ('running', 'done', 'interrupted')),
    seed     INTEGER,
    config   TEXT,                                -- effective configuration, as text
    note     TEXT
);

-- Evaluation weights with their lineage.
CREATE TABLE weight_sets (
    id        INTEGER PRIMARY KEY,
    game      TEXT NOT NULL,
    name      TEXT,
    parent_id INTEGER REFERENCES weight_sets(id),
    how       TEXT NOT NULL,   -- 'compiled-in', 'perturbed from 3 seed=.. delta=..', 'tuned by tuning run 2'
    run_id    INTEGER REFERENCES runs(id),
    created   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    terms     TEXT NOT NULL,   -- comma-separated weight names, one per weight (validated on load)
    weights   TEXT NOT NULL    -- comma-separated int32 values, same order as terms
);

-- One played game. game_index numbers the games of a run from 0; self-play
-- game i is seeded from (run seed, i), so a run resumes by the missing indices.
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

-- A match between two weight sets; counts from A's view.
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
    created     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
