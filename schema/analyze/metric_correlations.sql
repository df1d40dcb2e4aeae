-- metric_correlations: Spearman correlations between sentence-level metrics within each submission
-- (Shimorina et al. 2021 section 5.1, Figure 2), materialised by `evalhouse analyze`.
-- Metrics: bleu, dea, fluency_z, adequacy_z (sentence_scores) and depth, length,
-- mean_dependency_distance, mean_flux_size, mean_flux_weight, mean_arity (sentence_complexity).
-- Missing values are ignored pairwise; a pair with fewer than 3 complete sentences or a constant side
-- has no row. p_holm is Holm-Bonferroni adjusted over the rows of the submission.
-- Grain: team x run x corpus x metric_a x metric_b (metric_a before metric_b in the list above).
CREATE TABLE IF NOT EXISTS metric_correlations (
    team           VARCHAR NOT NULL,
    run            VARCHAR NOT NULL,
    corpus         VARCHAR NOT NULL,
    metric_a       VARCHAR NOT NULL,
    metric_b       VARCHAR NOT NULL,
    n              INTEGER NOT NULL,
    rho            DOUBLE NOT NULL,
    p              DOUBLE NOT NULL,
    p_holm         DOUBLE NOT NULL,
    significant    BOOLEAN NOT NULL,
    configuration  VARCHAR NOT NULL
);
COMMENT ON TABLE metric_correlations IS 'Spearman rho and p between every pair of sentence metrics per submission, Holm-adjusted within the submission (evalhouse analyze). Grain: team x run x corpus x metric_a x metric_b.';
COMMENT ON COLUMN metric_correlations.n IS 'Sentences where both metrics have a value.';
COMMENT ON COLUMN metric_correlations.rho IS 'Spearman rank correlation (scipy.stats.spearmanr, average ranks for ties).';
COMMENT ON COLUMN metric_correlations.p IS 'Two-sided p of rho = 0 (scipy: t distribution with n - 2 degrees of freedom).';
COMMENT ON COLUMN metric_correlations.p_holm IS 'Holm-Bonferroni adjusted p over all pairs of this submission.';
COMMENT ON COLUMN metric_correlations.significant IS 'p_holm < alpha (alpha in configuration).';
COMMENT ON COLUMN metric_correlations.configuration IS 'alpha, test, adjustment and evalhouse version of this row.';
