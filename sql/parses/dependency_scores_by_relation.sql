-- dependency_scores_by_relation: per dependency run and gold relation (universal part), how many gold
-- words carry it, the share with the right head (UAS recall), right head and relation (LAS recall),
-- and the mean dependency LA, on a 0-1 scale.
-- Grain: corpus x team x run x relation.
-- Upstream: dependency_word_scores.
CREATE OR REPLACE VIEW dependency_scores_by_relation AS
WITH words AS (
    SELECT * FROM dependency_word_scores
), final AS (
    SELECT team, run, corpus, relation,
           count(*)::INTEGER AS gold_words,
           avg(head_correct::INTEGER)::DOUBLE AS uas_recall,
           avg(label_correct::INTEGER)::DOUBLE AS las_recall,
           avg(la)::DOUBLE AS la_gold_mean
    FROM words
    GROUP BY team, run, corpus, relation
)
SELECT * FROM final;

COMMENT ON VIEW dependency_scores_by_relation IS 'Per dependency run and gold relation: UAS and LAS recall and mean dependency LA, 0-1 scale. Grain: corpus x team x run x relation.';
COMMENT ON COLUMN dependency_scores_by_relation.relation IS 'Gold relation, universal part.';
COMMENT ON COLUMN dependency_scores_by_relation.las_recall IS 'Gold words of this relation with the right head and relation / gold words of this relation.';
COMMENT ON COLUMN dependency_scores_by_relation.la_gold_mean IS 'Mean dependency LA of the gold words of this relation (unaligned = 0).';
COMMENT ON COLUMN dependency_scores_by_relation.team IS 'Team of the candidate run (parser).';
COMMENT ON COLUMN dependency_scores_by_relation.run IS 'Run name within the team.';
COMMENT ON COLUMN dependency_scores_by_relation.corpus IS 'Corpus of the dependency run (dependency_runs.corpus).';
COMMENT ON COLUMN dependency_scores_by_relation.gold_words IS 'Gold words with this relation.';
COMMENT ON COLUMN dependency_scores_by_relation.uas_recall IS 'Gold words of this relation with the right head / gold words of this relation.';
