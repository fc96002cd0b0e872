-- 008_tournament_pdn.sql — schema version 8: the PDN file a tournament
-- appends its games to.
--
-- Why: a resumed tournament must write to the same file (an absolute path;
-- NULL for none).

ALTER TABLE tournaments ADD COLUMN pdn_out TEXT;
