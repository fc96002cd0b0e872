-- 009_weight_deltas.sql — schema version 9: a weight set stored as a delta
-- of its parent.
--
-- Why: a self-play member differs from its base in a few dozen of 118,184
-- weights. delta = 1: parent_id's values, resolved, with the weights named
-- in terms set to the values in weights. The content hash stays that of the
-- resolved set.

ALTER TABLE weight_sets ADD COLUMN delta INTEGER NOT NULL DEFAULT 0 CHECK (delta IN (0, 1));
