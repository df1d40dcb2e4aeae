-- ensemble_scores: the ensemble of ensemble_choice beside the best single submission (highest pooled
-- DEA) and the per-sentence oracle (highest sentence BLEU, ties by DEA), materialised by
-- `evalhouse analyze`. Reported as measured; the ensemble's relation DEA is learned on the same corpus.
-- Grain: corpus x system.
CREATE TABLE IF NOT EXISTS ensemble_scores (
    corpus         VARCHAR NOT NULL,
    system         VARCHAR NOT NULL,
    team           VARCHAR,
    run            VARCHAR,
    sentences      INTEGER NOT NULL,
    mean_bleu      DOUBLE NOT NULL,
    dea            DOUBLE,
    configuration  VARCHAR NOT NULL
);
COMMENT ON TABLE ensemble_scores IS 'Mean sentence BLEU and pooled DEA of the ensemble, the best single submission and the oracle. Grain: corpus x system.';
COMMENT ON COLUMN ensemble_scores.system IS 'ensemble, best-single or oracle.';
COMMENT ON COLUMN ensemble_scores.team IS 'The submission for best-single; NULL for ensemble and oracle.';
COMMENT ON COLUMN ensemble_scores.configuration IS 'Submissions pooled and evalhouse version.';
