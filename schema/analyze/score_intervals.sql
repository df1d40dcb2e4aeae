-- score_intervals: percentile bootstrap intervals of the scores a leaderboard ranks, resampling the
-- sentences of the corpus, materialised by `evalhouse analyze`: for submissions (kind 'submission') every
-- score of the outputs' leaderboard (evalhouse.statistics.leaderboard), for dependency parser runs (kind
-- 'dependency run') the CoNLL 2018 UAS, LAS, CLAS, MLAS and BLEX (F1) and the dependency leaf-ancestor mean, for
-- constituency parser runs (kind 'constituency run') EVALB's labelled F, recall and precision and both
-- leaf-ancestor means (evalhouse.statistics.constituency_runs).
-- Grain: kind x corpus x team x run x metric.
CREATE TABLE IF NOT EXISTS score_intervals (
    kind           VARCHAR NOT NULL,
    corpus         VARCHAR NOT NULL,
    team           VARCHAR NOT NULL,
    run            VARCHAR NOT NULL,
    metric         VARCHAR NOT NULL,
    value          DOUBLE NOT NULL,
    low            DOUBLE,
    high           DOUBLE,
    mean           DOUBLE,
    sentences      INTEGER NOT NULL,
    configuration  VARCHAR NOT NULL
);
COMMENT ON TABLE score_intervals IS 'Percentile bootstrap intervals of leaderboard scores (sentences resampled), written by evalhouse analyze. Grain: kind x corpus x team x run x metric.';
COMMENT ON COLUMN score_intervals.kind IS 'What was scored: submission (system outputs), dependency run or constituency run.';
COMMENT ON COLUMN score_intervals.corpus IS 'Corpus (the gold of the runs).';
COMMENT ON COLUMN score_intervals.team IS 'Team of the run.';
COMMENT ON COLUMN score_intervals.run IS 'Run name within the team.';
COMMENT ON COLUMN score_intervals.metric IS 'Submissions: dea, mean_dea, mean_bleu, corpus_bleu, mean_ssa .. mean_quality_accuracy (columns of submission_scores), sr_bleu, sr_nist, sr_dist, sr_dist_words (sr_submission_scores), sacrebleu_bleu, sacrebleu_chrf (sacrebleu_scores); dependency runs: uas, las, clas, mlas, blex (CoNLL 2018 F1) or la (dependency leaf-ancestor, mean over gold words); constituency runs: labelled_f, labelled_recall, labelled_precision (EVALB, bracket counts pooled over the sentences drawn), la_sentence_mean, la_word_mean (columns of parse_scores, subset all).';
COMMENT ON COLUMN score_intervals.value IS 'The score on the whole corpus (equal to the view it comes from: submission_scores, sr_submission_scores, sacrebleu_scores, dependency_scores, parse_scores).';
COMMENT ON COLUMN score_intervals.low IS 'Lower bound: percentile (1 - level) / 2 of the resampled scores (sacreBLEU: mean - half the 2.5-97.5 percentile range, as sacrebleu --paired-bs).';
COMMENT ON COLUMN score_intervals.high IS 'Upper bound: percentile (1 + level) / 2.';
COMMENT ON COLUMN score_intervals.mean IS 'Mean of the resampled scores (for sacreBLEU, the mu of sacrebleu --paired-bs, around which its interval is centred).';
COMMENT ON COLUMN score_intervals.sentences IS 'Sentences resampled (each resample draws this many with replacement).';
COMMENT ON COLUMN score_intervals.configuration IS 'Level, resamples, seed, unit and statistic, evalhouse version.';
