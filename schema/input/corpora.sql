-- corpora: one row per ingested corpus (a treebank file, or several files ingested under one name).
-- Grain: corpus. Key: corpus.
CREATE TABLE IF NOT EXISTS corpora (
    corpus            VARCHAR NOT NULL PRIMARY KEY,
    language          VARCHAR,
    split             VARCHAR,
    source_files      VARCHAR[] NOT NULL,
    sha256            VARCHAR[] NOT NULL,
    sentences         INTEGER NOT NULL,
    words             BIGINT NOT NULL,
    tokens            BIGINT NOT NULL,
    multiword_tokens  BIGINT NOT NULL,
    empty_nodes       BIGINT NOT NULL,
    edges             BIGINT NOT NULL,
    normalisations    VARCHAR[] NOT NULL,
    evalhouse_version VARCHAR NOT NULL,
    ingested_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    missing_lemmas    BIGINT NOT NULL
);
COMMENT ON TABLE corpora IS 'One row per ingested corpus (treebank): provenance, counts and the evalhouse version that ingested it. Grain: corpus.';
COMMENT ON COLUMN corpora.corpus IS 'Corpus name, the key every view uses (default from UD file names: en_ewt-ud-test.conllu -> en_ewt-test).';
COMMENT ON COLUMN corpora.language IS 'Language code (from the UD file name or --language).';
COMMENT ON COLUMN corpora.split IS 'train, dev or test when the file name says so, else NULL.';
COMMENT ON COLUMN corpora.source_files IS 'Source file path(s) in ingest order.';
COMMENT ON COLUMN corpora.sha256 IS 'SHA-256 of each source file as read (before any normalisation), same order as source_files.';
COMMENT ON COLUMN corpora.sentences IS 'Number of sentences.';
COMMENT ON COLUMN corpora.words IS 'Number of syntactic words (integer IDs).';
COMMENT ON COLUMN corpora.tokens IS 'Number of surface tokens (multiword-token ranges count once, their words not at all).';
COMMENT ON COLUMN corpora.multiword_tokens IS 'Number of multiword-token range lines (e.g. 3-4).';
COMMENT ON COLUMN corpora.empty_nodes IS 'Number of empty-node lines (e.g. 8.1).';
COMMENT ON COLUMN corpora.edges IS 'Rows in edges (words left after punctuation stripping).';
COMMENT ON COLUMN corpora.normalisations IS 'What ingest normalised in the source bytes (BOM removed, CRLF line ends, final blank line added, trailing blank lines); empty when the file was canonical.';
COMMENT ON COLUMN corpora.evalhouse_version IS 'evalhouse version that ingested the corpus.';
COMMENT ON COLUMN corpora.ingested_at IS 'When the ingest transaction ran.';
COMMENT ON COLUMN corpora.missing_lemmas IS 'Words whose LEMMA is _ (a word whose FORM is also _ is an underscore and counts as having its lemma). DEA and lemma BLEU compare such words by their case-folded form; outputs are not scored against a corpus where every word lacks a lemma.';
