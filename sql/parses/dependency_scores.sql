-- dependency_scores: per dependency run, CoNLL 2018 UAS and LAS (precision, recall, F1; the official
-- figure is F1) beside the dependency leaf-ancestor score, on a 0-1 scale.
-- Grain: corpus x team x run.
-- la_gold_mean averages over gold words (unaligned words count 0); la_aligned_mean over aligned words.
-- Upstream: dependency_word_scores, dependency_runs.
CREATE OR REPLACE VIEW dependency_scores AS
WITH words AS (
    SELECT corpus, team, run,
           count(*) AS gold_words,
           count(*) FILTER (WHERE aligned) AS aligned_words,
           count(*) FILTER (WHERE head_correct) AS uas_correct,
           count(*) FILTER (WHERE label_correct) AS las_correct,
           avg(la) AS la_gold_mean,
           avg(la) FILTER (WHERE aligned) AS la_aligned_mean
    FROM dependency_word_scores
    GROUP BY corpus, team, run
), final AS (
    SELECT w.team, w.run, w.corpus,
           w.gold_words, r.system_words, w.aligned_words,
           (w.uas_correct / r.system_words)::DOUBLE AS uas_precision,
           (w.uas_correct / w.gold_words)::DOUBLE AS uas_recall,
           (2 * w.uas_correct / (w.gold_words + r.system_words))::DOUBLE AS uas_f1,
           (w.las_correct / r.system_words)::DOUBLE AS las_precision,
           (w.las_correct / w.gold_words)::DOUBLE AS las_recall,
           (2 * w.las_correct / (w.gold_words + r.system_words))::DOUBLE AS las_f1,
           w.la_gold_mean::DOUBLE AS la_gold_mean,
           w.la_aligned_mean::DOUBLE AS la_aligned_mean,
           r.config
    FROM words AS w
    JOIN dependency_runs AS r USING (corpus, team, run)
)
SELECT * FROM final;

COMMENT ON VIEW dependency_scores IS 'Per dependency run: CoNLL 2018 UAS/LAS (precision, recall, F1 = the official score) beside dependency leaf-ancestor, 0-1 scale. Grain: corpus x team x run.';
COMMENT ON COLUMN dependency_scores.uas_f1 IS 'Official CoNLL 2018 UAS: 2 correct / (gold words + system words).';
COMMENT ON COLUMN dependency_scores.las_f1 IS 'Official CoNLL 2018 LAS: 2 correct / (gold words + system words), relations compared on their universal part.';
COMMENT ON COLUMN dependency_scores.la_gold_mean IS 'Dependency LA averaged over gold words, an unaligned word scoring 0.';
COMMENT ON COLUMN dependency_scores.la_aligned_mean IS 'Dependency LA averaged over aligned gold words only.';
COMMENT ON COLUMN dependency_scores.team IS 'Team of the candidate run (parser).';
COMMENT ON COLUMN dependency_scores.run IS 'Run name within the team.';
COMMENT ON COLUMN dependency_scores.corpus IS 'Corpus of the dependency run (dependency_runs.corpus).';
COMMENT ON COLUMN dependency_scores.gold_words IS 'Words of the gold file.';
COMMENT ON COLUMN dependency_scores.system_words IS 'Words of the system file.';
COMMENT ON COLUMN dependency_scores.aligned_words IS 'Gold words aligned to a system word (CoNLL 2018 character-based alignment).';
COMMENT ON COLUMN dependency_scores.uas_precision IS 'Words with the right head / system words.';
COMMENT ON COLUMN dependency_scores.uas_recall IS 'Words with the right head / gold words.';
COMMENT ON COLUMN dependency_scores.las_precision IS 'Words with the right head and relation / system words.';
COMMENT ON COLUMN dependency_scores.las_recall IS 'Words with the right head and relation / gold words.';
COMMENT ON COLUMN dependency_scores.config IS 'Configuration of the run''s scoring (dependency_runs.config).';
