-- dependency_gold_words: every gold word of a dependency run, as the CoNLL 2018 evaluation reads it (token
-- span, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL), its structural facts (depth, arc projectivity), the
-- system word it aligns to, whether each CoNLL 2018 word metric counts it correct, and its dependency
-- leaf-ancestor score.
-- Grain: corpus x team x run x gold_index.
-- Which CoNLL 2018 metrics count the word correct is decided at ingest (evalhouse.analysis.conll18: the
-- official script's rules) and stored as flags; the counts, ratios and MaltEval's breakdowns are views over
-- this table and dependency_system_words (dependency_metrics, dependency_breakdowns, ...).
CREATE TABLE IF NOT EXISTS dependency_gold_words (
    corpus           VARCHAR NOT NULL,
    team             VARCHAR NOT NULL,
    run              VARCHAR NOT NULL,
    gold_index       INTEGER NOT NULL,
    sentence         INTEGER NOT NULL,
    word_id          INTEGER NOT NULL,
    sentence_length  INTEGER NOT NULL,
    token_start      INTEGER NOT NULL,
    token_end        INTEGER NOT NULL,
    form             VARCHAR NOT NULL,
    lemma            VARCHAR NOT NULL,
    upos             VARCHAR NOT NULL,
    xpos             VARCHAR NOT NULL,
    feats            VARCHAR NOT NULL,
    ufeats           VARCHAR NOT NULL,
    head             INTEGER NOT NULL,
    deprel           VARCHAR NOT NULL,
    relation         VARCHAR NOT NULL,
    content          BOOLEAN NOT NULL,
    depth            INTEGER NOT NULL,
    arc_projective   BOOLEAN NOT NULL,
    system_index     INTEGER,
    upos_correct     BOOLEAN NOT NULL,
    xpos_correct     BOOLEAN NOT NULL,
    ufeats_correct   BOOLEAN NOT NULL,
    alltags_correct  BOOLEAN NOT NULL,
    lemma_correct    BOOLEAN NOT NULL,
    head_correct     BOOLEAN NOT NULL,
    label_correct    BOOLEAN NOT NULL,
    relation_correct BOOLEAN NOT NULL,
    clas_correct     BOOLEAN NOT NULL,
    mlas_correct     BOOLEAN NOT NULL,
    blex_correct     BOOLEAN NOT NULL,
    gold_lineage     VARCHAR NOT NULL,
    system_lineage   VARCHAR,
    distance         DOUBLE,
    la               DOUBLE NOT NULL
);
COMMENT ON TABLE dependency_gold_words IS 'Per gold word of a dependency run: CoNLL-U columns as the CoNLL 2018 evaluation reads them, depth, arc projectivity, the aligned system word, dependency lineages and LA. Grain: corpus x team x run x gold_index.';
COMMENT ON COLUMN dependency_gold_words.gold_index IS '0-based index of the word in the gold file (empty nodes excluded).';
COMMENT ON COLUMN dependency_gold_words.sentence IS '1-based position of the gold sentence.';
COMMENT ON COLUMN dependency_gold_words.word_id IS 'CoNLL-U ID of the word in its sentence.';
COMMENT ON COLUMN dependency_gold_words.sentence_length IS 'Words in the word''s sentence.';
COMMENT ON COLUMN dependency_gold_words.content IS 'Whether the relation is one of CoNLL 2018''s content relations (the words CLAS, MLAS and BLEX count).';
COMMENT ON COLUMN dependency_gold_words.token_start IS 'Character offset of the word''s token in the file''s text without spaces (a multiword token''s words share its span): the CoNLL 2018 Tokens and Sentences metrics compare these spans.';
COMMENT ON COLUMN dependency_gold_words.token_end IS 'Character offset after the end of the word''s token.';
COMMENT ON COLUMN dependency_gold_words.form IS 'FORM (spaces removed, unless the word is inside a multiword token: as the official script compares them).';
COMMENT ON COLUMN dependency_gold_words.lemma IS 'LEMMA, verbatim.';
COMMENT ON COLUMN dependency_gold_words.upos IS 'UPOS, verbatim.';
COMMENT ON COLUMN dependency_gold_words.xpos IS 'XPOS, verbatim.';
COMMENT ON COLUMN dependency_gold_words.feats IS 'FEATS, verbatim.';
COMMENT ON COLUMN dependency_gold_words.ufeats IS 'The universal features of FEATS, sorted, joined by | (CoNLL 2018 UFeats; empty when none).';
COMMENT ON COLUMN dependency_gold_words.head IS 'HEAD: CoNLL-U ID of the head word in the sentence, 0 for the root.';
COMMENT ON COLUMN dependency_gold_words.deprel IS 'DEPREL, verbatim (with its subtype).';
COMMENT ON COLUMN dependency_gold_words.relation IS 'Universal part of DEPREL (before the colon), as CoNLL 2018 compares relations.';
COMMENT ON COLUMN dependency_gold_words.depth IS 'Arcs between the word and its sentence''s root word (the root word 0).';
COMMENT ON COLUMN dependency_gold_words.arc_projective IS 'Whether the word''s arc is projective: its head dominates every word between them (a root''s arc is).';
COMMENT ON COLUMN dependency_gold_words.system_index IS '0-based index of the aligned system word (dependency_system_words); NULL when the word is not aligned (CoNLL 2018 alignment).';
COMMENT ON COLUMN dependency_gold_words.upos_correct IS 'Aligned and equal UPOS (CoNLL 2018 UPOS).';
COMMENT ON COLUMN dependency_gold_words.xpos_correct IS 'Aligned and equal XPOS (CoNLL 2018 XPOS).';
COMMENT ON COLUMN dependency_gold_words.ufeats_correct IS 'Aligned and equal universal features (CoNLL 2018 UFeats).';
COMMENT ON COLUMN dependency_gold_words.alltags_correct IS 'Aligned and equal UPOS, XPOS and universal features (CoNLL 2018 AllTags).';
COMMENT ON COLUMN dependency_gold_words.lemma_correct IS 'Aligned and equal LEMMA, or gold LEMMA ''_'' (CoNLL 2018 Lemmas).';
COMMENT ON COLUMN dependency_gold_words.head_correct IS 'Aligned and right head: both roots, or the system head aligned to the gold head (CoNLL 2018 UAS).';
COMMENT ON COLUMN dependency_gold_words.label_correct IS 'Right head and the same universal relation (CoNLL 2018 LAS).';
COMMENT ON COLUMN dependency_gold_words.relation_correct IS 'Aligned and the same universal relation, whatever the head (MaltEval''s label accuracy).';
COMMENT ON COLUMN dependency_gold_words.clas_correct IS 'A content word with the right head and relation (CoNLL 2018 CLAS).';
COMMENT ON COLUMN dependency_gold_words.mlas_correct IS 'CLAS right, equal UPOS and universal features, and the functional children paired off in order (CoNLL 2018 MLAS).';
COMMENT ON COLUMN dependency_gold_words.blex_correct IS 'CLAS right and the LEMMA right as Lemmas counts it (CoNLL 2018 BLEX).';
COMMENT ON COLUMN dependency_gold_words.gold_lineage IS 'Relations from the word up to the root, word end first, with [ ] boundary markers of subtrees (docs/parse-evaluation.md).';
COMMENT ON COLUMN dependency_gold_words.system_lineage IS 'The same in the system tree for the aligned system word; NULL when unaligned.';
COMMENT ON COLUMN dependency_gold_words.distance IS 'Levenshtein distance between the two lineages (label cost: dependency_runs.la_cost); NULL when unaligned.';
COMMENT ON COLUMN dependency_gold_words.la IS '1 - distance / (len + len); 0 for an unaligned gold word.';
