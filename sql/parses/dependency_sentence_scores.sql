-- dependency_sentence_scores: per dependency run and gold sentence, the counts of the CoNLL 2018 word
-- metrics and their F1, and the mean dependency LA: MaltEval's per-sentence view, and the unit that
-- `evalhouse analyze` resamples for intervals and paired tests. The counts of a run's sentences sum to its
-- totals in dependency_metrics.
-- Grain: corpus x team x run x sentence.
-- A system word counts in the sentence of its aligned gold word, else in the gold sentence in which its
-- token starts (dependency_system_words.gold_sentence): a parser's own sentence boundaries do not change
-- which gold sentence its words are scored in. F1 = 2 correct / (gold + system), NULL when both are 0.
-- Key: (corpus, team, run, sentence).
-- Upstream: dependency_gold_words, dependency_system_words.
CREATE OR REPLACE VIEW dependency_sentence_scores AS
WITH gold_counts AS (
    SELECT corpus, team, run, sentence,
           count(*) AS gold_words,
           count(system_index) AS aligned_words,
           count(*) FILTER (WHERE content) AS gold_content_words,
           count(*) FILTER (WHERE head_correct) AS uas_correct,
           count(*) FILTER (WHERE label_correct) AS las_correct,
           count(*) FILTER (WHERE clas_correct) AS clas_correct,
           count(*) FILTER (WHERE mlas_correct) AS mlas_correct,
           count(*) FILTER (WHERE blex_correct) AS blex_correct,
           sum(la) AS la_sum,
           avg(la) AS la_gold_mean
    FROM dependency_gold_words
    GROUP BY corpus, team, run, sentence
), system_counts AS (
    SELECT corpus, team, run, gold_sentence AS sentence,
           count(*) AS system_words,
           count(*) FILTER (WHERE content) AS system_content_words
    FROM dependency_system_words
    GROUP BY corpus, team, run, gold_sentence
), counts AS (
    SELECT g.*, coalesce(s.system_words, 0) AS system_words,
           coalesce(s.system_content_words, 0) AS system_content_words
    FROM gold_counts AS g
    LEFT JOIN system_counts AS s
        ON s.corpus = g.corpus AND s.team = g.team AND s.run = g.run AND s.sentence = g.sentence
), final AS (
    SELECT corpus, team, run, sentence,
           CAST(gold_words AS BIGINT) AS gold_words, CAST(system_words AS BIGINT) AS system_words,
           CAST(aligned_words AS BIGINT) AS aligned_words,
           CAST(gold_content_words AS BIGINT) AS gold_content_words,
           CAST(system_content_words AS BIGINT) AS system_content_words,
           CAST(uas_correct AS BIGINT) AS uas_correct, CAST(las_correct AS BIGINT) AS las_correct,
           CAST(clas_correct AS BIGINT) AS clas_correct, CAST(mlas_correct AS BIGINT) AS mlas_correct,
           CAST(blex_correct AS BIGINT) AS blex_correct,
           CASE WHEN gold_words + system_words > 0
                THEN CAST(2 * uas_correct AS DOUBLE) / (gold_words + system_words) END AS uas_f1,
           CASE WHEN gold_words + system_words > 0
                THEN CAST(2 * las_correct AS DOUBLE) / (gold_words + system_words) END AS las_f1,
           CASE WHEN gold_content_words + system_content_words > 0
                THEN CAST(2 * clas_correct AS DOUBLE) / (gold_content_words + system_content_words) END AS clas_f1,
           CASE WHEN gold_content_words + system_content_words > 0
                THEN CAST(2 * mlas_correct AS DOUBLE) / (gold_content_words + system_content_words) END AS mlas_f1,
           CASE WHEN gold_content_words + system_content_words > 0
                THEN CAST(2 * blex_correct AS DOUBLE) / (gold_content_words + system_content_words) END AS blex_f1,
           CAST(la_sum AS DOUBLE) AS la_sum,
           CAST(la_gold_mean AS DOUBLE) AS la_gold_mean
    FROM counts
)
SELECT * FROM final;

COMMENT ON VIEW dependency_sentence_scores IS 'Per dependency run and gold sentence: CoNLL 2018 word counts (gold, system, aligned, content words, correct under UAS, LAS, CLAS, MLAS, BLEX), their F1 and the mean dependency LA. Grain: corpus x team x run x sentence.';
COMMENT ON COLUMN dependency_sentence_scores.corpus IS 'Corpus of the dependency run (dependency_runs.corpus).';
COMMENT ON COLUMN dependency_sentence_scores.team IS 'Team of the run (parser).';
COMMENT ON COLUMN dependency_sentence_scores.run IS 'Run name within the team.';
COMMENT ON COLUMN dependency_sentence_scores.sentence IS '1-based position of the gold sentence.';
COMMENT ON COLUMN dependency_sentence_scores.gold_words IS 'Gold words of the sentence.';
COMMENT ON COLUMN dependency_sentence_scores.system_words IS 'System words counted in the sentence (see the header).';
COMMENT ON COLUMN dependency_sentence_scores.aligned_words IS 'Gold words of the sentence aligned to a system word.';
COMMENT ON COLUMN dependency_sentence_scores.gold_content_words IS 'Gold words with a content relation (CLAS, MLAS, BLEX recall).';
COMMENT ON COLUMN dependency_sentence_scores.system_content_words IS 'System words with a content relation (CLAS, MLAS, BLEX precision).';
COMMENT ON COLUMN dependency_sentence_scores.uas_correct IS 'Gold words with the right head.';
COMMENT ON COLUMN dependency_sentence_scores.las_correct IS 'Gold words with the right head and relation.';
COMMENT ON COLUMN dependency_sentence_scores.clas_correct IS 'Gold words correct under CLAS.';
COMMENT ON COLUMN dependency_sentence_scores.mlas_correct IS 'Gold words correct under MLAS.';
COMMENT ON COLUMN dependency_sentence_scores.blex_correct IS 'Gold words correct under BLEX.';
COMMENT ON COLUMN dependency_sentence_scores.uas_f1 IS '2 uas_correct / (gold_words + system_words).';
COMMENT ON COLUMN dependency_sentence_scores.las_f1 IS '2 las_correct / (gold_words + system_words).';
COMMENT ON COLUMN dependency_sentence_scores.clas_f1 IS '2 clas_correct / (gold_content_words + system_content_words).';
COMMENT ON COLUMN dependency_sentence_scores.mlas_f1 IS '2 mlas_correct / (gold_content_words + system_content_words).';
COMMENT ON COLUMN dependency_sentence_scores.blex_f1 IS '2 blex_correct / (gold_content_words + system_content_words).';
COMMENT ON COLUMN dependency_sentence_scores.la_sum IS 'Sum of the dependency LA of the sentence''s gold words (unaligned 0): with gold_words, what the resampled LA mean pools.';
COMMENT ON COLUMN dependency_sentence_scores.la_gold_mean IS 'Mean dependency LA of the sentence''s gold words (unaligned 0).';
