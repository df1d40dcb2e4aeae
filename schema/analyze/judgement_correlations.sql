-- judgement_correlations: the accuracies of Bangalore, Rambow & Whittaker (2000) against human judgements
-- (their section 4), per submission, materialised by `evalhouse analyze`. Each of ssa, gsa, sta, gta,
-- understandability_accuracy and quality_accuracy (sentence_scores) against each of fluency_z and
-- adequacy_z (mean z-score over annotators, judgement_z): Pearson's r (what Bangalore, Rambow & Whittaker (2000) report) beside
-- Spearman's rho. Missing values are ignored pairwise; a pair with fewer than 3 complete sentences or
-- a constant side has no row, so a submission without human judgements has none. Holm-Bonferroni
-- within the submission, over its Pearson tests and separately over its Spearman tests.
-- Grain: team x run x corpus x metric x judgement.
CREATE TABLE IF NOT EXISTS judgement_correlations (
    team             VARCHAR NOT NULL,
    run              VARCHAR NOT NULL,
    corpus           VARCHAR NOT NULL,
    metric           VARCHAR NOT NULL,
    judgement        VARCHAR NOT NULL,
    n                INTEGER NOT NULL,
    r                DOUBLE NOT NULL,
    p_r              DOUBLE NOT NULL,
    p_r_holm         DOUBLE NOT NULL,
    significant_r    BOOLEAN NOT NULL,
    rho              DOUBLE NOT NULL,
    p_rho            DOUBLE NOT NULL,
    p_rho_holm       DOUBLE NOT NULL,
    significant_rho  BOOLEAN NOT NULL,
    configuration    VARCHAR NOT NULL
);
COMMENT ON TABLE judgement_correlations IS 'Pearson r and Spearman rho of the accuracies of Bangalore, Rambow & Whittaker (2000) (SSA, GSA, STA, GTA, UA, QA) with human fluency and adequacy z-scores per submission, Holm-adjusted within the submission (evalhouse analyze). Grain: team x run x corpus x metric x judgement.';
COMMENT ON COLUMN judgement_correlations.team IS 'Team of the submission.';
COMMENT ON COLUMN judgement_correlations.run IS 'Run of the submission.';
COMMENT ON COLUMN judgement_correlations.corpus IS 'Reference corpus of the submission.';
COMMENT ON COLUMN judgement_correlations.metric IS 'ssa, gsa, sta, gta, understandability_accuracy or quality_accuracy (sentence_scores).';
COMMENT ON COLUMN judgement_correlations.judgement IS 'fluency_z or adequacy_z (sentence_scores: mean z-score over annotators).';
COMMENT ON COLUMN judgement_correlations.n IS 'Sentences where both the accuracy and the judgement have a value.';
COMMENT ON COLUMN judgement_correlations.r IS 'Pearson correlation (scipy.stats.pearsonr), as Bangalore, Rambow & Whittaker (2000) report r(22).';
COMMENT ON COLUMN judgement_correlations.p_r IS 'Two-sided p of r = 0 (scipy: t distribution with n - 2 degrees of freedom).';
COMMENT ON COLUMN judgement_correlations.p_r_holm IS 'Holm-Bonferroni adjusted p_r over the Pearson tests of this submission.';
COMMENT ON COLUMN judgement_correlations.significant_r IS 'p_r_holm < alpha (alpha in configuration).';
COMMENT ON COLUMN judgement_correlations.rho IS 'Spearman rank correlation (scipy.stats.spearmanr, average ranks for ties).';
COMMENT ON COLUMN judgement_correlations.p_rho IS 'Two-sided p of rho = 0 (scipy: t distribution with n - 2 degrees of freedom).';
COMMENT ON COLUMN judgement_correlations.p_rho_holm IS 'Holm-Bonferroni adjusted p_rho over the Spearman tests of this submission.';
COMMENT ON COLUMN judgement_correlations.significant_rho IS 'p_rho_holm < alpha (alpha in configuration).';
COMMENT ON COLUMN judgement_correlations.configuration IS 'alpha, tests, adjustment and evalhouse version of this row.';
