-- output_sentences: one row per reference sentence per submission: the output text that realises
-- it, or a missing output (scored as empty).
-- Grain: team x run x corpus x position. Key: (team, run, corpus, position).
CREATE TABLE IF NOT EXISTS output_sentences (
    team         VARCHAR NOT NULL,
    run          VARCHAR NOT NULL,
    corpus       VARCHAR NOT NULL,
    position     INTEGER NOT NULL,
    text         VARCHAR,
    missing      BOOLEAN NOT NULL,
    source_line  INTEGER
);
COMMENT ON TABLE output_sentences IS 'One row per submission x reference sentence: the output text, or missing. Grain: team x run x corpus x position.';
COMMENT ON COLUMN output_sentences.position IS '1-based position of the reference sentence in its corpus (sentences.position).';
COMMENT ON COLUMN output_sentences.text IS 'Output text as submitted (for CoNLL-U outputs: the forms joined by spaces); NULL when missing.';
COMMENT ON COLUMN output_sentences.missing IS 'True when the submission has no output for this sentence; it is scored as an empty output.';
COMMENT ON COLUMN output_sentences.source_line IS 'Line of the output file where the sentence starts; NULL when missing.';
