-- sentence_tree_metrics: per-sentence tree metrics that need Python (evalhouse.analysis.trees),
-- materialised by the ingest so that plain DuckDB clients can read every view.
-- Grain: corpus x position.
CREATE TABLE IF NOT EXISTS sentence_tree_metrics (
    corpus           VARCHAR NOT NULL,
    position         INTEGER NOT NULL,
    flux_weight_sum  BIGINT NOT NULL,
    projective       BOOLEAN
);
COMMENT ON TABLE sentence_tree_metrics IS 'Tree metrics computed in Python at ingest (maximum-matching flux weight, projectivity) on the stripped tree. Grain: corpus x position.';
COMMENT ON COLUMN sentence_tree_metrics.flux_weight_sum IS 'Sum over inter-word positions of the flux weight: the size of a maximum set of pairwise vertex-disjoint edges crossing the position (Kahane et al. 2017).';
COMMENT ON COLUMN sentence_tree_metrics.projective IS 'True when every edge''s head dominates every word between head and dependent; NULL for a sentence with no word left after stripping.';
