-- segments: the source text and its reference translation, one row per segment (line).
-- Grain: corpus x position. Key: corpus, position.
CREATE TABLE IF NOT EXISTS segments (
    corpus     VARCHAR NOT NULL,
    position   INTEGER NOT NULL,
    document   VARCHAR NOT NULL,
    source     VARCHAR NOT NULL,
    reference  VARCHAR NOT NULL,
    PRIMARY KEY (corpus, position)
);
COMMENT ON TABLE segments IS 'Source segments and their reference translations (one line of each file). Tokens are the whitespace-separated words; alignment indices refer to them. Grain: corpus x position.';
COMMENT ON COLUMN segments.corpus IS 'translation_corpora.corpus.';
COMMENT ON COLUMN segments.position IS '1-based line number of the segment in the source file.';
COMMENT ON COLUMN segments.document IS 'Document the segment belongs to (from the document-boundary file; the corpus name when none was given).';
COMMENT ON COLUMN segments.source IS 'Source segment as read (tokenised text).';
COMMENT ON COLUMN segments.reference IS 'Reference translation as read (tokenised text).';
