-- empty_nodes: one row per empty node of the enhanced graph (ID like 8.1).
-- Grain: corpus x position x after_id x sub_id.
CREATE TABLE IF NOT EXISTS empty_nodes (
    corpus    VARCHAR NOT NULL,
    position  INTEGER NOT NULL,
    after_id  INTEGER NOT NULL,
    sub_id    INTEGER NOT NULL,
    form      VARCHAR NOT NULL,
    lemma     VARCHAR NOT NULL,
    upos      VARCHAR NOT NULL,
    xpos      VARCHAR NOT NULL,
    feats     VARCHAR NOT NULL,
    head      VARCHAR NOT NULL,
    deprel    VARCHAR NOT NULL,
    deps      VARCHAR NOT NULL,
    misc      VARCHAR NOT NULL
);
COMMENT ON TABLE empty_nodes IS 'Empty nodes (ID n.k) of the enhanced graph, columns verbatim. They are not part of the basic tree and take no part in tree metrics. Grain: corpus x position x after_id x sub_id.';
COMMENT ON COLUMN empty_nodes.after_id IS 'n in n.k: the word the empty node follows (0 = before the first word).';
COMMENT ON COLUMN empty_nodes.sub_id IS 'k in n.k (1, 2, ...).';
