-- submissions: one row per system output ingested against a reference corpus (team x run x corpus),
-- with the file it came from and the configuration every score of it was computed with.
-- Grain: team x run x corpus. Key: (team, run, corpus).
CREATE TABLE IF NOT EXISTS submissions (
    team               VARCHAR NOT NULL,
    run                VARCHAR NOT NULL,
    corpus             VARCHAR NOT NULL,
    format             VARCHAR NOT NULL,
    source_file        VARCHAR NOT NULL,
    sha256             VARCHAR NOT NULL,
    sentences          INTEGER NOT NULL,
    given_sentences    INTEGER NOT NULL,
    missing_sentences  INTEGER NOT NULL,
    missing_positions  INTEGER[] NOT NULL,
    normalisations     VARCHAR[] NOT NULL,
    configuration      VARCHAR NOT NULL,
    evalhouse_version  VARCHAR NOT NULL,
    ingested_at        TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (team, run, corpus)
);
COMMENT ON TABLE submissions IS 'One row per ingested system output (team x run x corpus) with its source file and scoring configuration. Grain: team x run x corpus.';
COMMENT ON COLUMN submissions.corpus IS 'Reference corpus the output realises (corpora.corpus).';
COMMENT ON COLUMN submissions.format IS 'Input format as read: sr, lines or conllu.';
COMMENT ON COLUMN submissions.source_file IS 'Path of the output file as given to ingest.';
COMMENT ON COLUMN submissions.sha256 IS 'SHA-256 of the output file bytes.';
COMMENT ON COLUMN submissions.sentences IS 'Sentences of the reference corpus (every one is scored).';
COMMENT ON COLUMN submissions.given_sentences IS 'Sentences the file contains.';
COMMENT ON COLUMN submissions.missing_sentences IS 'Reference sentences the file does not contain; they are scored as empty outputs.';
COMMENT ON COLUMN submissions.missing_positions IS 'Positions of the missing reference sentences.';
COMMENT ON COLUMN submissions.normalisations IS 'What reading the file normalised (byte-order mark removed, CRLF line ends).';
COMMENT ON COLUMN submissions.configuration IS 'Signature of every score of this submission: tokenisation, alignment, BLEU, edit distance, punctuation and case handling, evalhouse version.';
