-- 011_time_used.sql — schema version 11: the time each side used.
--
-- Why: equal settings are not equal time (issue 32). Two engines given the
-- same --movetime may use quite different time, so a strength figure
-- needs the time each side actually used next to it. A game now keeps,
-- per colour, the moves that side made and the wall and CPU seconds its
-- player used for them (the CPU time of a Hub engine is that of its
-- process tree); `dama match` and `dama tournament` print each side's
-- mean per move from these sums, so a resumed match prints the totals of
-- all its games. Games stored before this step, and games that were not
-- timed, have NULL there.

ALTER TABLE games ADD COLUMN white_moves INTEGER CHECK (white_moves >= 0);
ALTER TABLE games ADD COLUMN black_moves INTEGER CHECK (black_moves >= 0);
ALTER TABLE games ADD COLUMN white_wall_s REAL CHECK (white_wall_s >= 0);
ALTER TABLE games ADD COLUMN black_wall_s REAL CHECK (black_wall_s >= 0);
ALTER TABLE games ADD COLUMN white_cpu_s REAL CHECK (white_cpu_s >= 0);
ALTER TABLE games ADD COLUMN black_cpu_s REAL CHECK (black_cpu_s >= 0);
