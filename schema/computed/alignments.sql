-- alignments: word-level links between two texts of one sentence (or segment), the design card's third
-- table. One table serves every pair of texts; the column `pair` says which two are linked:
--   'output-reference'  a system output token -> the reference tree node it realises;
--                       every output token has a row, to_index NULL when nothing matched;
--   'source-reference', 'source-output'  word alignments of a translation (e.g. Pharaoh i-j files);
--                       only aligned pairs have rows.
-- Grain: one row per link: corpus x team x run x position x pair x from_index (x to_index).
-- All indices are 1-based (Pharaoh's 0-based indices are shifted by one on ingest).
CREATE TABLE IF NOT EXISTS alignments (
    corpus      VARCHAR NOT NULL,
    team        VARCHAR,
    run         VARCHAR,
    position    INTEGER NOT NULL,
    pair        VARCHAR NOT NULL,
    from_index  INTEGER NOT NULL,
    to_index    INTEGER,
    method      VARCHAR NOT NULL
);
COMMENT ON TABLE alignments IS 'Word-level links between two texts of a sentence; pair says which (output-reference, source-reference, source-output). Grain: corpus x team x run x position x pair x from_index x to_index.';
COMMENT ON COLUMN alignments.corpus IS 'Corpus (reference treebank or parallel corpus) the sentence belongs to.';
COMMENT ON COLUMN alignments.team IS 'Team of the system whose text is aligned; NULL when neither text is a system output.';
COMMENT ON COLUMN alignments.run IS 'Run of that team; NULL when neither text is a system output.';
COMMENT ON COLUMN alignments.position IS '1-based position of the sentence or segment in the corpus.';
COMMENT ON COLUMN alignments.pair IS 'Which texts are linked: output-reference, source-reference or source-output (first text -> second text).';
COMMENT ON COLUMN alignments.from_index IS '1-based token index in the first text of the pair.';
COMMENT ON COLUMN alignments.to_index IS '1-based token index in the second text (for output-reference: the CoNLL-U ID of the reference node); NULL when the token is unaligned.';
COMMENT ON COLUMN alignments.method IS 'How the link was made: multiword, exact, casefold, lemma, lexicon, inflection, contraction or unaligned (output-reference, computed by evalhouse; fuzzy, a common prefix, in links stored before evalhouse-align:3), or given (read from an alignment file).';
