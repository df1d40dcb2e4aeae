-- tree_node_depth: depth of every word of the punctuation-stripped reference tree.
-- Grain: one row per word of edges (corpus x position x dependent).
-- Columns: corpus, position, dependent, depth (root = 0, its dependents 1, ...).
-- Upstream: edges.
CREATE OR REPLACE VIEW tree_node_depth AS
WITH RECURSIVE descend (corpus, position, dependent, depth) AS (
    SELECT corpus, position, dependent, 0
    FROM edges
    WHERE head = 0
    UNION ALL
    SELECT child.corpus, child.position, child.dependent, parent.depth + 1
    FROM edges AS child
    JOIN descend AS parent
      ON child.corpus = parent.corpus
     AND child.position = parent.position
     AND child.head = parent.dependent
)
SELECT corpus, position, dependent, depth FROM descend;

COMMENT ON VIEW tree_node_depth IS 'Depth of each word of the punctuation-stripped reference tree (root = 0). Grain: corpus x position x dependent.';
COMMENT ON COLUMN tree_node_depth.depth IS 'Number of edges between the word and the root (root = 0).';
COMMENT ON COLUMN tree_node_depth.corpus IS 'Corpus name (corpora.corpus).';
COMMENT ON COLUMN tree_node_depth.position IS '1-based position of the sentence in its corpus.';
COMMENT ON COLUMN tree_node_depth.dependent IS 'Word position in the punctuation-stripped tree (1-based).';
