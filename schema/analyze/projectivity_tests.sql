-- projectivity_tests: do systems do worse on non-projective sentences? (Shimorina et al. 2021,
-- Table 3), materialised by `evalhouse analyze` for corpora whose share of non-projective sentences
-- exceeds a threshold (default 0.05).
-- u is the Mann-Whitney U of the projective sample (U1 = R1 - n1 (n1 + 1) / 2, R1 the rank sum of the
-- projective sentences); the non-projective sample's U is n_projective * n_nonprojective - u.
-- Grain: team x run x corpus x metric.
CREATE TABLE IF NOT EXISTS projectivity_tests (
    team                  VARCHAR NOT NULL,
    run                   VARCHAR NOT NULL,
    corpus                VARCHAR NOT NULL,
    metric                VARCHAR NOT NULL,
    median_projective     DOUBLE NOT NULL,
    median_nonprojective  DOUBLE NOT NULL,
    n_projective          INTEGER NOT NULL,
    n_nonprojective       INTEGER NOT NULL,
    u                     DOUBLE NOT NULL,
    p                     DOUBLE NOT NULL,
    nonprojective_share   DOUBLE NOT NULL,
    configuration         VARCHAR NOT NULL
);
COMMENT ON TABLE projectivity_tests IS 'Median score of projective vs non-projective sentences with a two-sided Mann-Whitney U test, per submission and metric (Shimorina, Parmentier & Gardent 2021, Table 3). Grain: team x run x corpus x metric.';
COMMENT ON COLUMN projectivity_tests.u IS 'Mann-Whitney U of the projective sample (scipy.stats.mannwhitneyu(projective, nonprojective)).';
COMMENT ON COLUMN projectivity_tests.p IS 'Two-sided p (exact for small samples without ties, else normal approximation with tie and continuity correction).';
COMMENT ON COLUMN projectivity_tests.nonprojective_share IS 'Share of non-projective sentences in the corpus (stripped trees).';
COMMENT ON COLUMN projectivity_tests.configuration IS 'Threshold, test and evalhouse version of this row.';
