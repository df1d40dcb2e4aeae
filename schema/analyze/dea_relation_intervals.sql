-- dea_relation_intervals: bootstrap confidence intervals of DEA per relation (dea_by_relation),
-- resampling sentences, materialised by `evalhouse analyze`.
-- Grain: team x run x corpus x relation.
CREATE TABLE IF NOT EXISTS dea_relation_intervals (
    team           VARCHAR NOT NULL,
    run            VARCHAR NOT NULL,
    corpus         VARCHAR NOT NULL,
    relation       VARCHAR NOT NULL,
    edges          INTEGER NOT NULL,
    accuracy       DOUBLE NOT NULL,
    low            DOUBLE,
    high           DOUBLE,
    configuration  VARCHAR NOT NULL
);
COMMENT ON TABLE dea_relation_intervals IS 'Percentile bootstrap interval of DEA per relation (sentences resampled). Grain: team x run x corpus x relation.';
COMMENT ON COLUMN dea_relation_intervals.low IS 'Lower bound (percentile (1 - level) / 2 of the resampled DEA).';
COMMENT ON COLUMN dea_relation_intervals.high IS 'Upper bound.';
COMMENT ON COLUMN dea_relation_intervals.configuration IS 'Level, resamples, seed and evalhouse version.';
