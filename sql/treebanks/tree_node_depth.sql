-- tree_node_depth: depth of every word of the punctuation-stripped reference tree.
-- Intermediate: a building block of sentence_complexity, which a user reads instead (evalhouse views lists it apart).
-- Grain: one row per word of edges (corpus x position x dependent).
-- Key: (corpus, position, dependent).
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
COMMENT ON COLUMN tree_node_depth.corpus IS 'Corpus name (corpora.corpus).';
COMMENT ON COLUMN tree_node_depth.position IS '1-based position of the sentence in its corpus.';
COMMENT ON COLUMN tree_node_depth.dependent IS 'Word position in the punctuation-stripped tree (1-based).';
