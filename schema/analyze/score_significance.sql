-- score_significance: paired significance tests between two runs on the same corpus for the scores a
-- leaderboard ranks, from per-sentence sufficient statistics, materialised by `evalhouse analyze`: paired
-- bootstrap and approximate randomisation; for submissions (kind 'submission') every score of the outputs'
-- leaderboard, for dependency parser runs (kind 'dependency run') the CoNLL 2018 UAS, LAS, CLAS, MLAS and BLEX
-- (F1) and the dependency leaf-ancestor mean, for constituency parser runs (kind 'constituency run') EVALB's
-- labelled F, recall and precision and both leaf-ancestor means. p_holm is adjusted over the pairs
-- of the same kind, corpus, metric and test.
-- Grain: kind x corpus x metric x test x team_a x run_a x team_b x run_b.
CREATE TABLE IF NOT EXISTS score_significance (
    kind           VARCHAR NOT NULL,
    corpus         VARCHAR NOT NULL,
    metric         VARCHAR NOT NULL,
    test           VARCHAR NOT NULL,
    team_a         VARCHAR NOT NULL,
    run_a          VARCHAR NOT NULL,
    team_b         VARCHAR NOT NULL,
    run_b          VARCHAR NOT NULL,
    n              INTEGER NOT NULL,
    value_a        DOUBLE NOT NULL,
    value_b        DOUBLE NOT NULL,
    delta          DOUBLE NOT NULL,
    p              DOUBLE NOT NULL,
    p_holm         DOUBLE NOT NULL,
    significant    BOOLEAN NOT NULL,
    configuration  VARCHAR NOT NULL
);
COMMENT ON TABLE score_significance IS 'Paired bootstrap and approximate randomisation tests between two runs on one corpus for leaderboard scores, written by evalhouse analyze. Grain: kind x corpus x metric x test x team_a x run_a x team_b x run_b.';
COMMENT ON COLUMN score_significance.kind IS 'What was scored: submission (system outputs), dependency run or constituency run.';
COMMENT ON COLUMN score_significance.corpus IS 'Corpus (the gold of both runs).';
COMMENT ON COLUMN score_significance.metric IS 'As score_intervals.metric: a column of the leaderboard views (submissions) or uas .. blex, la (dependency runs) or labelled_f .. la_word_mean (constituency runs).';
COMMENT ON COLUMN score_significance.test IS 'paired-bootstrap or approximate-randomisation.';
COMMENT ON COLUMN score_significance.team_a IS 'Team of the first run (runs ordered by team, run).';
COMMENT ON COLUMN score_significance.run_a IS 'The first run.';
COMMENT ON COLUMN score_significance.team_b IS 'Team of the second run.';
COMMENT ON COLUMN score_significance.run_b IS 'The second run.';
COMMENT ON COLUMN score_significance.n IS 'Sentences resampled.';
COMMENT ON COLUMN score_significance.value_a IS 'Score of the first run on the corpus.';
COMMENT ON COLUMN score_significance.value_b IS 'Score of the second run.';
COMMENT ON COLUMN score_significance.delta IS 'value_a - value_b.';
COMMENT ON COLUMN score_significance.p IS 'Two-sided p, (1 + extreme resamples) / (resamples + 1).';
COMMENT ON COLUMN score_significance.p_holm IS 'Holm-adjusted over the pairs of this kind, corpus, metric and test.';
COMMENT ON COLUMN score_significance.significant IS 'p_holm < alpha and delta <> 0: equal scores never differ (sacreBLEU''s tests give identical runs p = 1/(resamples + 1)).';
COMMENT ON COLUMN score_significance.configuration IS 'Resamples, seed, alpha, unit, statistic and evalhouse version.';
