-- sentence_complexity: the syntactic complexity of each reference tree (Shimorina et al. 2021, Table 1),
-- on the punctuation-stripped tree.
-- Grain: corpus x sentence (corpus, position). Key: (corpus, position).
-- Columns: corpus, position, sent_id, length, depth, mean_dependency_distance, mean_flux_size,
--          mean_flux_weight, mean_arity, projective.
-- A one-word sentence has no edge and no inter-word position: its distance, flux and arity
-- metrics are 0 (as in the paper; Table 2 depends on it).  A sentence with no word left after
-- stripping (only punctuation) has length 0 and NULL metrics.
-- Upstream: sentences, edges, tree_node_depth, sentence_tree_metrics (materialised at ingest).
CREATE OR REPLACE VIEW sentence_complexity AS
WITH edge_totals AS (
    SELECT corpus, position,
           count(*) AS length,
           count(*) FILTER (WHERE head > 0) AS dependencies,
           coalesce(sum(abs(distance)), 0) AS total_distance
    FROM edges
    GROUP BY corpus, position
), depths AS (
    SELECT corpus, position, max(depth) AS depth
    FROM tree_node_depth
    GROUP BY corpus, position
), final AS (
    SELECT s.corpus,
           s.position,
           s.sent_id,
           coalesce(e.length, 0)::INTEGER AS length,
           d.depth::INTEGER AS depth,
           CASE WHEN e.length IS NULL THEN NULL
                WHEN e.dependencies = 0 THEN 0.0
                ELSE e.total_distance / e.dependencies END::DOUBLE AS mean_dependency_distance,
           CASE WHEN e.length IS NULL THEN NULL
                WHEN e.length = 1 THEN 0.0
                ELSE e.total_distance / (e.length - 1) END::DOUBLE AS mean_flux_size,
           CASE WHEN e.length IS NULL THEN NULL
                WHEN e.length = 1 THEN 0.0
                ELSE t.flux_weight_sum / (e.length - 1) END::DOUBLE AS mean_flux_weight,
           (e.dependencies / e.length)::DOUBLE AS mean_arity,
           t.projective
    FROM sentences AS s
    LEFT JOIN edge_totals AS e ON e.corpus = s.corpus AND e.position = s.position
    LEFT JOIN depths AS d ON d.corpus = s.corpus AND d.position = s.position
    LEFT JOIN sentence_tree_metrics AS t ON t.corpus = s.corpus AND t.position = s.position
)
SELECT * FROM final;

COMMENT ON VIEW sentence_complexity IS 'Syntactic complexity of each reference tree after punctuation stripping (Shimorina et al. 2021, Table 1). Grain: corpus x position.';
COMMENT ON COLUMN sentence_complexity.position IS '1-based position of the sentence in the corpus.';
COMMENT ON COLUMN sentence_complexity.length IS 'Tree length: number of words left after punctuation stripping.';
COMMENT ON COLUMN sentence_complexity.depth IS 'Tree depth: depth of the deepest word (root = 0).';
COMMENT ON COLUMN sentence_complexity.mean_dependency_distance IS 'Mean |dependent - head| over edges (0 for a one-word sentence).';
COMMENT ON COLUMN sentence_complexity.mean_flux_size IS 'Mean number of edges crossing each inter-word position (0 for a one-word sentence); equals mean_dependency_distance for a tree.';
COMMENT ON COLUMN sentence_complexity.mean_flux_weight IS 'Mean over inter-word positions of the largest set of pairwise vertex-disjoint edges crossing it (maximum matching; 0 for a one-word sentence).';
COMMENT ON COLUMN sentence_complexity.mean_arity IS 'Mean number of direct dependents per word: edges / length.';
COMMENT ON COLUMN sentence_complexity.projective IS 'True when every head dominates every word between itself and its dependent.';
COMMENT ON COLUMN sentence_complexity.corpus IS 'Corpus name (corpora.corpus).';
COMMENT ON COLUMN sentence_complexity.sent_id IS 'sent_id of the sentence (from # sent_id, else its position).';
