-- dependency_metrics: every metric of the CoNLL 2018 shared task's evaluation (conll18_ud_eval.py 1.2) per
-- dependency run, as the script's verbose table prints it: Tokens, Sentences, Words, UPOS, XPOS, UFeats,
-- AllTags, Lemmas, UAS, LAS, CLAS, MLAS, BLEX, each with its counts, precision, recall, F1 and (for the
-- metrics over aligned words) aligned accuracy, on a 0-1 scale.
-- Grain: corpus x team x run x metric.
-- Tokens and Sentences compare character spans (a gold and a system span match when they start and end
-- alike; the counts are dependency_runs', from the spans of both sides' words); Words counts aligned
-- words; the others count the gold words whose flag says correct (the flags of dependency_gold_words, set
-- at ingest by the script's rules: evalhouse.analysis.conll18). As in the
-- script: precision = correct / system, recall = correct / gold, F1 = 2 correct / (gold + system), each 0
-- when its denominator is; aligned accuracy = correct / aligned (0 when nothing is aligned; NULL for
-- Tokens, Sentences and Words). CLAS, MLAS and BLEX count content words only.
-- Key: (corpus, team, run, metric).
-- Upstream: dependency_gold_words, dependency_system_words, dependency_runs.
CREATE OR REPLACE VIEW dependency_metrics AS
WITH gold_counts AS (
    SELECT corpus, team, run,
           count(*) AS gold,
           count(system_index) AS aligned,
           count(*) FILTER (WHERE content) AS gold_content,
           count(*) FILTER (WHERE content AND system_index IS NOT NULL) AS aligned_content,
           count(*) FILTER (WHERE upos_correct) AS upos,
           count(*) FILTER (WHERE xpos_correct) AS xpos,
           count(*) FILTER (WHERE ufeats_correct) AS ufeats,
           count(*) FILTER (WHERE alltags_correct) AS alltags,
           count(*) FILTER (WHERE lemma_correct) AS lemmas,
           count(*) FILTER (WHERE head_correct) AS uas,
           count(*) FILTER (WHERE label_correct) AS las,
           count(*) FILTER (WHERE clas_correct) AS clas,
           count(*) FILTER (WHERE mlas_correct) AS mlas,
           count(*) FILTER (WHERE blex_correct) AS blex
    FROM dependency_gold_words
    GROUP BY corpus, team, run
), system_counts AS (
    SELECT corpus, team, run, count(*) AS system, count(*) FILTER (WHERE content) AS system_content
    FROM dependency_system_words
    GROUP BY corpus, team, run
), words AS (
    SELECT g.*, s.system, s.system_content
    FROM gold_counts AS g
    JOIN system_counts AS s ON s.corpus = g.corpus AND s.team = g.team AND s.run = g.run
), metric_names AS (
    SELECT * FROM (VALUES (1, 'Tokens'), (2, 'Sentences'), (3, 'Words'), (4, 'UPOS'), (5, 'XPOS'),
                          (6, 'UFeats'), (7, 'AllTags'), (8, 'Lemmas'), (9, 'UAS'), (10, 'LAS'), (11, 'CLAS'),
                          (12, 'MLAS'), (13, 'BLEX')) AS m (ordinal, metric)
), counts AS (
    SELECT w.corpus, w.team, w.run, m.ordinal, m.metric,
           CASE m.metric WHEN 'Tokens' THEN t.matched_tokens WHEN 'Sentences' THEN t.matched_sentences
                WHEN 'Words' THEN w.aligned
                WHEN 'UPOS' THEN w.upos WHEN 'XPOS' THEN w.xpos WHEN 'UFeats' THEN w.ufeats
                WHEN 'AllTags' THEN w.alltags WHEN 'Lemmas' THEN w.lemmas WHEN 'UAS' THEN w.uas
                WHEN 'LAS' THEN w.las WHEN 'CLAS' THEN w.clas WHEN 'MLAS' THEN w.mlas ELSE w.blex END AS correct,
           CASE m.metric WHEN 'Tokens' THEN t.gold_tokens WHEN 'Sentences' THEN t.gold_sentences
                WHEN 'CLAS' THEN w.gold_content WHEN 'MLAS' THEN w.gold_content WHEN 'BLEX' THEN w.gold_content
                ELSE w.gold END AS gold,
           CASE m.metric WHEN 'Tokens' THEN t.system_tokens WHEN 'Sentences' THEN t.system_sentences
                WHEN 'CLAS' THEN w.system_content WHEN 'MLAS' THEN w.system_content
                WHEN 'BLEX' THEN w.system_content ELSE w.system END AS system,
           CASE WHEN m.metric IN ('Tokens', 'Sentences', 'Words') THEN NULL
                WHEN m.metric IN ('CLAS', 'MLAS', 'BLEX') THEN w.aligned_content ELSE w.aligned END AS aligned,
           t.config
    FROM words AS w
    JOIN dependency_runs AS t ON t.corpus = w.corpus AND t.team = w.team AND t.run = w.run
    CROSS JOIN metric_names AS m
), final AS (
    SELECT c.corpus, c.team, c.run, c.ordinal, c.metric,
           CAST(c.correct AS BIGINT) AS correct, CAST(c.gold AS BIGINT) AS gold, CAST(c.system AS BIGINT) AS system,
           CAST(c.aligned AS BIGINT) AS aligned,
           CASE WHEN c.system > 0 THEN CAST(c.correct AS DOUBLE) / c.system ELSE 0.0 END AS precision,
           CASE WHEN c.gold > 0 THEN CAST(c.correct AS DOUBLE) / c.gold ELSE 0.0 END AS recall,
           CASE WHEN c.gold + c.system > 0 THEN CAST(2 * c.correct AS DOUBLE) / (c.gold + c.system) ELSE 0.0 END AS f1,
           CASE WHEN c.aligned IS NULL THEN NULL WHEN c.aligned > 0 THEN CAST(c.correct AS DOUBLE) / c.aligned
                ELSE 0.0 END AS aligned_accuracy,
           c.config
    FROM counts AS c
)
SELECT * FROM final;

COMMENT ON VIEW dependency_metrics IS 'Every CoNLL 2018 evaluation metric (conll18_ud_eval.py 1.2) per dependency run: counts, precision, recall, F1 and aligned accuracy, 0-1 scale. Grain: corpus x team x run x metric.';
COMMENT ON COLUMN dependency_metrics.corpus IS 'Corpus of the dependency run (dependency_runs.corpus).';
COMMENT ON COLUMN dependency_metrics.team IS 'Team of the run (parser).';
COMMENT ON COLUMN dependency_metrics.run IS 'Run name within the team.';
COMMENT ON COLUMN dependency_metrics.ordinal IS 'Row of the metric in the script''s table (1 Tokens ... 13 BLEX).';
COMMENT ON COLUMN dependency_metrics.metric IS 'Tokens, Sentences, Words, UPOS, XPOS, UFeats, AllTags, Lemmas, UAS, LAS, CLAS, MLAS or BLEX (the script''s names).';
COMMENT ON COLUMN dependency_metrics.correct IS 'Matching spans (Tokens, Sentences), aligned words (Words) or correct aligned words (the script''s --counts "Correct").';
COMMENT ON COLUMN dependency_metrics.gold IS 'Gold spans or words counted (content words for CLAS, MLAS, BLEX).';
COMMENT ON COLUMN dependency_metrics.system IS 'System spans or words counted (content words for CLAS, MLAS, BLEX).';
COMMENT ON COLUMN dependency_metrics.aligned IS 'Aligned words counted (gold content words for CLAS, MLAS, BLEX); NULL for Tokens, Sentences, Words.';
COMMENT ON COLUMN dependency_metrics.precision IS 'correct / system (0 when system is 0).';
COMMENT ON COLUMN dependency_metrics.recall IS 'correct / gold (0 when gold is 0).';
COMMENT ON COLUMN dependency_metrics.f1 IS '2 correct / (gold + system): the official score (0 when both are 0).';
COMMENT ON COLUMN dependency_metrics.aligned_accuracy IS 'correct / aligned (the script''s AligndAcc; 0 when aligned is 0; NULL for Tokens, Sentences, Words).';
COMMENT ON COLUMN dependency_metrics.config IS 'Configuration of the run''s scoring (dependency_runs.config).';
