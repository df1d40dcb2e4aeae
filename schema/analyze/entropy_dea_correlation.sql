-- entropy_dea_correlation: is a relation with freer word order harder? Spearman rho between the
-- corpus's relation entropy (relation_entropy) and the submission's DEA per relation
-- (dea_by_relation) over the relations with at least min_edges edges (Shimorina et al. 2021 section
-- 5.3), materialised by `evalhouse analyze`.
-- Grain: team x run x corpus.
CREATE TABLE IF NOT EXISTS entropy_dea_correlation (
    team           VARCHAR NOT NULL,
    run            VARCHAR NOT NULL,
    corpus         VARCHAR NOT NULL,
    relations      INTEGER NOT NULL,
    rho            DOUBLE NOT NULL,
    p              DOUBLE NOT NULL,
    configuration  VARCHAR NOT NULL
);
COMMENT ON TABLE entropy_dea_correlation IS 'Spearman rho between relation entropy and DEA per relation, per submission (Shimorina, Parmentier & Gardent 2021, section 5.3). Grain: team x run x corpus.';
COMMENT ON COLUMN entropy_dea_correlation.relations IS 'Relations correlated (those with at least min_edges reference edges).';
COMMENT ON COLUMN entropy_dea_correlation.configuration IS 'min_edges and evalhouse version.';
