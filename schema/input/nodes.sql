-- nodes: one row per syntactic word (integer ID) with all ten CoNLL-U columns verbatim.
-- Grain: corpus x position x id.
CREATE TABLE IF NOT EXISTS nodes (
    corpus    VARCHAR NOT NULL,
    position  INTEGER NOT NULL,
    id        INTEGER NOT NULL,
    form      VARCHAR NOT NULL,
    lemma     VARCHAR NOT NULL,
    upos      VARCHAR NOT NULL,
    xpos      VARCHAR NOT NULL,
    feats     VARCHAR NOT NULL,
    head      INTEGER NOT NULL,
    deprel    VARCHAR NOT NULL,
    deps      VARCHAR NOT NULL,
    misc      VARCHAR NOT NULL
);
COMMENT ON TABLE nodes IS 'One row per syntactic word, the ten CoNLL-U columns verbatim (an underscore stays "_"). Grain: corpus x position x id.';
COMMENT ON COLUMN nodes.position IS 'Sentence position (sentences.position).';
COMMENT ON COLUMN nodes.id IS 'CoNLL-U ID (1-based word index in the sentence).';
COMMENT ON COLUMN nodes.head IS 'CoNLL-U HEAD as an integer (0 = root).';
COMMENT ON COLUMN nodes.deprel IS 'CoNLL-U DEPREL with subtypes (e.g. nsubj:pass).';
