-- constituents: the nonterminal nodes of every ingested parse (preterminals are parse_leaves.pos).
-- Grain: corpus x team x run x position x node.
CREATE TABLE IF NOT EXISTS constituents (
    corpus      VARCHAR NOT NULL,
    team        VARCHAR,
    run         VARCHAR,
    position    INTEGER NOT NULL,
    node        INTEGER NOT NULL,
    parent      INTEGER,
    label       VARCHAR NOT NULL,
    start_leaf  INTEGER NOT NULL,
    end_leaf    INTEGER NOT NULL
);
COMMENT ON TABLE constituents IS 'Nonterminal nodes of ingested constituency parses, in preorder, labels verbatim (function tags and indices kept). Grain: corpus x team x run x position x node.';
COMMENT ON COLUMN constituents.node IS '0-based preorder index of the node within the sentence.';
COMMENT ON COLUMN constituents.parent IS 'node of the parent; NULL for a root (the unlabelled ( (S ...) ) wrapper of a .mrg tree is a root labelled '''').';
COMMENT ON COLUMN constituents.label IS 'Label as written, e.g. NP-SBJ-1 (scoring cuts function tags; see parse_runs.evalb_params); '''' for the unlabelled wrapper of a .mrg tree, which EVALB counts as a bracket and the leaf-ancestor lineages leave out.';
COMMENT ON COLUMN constituents.start_leaf IS 'First leaf of the span (0-based, parse_leaves.leaf).';
COMMENT ON COLUMN constituents.end_leaf IS 'One past the last leaf of the span (half-open).';
