-- tree_node_depth: depth of every word of the punctuation-stripped reference tree.
-- Grain: one row per word of edges (corpus x position x dependent).
-- Columns: corpus, position, dependent, depth (root = 0, its dependents 1, ...).
-- Upstream: edges (edges.depth is computed at ingest by pointer jumping, analysis/trees.py:
-- linear in sentence length, where a recursive CTE walking down from the roots was quadratic on a chain).
CREATE OR REPLACE VIEW tree_node_depth AS
WITH final AS (
    SELECT corpus, position, dependent, depth
    FROM edges
)
SELECT * FROM final;

COMMENT ON VIEW tree_node_depth IS 'Depth of each word of the punctuation-stripped reference tree (root = 0). Grain: corpus x position x dependent.';
COMMENT ON COLUMN tree_node_depth.depth IS 'Number of edges between the word and the root (root = 0).';
