-- dependency_system_words: every word of a dependency parser's output, as the CoNLL 2018 evaluation reads
-- it (token span, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL), with its structural facts (depth, arc
-- projectivity) and the gold sentence it is counted in. Which gold word it aligns to is stored once, on the
-- gold side (dependency_gold_words.system_index).
-- Grain: corpus x team x run x system_index.
CREATE TABLE IF NOT EXISTS dependency_system_words (
    corpus           VARCHAR NOT NULL,
    team             VARCHAR NOT NULL,
    run              VARCHAR NOT NULL,
    system_index     INTEGER NOT NULL,
    sentence         INTEGER NOT NULL,
    word_id          INTEGER NOT NULL,
    sentence_length  INTEGER NOT NULL,
    gold_sentence    INTEGER NOT NULL,
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
    arc_projective   BOOLEAN NOT NULL
);
COMMENT ON TABLE dependency_system_words IS 'Per word of a dependency parser''s output: CoNLL-U columns as the CoNLL 2018 evaluation reads them, depth, arc projectivity and the gold sentence it counts in. Grain: corpus x team x run x system_index.';
COMMENT ON COLUMN dependency_system_words.system_index IS '0-based index of the word in the system file (empty nodes excluded).';
COMMENT ON COLUMN dependency_system_words.sentence IS '1-based position of the sentence in the system file (its own sentence segmentation).';
COMMENT ON COLUMN dependency_system_words.word_id IS 'CoNLL-U ID of the word in its system sentence.';
COMMENT ON COLUMN dependency_system_words.gold_sentence IS 'The gold sentence the word is counted in (per-sentence scores, significance tests): that of its aligned gold word, else the gold sentence in which its token starts.';
COMMENT ON COLUMN dependency_system_words.sentence_length IS 'Words in the word''s sentence.';
COMMENT ON COLUMN dependency_system_words.content IS 'Whether the relation is one of CoNLL 2018''s content relations (the words CLAS, MLAS and BLEX count).';
COMMENT ON COLUMN dependency_system_words.token_start IS 'Character offset of the word''s token in the file''s text without spaces (the gold file spells the same text).';
COMMENT ON COLUMN dependency_system_words.token_end IS 'Character offset after the end of the word''s token.';
COMMENT ON COLUMN dependency_system_words.form IS 'FORM (spaces removed, unless the word is inside a multiword token: as the official script compares them).';
COMMENT ON COLUMN dependency_system_words.lemma IS 'LEMMA, verbatim.';
COMMENT ON COLUMN dependency_system_words.upos IS 'UPOS, verbatim.';
COMMENT ON COLUMN dependency_system_words.xpos IS 'XPOS, verbatim.';
COMMENT ON COLUMN dependency_system_words.feats IS 'FEATS, verbatim.';
COMMENT ON COLUMN dependency_system_words.ufeats IS 'The universal features of FEATS, sorted, joined by | (CoNLL 2018 UFeats; empty when none).';
COMMENT ON COLUMN dependency_system_words.head IS 'HEAD: CoNLL-U ID of the head word in the system sentence, 0 for the root.';
COMMENT ON COLUMN dependency_system_words.deprel IS 'DEPREL, verbatim (with its subtype).';
COMMENT ON COLUMN dependency_system_words.relation IS 'Universal part of DEPREL (before the colon), as CoNLL 2018 compares relations.';
COMMENT ON COLUMN dependency_system_words.depth IS 'Arcs between the word and its system sentence''s root word (the root word 0).';
COMMENT ON COLUMN dependency_system_words.arc_projective IS 'Whether the word''s arc is projective in the system tree: its head dominates every word between them.';
