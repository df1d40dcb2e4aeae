-- parse_sentences: one row per sentence of an ingested parse file (gold or candidate).
-- Grain: corpus x team x run x position (team, run NULL for gold).
CREATE TABLE IF NOT EXISTS parse_sentences (
    corpus    VARCHAR NOT NULL,
    team      VARCHAR,
    run       VARCHAR,
    position  INTEGER NOT NULL,
    line      INTEGER NOT NULL,
    notation  VARCHAR NOT NULL,
    leaves    INTEGER NOT NULL,
    text      VARCHAR NOT NULL
);
COMMENT ON TABLE parse_sentences IS 'Sentences of ingested constituency parses, in file order. Grain: corpus x team x run x position.';
COMMENT ON COLUMN parse_sentences.position IS '1-based position of the sentence in its file; candidate sentence i is scored against gold sentence i.';
COMMENT ON COLUMN parse_sentences.line IS 'Line of the source file where the tree starts.';
COMMENT ON COLUMN parse_sentences.notation IS 'ptb ((POS word) preterminals), square ([S words ], Sampson & Babarczy 2003) or empty (an empty line in one-per-line mode).';
COMMENT ON COLUMN parse_sentences.leaves IS 'Number of leaves, traces (-NONE-) included.';
COMMENT ON COLUMN parse_sentences.text IS 'The leaves joined by spaces, traces included.';
