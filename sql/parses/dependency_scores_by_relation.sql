-- dependency_scores_by_relation: per dependency run and universal relation, UAS, LAS and label accuracy with
-- precision (system words carrying the relation), recall (gold words carrying it) and F1, and the mean
-- dependency LA of the gold words: the 'relation' rows of dependency_breakdowns, with the relation named.
-- Grain: corpus x team x run x relation.
-- Key: (corpus, team, run, relation).
-- Upstream: dependency_breakdowns.
CREATE OR REPLACE VIEW dependency_scores_by_relation AS
WITH breakdown AS (
    SELECT * FROM dependency_breakdowns WHERE breakdown = 'relation'
), final AS (
    SELECT team, run, corpus, grp AS relation,
           gold_words, system_words,
           uas_precision, uas_recall, uas_f1,
           las_precision, las_recall, las_f1,
           label_precision, label_recall, label_f1,
           la_gold_mean
    FROM breakdown
)
SELECT * FROM final;

COMMENT ON VIEW dependency_scores_by_relation IS 'Per dependency run and universal relation: UAS, LAS and label accuracy (precision over system words with the relation, recall over gold words with it, F1) and mean dependency LA, 0-1 scale. Grain: corpus x team x run x relation.';
COMMENT ON COLUMN dependency_scores_by_relation.team IS 'Team of the candidate run (parser).';
COMMENT ON COLUMN dependency_scores_by_relation.run IS 'Run name within the team.';
COMMENT ON COLUMN dependency_scores_by_relation.corpus IS 'Corpus of the dependency run (dependency_runs.corpus).';
COMMENT ON COLUMN dependency_scores_by_relation.relation IS 'Universal relation (gold side for recall, system side for precision).';
COMMENT ON COLUMN dependency_scores_by_relation.gold_words IS 'Gold words with this relation.';
COMMENT ON COLUMN dependency_scores_by_relation.system_words IS 'System words with this relation.';
COMMENT ON COLUMN dependency_scores_by_relation.uas_precision IS 'System words of this relation with the right head / system words of this relation.';
COMMENT ON COLUMN dependency_scores_by_relation.uas_recall IS 'Gold words of this relation with the right head / gold words of this relation.';
COMMENT ON COLUMN dependency_scores_by_relation.uas_f1 IS '2PR / (P + R) of UAS.';
COMMENT ON COLUMN dependency_scores_by_relation.las_precision IS 'System words of this relation with the right head and relation / system words of this relation.';
COMMENT ON COLUMN dependency_scores_by_relation.las_recall IS 'Gold words of this relation with the right head and relation / gold words of this relation.';
COMMENT ON COLUMN dependency_scores_by_relation.las_f1 IS '2PR / (P + R) of LAS.';
COMMENT ON COLUMN dependency_scores_by_relation.label_precision IS 'System words of this relation aligned to a gold word of this relation / system words of this relation.';
COMMENT ON COLUMN dependency_scores_by_relation.label_recall IS 'Gold words of this relation aligned to a system word of this relation / gold words of this relation.';
COMMENT ON COLUMN dependency_scores_by_relation.label_f1 IS '2PR / (P + R) of the label accuracy.';
COMMENT ON COLUMN dependency_scores_by_relation.la_gold_mean IS 'Mean dependency LA of the gold words of this relation (unaligned = 0).';
