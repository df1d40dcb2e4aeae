-- edges: the reference tree as Shimorina et al. (2021, section 4) define it for every tree metric:
-- words with deprel punct removed, a removed word's dependents attached to its nearest
-- non-punct ancestor, words renumbered 1..length in surface order.
-- Grain: one row per remaining word (the dependent), corpus x position x dependent.
-- The root word has head 0 and NULL head_* and distance columns.
-- head_key and dependent_key are the keys DEA compares (evalhouse.analysis.text.word_key, computed in
-- Python at ingest): the case-folded lemma, or the case-folded form where the lemma is missing (_).
CREATE TABLE IF NOT EXISTS edges (
    corpus           VARCHAR NOT NULL,
    position         INTEGER NOT NULL,
    dependent        INTEGER NOT NULL,
    head             INTEGER NOT NULL,
    deprel           VARCHAR NOT NULL,
    relation         VARCHAR NOT NULL,
    dependent_lemma  VARCHAR NOT NULL,
    head_lemma       VARCHAR,
    dependent_upos   VARCHAR NOT NULL,
    head_upos        VARCHAR,
    distance         INTEGER,
    dependent_id     INTEGER NOT NULL,
    head_id          INTEGER NOT NULL,
    depth            INTEGER NOT NULL,
    dependent_key    VARCHAR NOT NULL,
    head_key         VARCHAR
);
COMMENT ON TABLE edges IS 'Punctuation-stripped reference tree (Shimorina, Parmentier & Gardent 2021, section 4): one row per remaining word with its head. Grain: corpus x position x dependent.';
COMMENT ON COLUMN edges.dependent IS 'Position of the dependent in the stripped sentence (1-based).';
COMMENT ON COLUMN edges.head IS 'Position of the head in the stripped sentence (0 for the root).';
COMMENT ON COLUMN edges.deprel IS 'Dependency relation with subtypes (nsubj:pass).';
COMMENT ON COLUMN edges.relation IS 'Base relation: deprel before the first colon (nsubj).';
COMMENT ON COLUMN edges.distance IS 'Signed dependency distance dependent - head in stripped positions (negative: dependent on the left of its head); NULL for the root.';
COMMENT ON COLUMN edges.dependent_id IS 'CoNLL-U ID of the dependent in nodes.';
COMMENT ON COLUMN edges.head_id IS 'CoNLL-U ID of the head in nodes (0 for the root).';
COMMENT ON COLUMN edges.depth IS 'Depth of the dependent in the stripped tree: edges between it and its root (root = 0), computed at ingest.';
COMMENT ON COLUMN edges.dependent_key IS 'Key DEA compares for the dependent: its lemma case-folded by evalhouse.analysis.text.fold (NFC(casefold(NFD))), or its case-folded form where the lemma is missing (_). Computed in Python at ingest; SQL never folds.';
COMMENT ON COLUMN edges.head_key IS 'Key DEA compares for the head (as dependent_key); NULL for the root.';
