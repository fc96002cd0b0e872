-- 004_sprt_decision.sql — schema version 4: the SPRT's decision kept apart
-- from the final LLR.
--
-- Why: when the SPRT decides, the game pairs under way are still finished
-- and counted in matches.llr; the LLR and the pair count at the decision
-- itself are kept here.

ALTER TABLE matches ADD COLUMN sprt_llr REAL;      -- LLR when the SPRT decided, NULL while undecided
ALTER TABLE matches ADD COLUMN sprt_pairs INTEGER; -- pairs counted at that decision
