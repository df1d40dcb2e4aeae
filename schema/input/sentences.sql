-- sentences: one row per sentence of a corpus, with its comment lines.
-- Grain: corpus x position. Key: (corpus, position); sent_id is unique within a corpus.
CREATE TABLE IF NOT EXISTS sentences (
    corpus        VARCHAR NOT NULL,
    position      INTEGER NOT NULL,
    sent_id       VARCHAR NOT NULL,
    text          VARCHAR,
    comments      VARCHAR[] NOT NULL,
    first_line    BIGINT NOT NULL
);
COMMENT ON TABLE sentences IS 'One row per sentence. Grain: corpus x position.';
COMMENT ON COLUMN sentences.corpus IS 'Corpus name (corpora.corpus).';
COMMENT ON COLUMN sentences.position IS '1-based position of the sentence in the corpus.';
COMMENT ON COLUMN sentences.sent_id IS 'Value of the "# sent_id =" comment, else the position as text.';
COMMENT ON COLUMN sentences.text IS 'Value of the "# text =" comment, NULL when absent.';
COMMENT ON COLUMN sentences.comments IS 'Every comment line of the sentence, verbatim and in order (sent_id and text lines included), so that export reproduces the file.';
COMMENT ON COLUMN sentences.first_line IS 'Line number of the first line of the sentence in its source file.';
