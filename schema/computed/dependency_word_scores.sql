-- dependency_word_scores: every gold word of a dependency run: its aligned system word, whether head
-- and relation are right (CoNLL 2018), both dependency lineages and the leaf-ancestor score.
-- Grain: corpus x team x run x gold_index.
CREATE TABLE IF NOT EXISTS dependency_word_scores (
    corpus           VARCHAR NOT NULL,
    team             VARCHAR NOT NULL,
    run              VARCHAR NOT NULL,
    gold_index       INTEGER NOT NULL,
    sentence         INTEGER NOT NULL,
    word_id          INTEGER NOT NULL,
    form             VARCHAR NOT NULL,
    relation         VARCHAR NOT NULL,
    aligned          BOOLEAN NOT NULL,
    head_correct     BOOLEAN NOT NULL,
    label_correct    BOOLEAN NOT NULL,
    gold_lineage     VARCHAR NOT NULL,
    system_lineage   VARCHAR,
    distance         DOUBLE,
    la               DOUBLE NOT NULL
);
COMMENT ON TABLE dependency_word_scores IS 'Per gold word of a dependency run: CoNLL 2018 alignment and correctness, dependency lineages and LA. Grain: corpus x team x run x gold_index.';
COMMENT ON COLUMN dependency_word_scores.gold_index IS '0-based index of the word in the gold file (empty nodes excluded).';
COMMENT ON COLUMN dependency_word_scores.sentence IS '1-based position of the gold sentence.';
COMMENT ON COLUMN dependency_word_scores.relation IS 'Gold relation, universal part (before the colon), as CoNLL 2018 LAS compares them.';
COMMENT ON COLUMN dependency_word_scores.aligned IS 'Whether the word aligns to a system word (CoNLL 2018 alignment).';
COMMENT ON COLUMN dependency_word_scores.head_correct IS 'UAS: aligned and the system head is aligned to the gold head (or both are roots).';
COMMENT ON COLUMN dependency_word_scores.label_correct IS 'LAS: head_correct and equal universal relations.';
COMMENT ON COLUMN dependency_word_scores.gold_lineage IS 'Relations from the word up to the root, word end first, with [ ] boundary markers of subtrees (docs/parse-evaluation.md).';
COMMENT ON COLUMN dependency_word_scores.system_lineage IS 'The same in the system tree for the aligned system word; NULL when unaligned.';
COMMENT ON COLUMN dependency_word_scores.la IS '1 - distance / (len + len); 0 for an unaligned gold word.';
