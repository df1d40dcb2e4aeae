-- dependency_scores: per dependency run, the official CoNLL 2018 scores (F1 of every metric of
-- conll18_ud_eval.py 1.2; precision and recall of UAS and LAS) beside the dependency leaf-ancestor score,
-- on a 0-1 scale: the leaderboard row of a parser. dependency_metrics has every metric's counts,
-- precision, recall and aligned accuracy.
-- Grain: corpus x team x run.
-- la_gold_mean averages over gold words (unaligned words count 0); la_aligned_mean over aligned words.
-- Key: (corpus, team, run).
-- Upstream: dependency_metrics, dependency_gold_words.
CREATE OR REPLACE VIEW dependency_scores AS
WITH metrics AS (
    SELECT * FROM dependency_metrics
), wide AS (
    SELECT corpus, team, run,
           max(CASE WHEN metric = 'Words' THEN gold END) AS gold_words,
           max(CASE WHEN metric = 'Words' THEN system END) AS system_words,
           max(CASE WHEN metric = 'Words' THEN correct END) AS aligned_words,
           max(CASE WHEN metric = 'Tokens' THEN f1 END) AS tokens_f1,
           max(CASE WHEN metric = 'Sentences' THEN f1 END) AS sentences_f1,
           max(CASE WHEN metric = 'Words' THEN f1 END) AS words_f1,
           max(CASE WHEN metric = 'UPOS' THEN f1 END) AS upos_f1,
           max(CASE WHEN metric = 'XPOS' THEN f1 END) AS xpos_f1,
           max(CASE WHEN metric = 'UFeats' THEN f1 END) AS ufeats_f1,
           max(CASE WHEN metric = 'AllTags' THEN f1 END) AS alltags_f1,
           max(CASE WHEN metric = 'Lemmas' THEN f1 END) AS lemmas_f1,
           max(CASE WHEN metric = 'UAS' THEN precision END) AS uas_precision,
           max(CASE WHEN metric = 'UAS' THEN recall END) AS uas_recall,
           max(CASE WHEN metric = 'UAS' THEN f1 END) AS uas_f1,
           max(CASE WHEN metric = 'LAS' THEN precision END) AS las_precision,
           max(CASE WHEN metric = 'LAS' THEN recall END) AS las_recall,
           max(CASE WHEN metric = 'LAS' THEN f1 END) AS las_f1,
           max(CASE WHEN metric = 'CLAS' THEN f1 END) AS clas_f1,
           max(CASE WHEN metric = 'MLAS' THEN f1 END) AS mlas_f1,
           max(CASE WHEN metric = 'BLEX' THEN f1 END) AS blex_f1,
           max(config) AS config
    FROM metrics
    GROUP BY corpus, team, run
), leaf_ancestor AS (
    SELECT corpus, team, run,
           avg(la) AS la_gold_mean,
           avg(CASE WHEN system_index IS NOT NULL THEN la END) AS la_aligned_mean
    FROM dependency_gold_words
    GROUP BY corpus, team, run
), final AS (
    SELECT w.team, w.run, w.corpus,
           w.gold_words, w.system_words, w.aligned_words,
           w.tokens_f1, w.sentences_f1, w.words_f1, w.upos_f1, w.xpos_f1, w.ufeats_f1, w.alltags_f1, w.lemmas_f1,
           w.uas_precision, w.uas_recall, w.uas_f1,
           w.las_precision, w.las_recall, w.las_f1,
           w.clas_f1, w.mlas_f1, w.blex_f1,
           CAST(l.la_gold_mean AS DOUBLE) AS la_gold_mean,
           CAST(l.la_aligned_mean AS DOUBLE) AS la_aligned_mean,
           w.config
    FROM wide AS w
    JOIN leaf_ancestor AS l ON l.corpus = w.corpus AND l.team = w.team AND l.run = w.run
)
SELECT * FROM final;

COMMENT ON VIEW dependency_scores IS 'Per dependency run: the official CoNLL 2018 scores (F1 of every metric; UAS/LAS precision and recall) beside dependency leaf-ancestor, 0-1 scale. Grain: corpus x team x run.';
COMMENT ON COLUMN dependency_scores.team IS 'Team of the candidate run (parser).';
COMMENT ON COLUMN dependency_scores.run IS 'Run name within the team.';
COMMENT ON COLUMN dependency_scores.corpus IS 'Corpus of the dependency run (dependency_runs.corpus).';
COMMENT ON COLUMN dependency_scores.gold_words IS 'Words of the gold file.';
COMMENT ON COLUMN dependency_scores.system_words IS 'Words of the system file.';
COMMENT ON COLUMN dependency_scores.aligned_words IS 'Gold words aligned to a system word (CoNLL 2018 character-based alignment).';
COMMENT ON COLUMN dependency_scores.tokens_f1 IS 'CoNLL 2018 Tokens F1: tokens whose character spans match.';
COMMENT ON COLUMN dependency_scores.sentences_f1 IS 'CoNLL 2018 Sentences F1: sentences whose character spans match.';
COMMENT ON COLUMN dependency_scores.words_f1 IS 'CoNLL 2018 Words F1: aligned words.';
COMMENT ON COLUMN dependency_scores.upos_f1 IS 'CoNLL 2018 UPOS F1.';
COMMENT ON COLUMN dependency_scores.xpos_f1 IS 'CoNLL 2018 XPOS F1.';
COMMENT ON COLUMN dependency_scores.ufeats_f1 IS 'CoNLL 2018 UFeats F1 (universal features).';
COMMENT ON COLUMN dependency_scores.alltags_f1 IS 'CoNLL 2018 AllTags F1 (UPOS, XPOS and universal features).';
COMMENT ON COLUMN dependency_scores.lemmas_f1 IS 'CoNLL 2018 Lemmas F1.';
COMMENT ON COLUMN dependency_scores.uas_precision IS 'Words with the right head / system words.';
COMMENT ON COLUMN dependency_scores.uas_recall IS 'Words with the right head / gold words.';
COMMENT ON COLUMN dependency_scores.uas_f1 IS 'Official CoNLL 2018 UAS: 2 correct / (gold words + system words).';
COMMENT ON COLUMN dependency_scores.las_precision IS 'Words with the right head and relation / system words.';
COMMENT ON COLUMN dependency_scores.las_recall IS 'Words with the right head and relation / gold words.';
COMMENT ON COLUMN dependency_scores.las_f1 IS 'Official CoNLL 2018 LAS: 2 correct / (gold words + system words), relations compared on their universal part.';
COMMENT ON COLUMN dependency_scores.clas_f1 IS 'Official CoNLL 2018 CLAS F1 (LAS over content words).';
COMMENT ON COLUMN dependency_scores.mlas_f1 IS 'Official CoNLL 2018 MLAS F1 (CLAS with UPOS, universal features and functional children).';
COMMENT ON COLUMN dependency_scores.blex_f1 IS 'Official CoNLL 2018 BLEX F1 (CLAS with lemmas).';
COMMENT ON COLUMN dependency_scores.la_gold_mean IS 'Dependency LA averaged over gold words, an unaligned word scoring 0.';
COMMENT ON COLUMN dependency_scores.la_aligned_mean IS 'Dependency LA averaged over aligned gold words only.';
COMMENT ON COLUMN dependency_scores.config IS 'Configuration of the run''s scoring (dependency_runs.config).';
