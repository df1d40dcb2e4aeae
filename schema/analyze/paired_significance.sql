-- paired_significance: paired significance tests between two submissions on the same corpus,
-- materialised by `evalhouse analyze`: paired bootstrap and approximate randomisation on mean
-- sentence BLEU and pooled DEA, from per-sentence statistics. p_holm is adjusted over all pairs of the
-- same corpus, metric and test (equal to p when there is only one pair).
-- Grain: corpus x metric x test x team_a x run_a x team_b x run_b.
CREATE TABLE IF NOT EXISTS paired_significance (
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
COMMENT ON TABLE paired_significance IS 'Paired bootstrap and approximate randomisation tests between submissions on one corpus (sentence BLEU, DEA). Grain: corpus x metric x test x team_a x run_a x team_b x run_b.';
COMMENT ON COLUMN paired_significance.metric IS 'bleu (mean sentence BLEU) or dea (pooled: matched / edges).';
COMMENT ON COLUMN paired_significance.test IS 'paired-bootstrap or approximate-randomisation.';
COMMENT ON COLUMN paired_significance.delta IS 'value_a - value_b.';
COMMENT ON COLUMN paired_significance.p IS 'Two-sided p, (1 + extreme resamples) / (resamples + 1).';
COMMENT ON COLUMN paired_significance.p_holm IS 'Holm-adjusted over the pairs of this corpus, metric and test.';
COMMENT ON COLUMN paired_significance.configuration IS 'Resamples, seed, alpha and evalhouse version.';
