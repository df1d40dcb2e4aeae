-- translation_corpora: one row per ingested parallel corpus (source, reference, their word alignment).
-- Grain: corpus. Key: corpus.
CREATE TABLE IF NOT EXISTS translation_corpora (
    corpus            VARCHAR NOT NULL PRIMARY KEY,
    source_language   VARCHAR,
    target_language   VARCHAR,
    pronoun_set       VARCHAR NOT NULL,
    segments          INTEGER NOT NULL,
    documents         INTEGER NOT NULL,
    source_files      VARCHAR[] NOT NULL,
    sha256            VARCHAR[] NOT NULL,
    normalisations    VARCHAR[] NOT NULL,
    skipped_positions INTEGER[] NOT NULL,
    evalhouse_version VARCHAR NOT NULL,
    ingested_at       TIMESTAMP WITH TIME ZONE NOT NULL
);
COMMENT ON TABLE translation_corpora IS 'One row per parallel corpus (source text, reference translation, source-reference word alignment, optional document boundaries). Grain: corpus.';
COMMENT ON COLUMN translation_corpora.corpus IS 'Corpus name (--corpus), the key of segments, translation_systems and pronoun_analyses.';
COMMENT ON COLUMN translation_corpora.source_language IS 'Language code of the source text (from --pronouns es-en or --source-language).';
COMMENT ON COLUMN translation_corpora.target_language IS 'Language code of the reference and system translations.';
COMMENT ON COLUMN translation_corpora.pronoun_set IS 'pronoun_lists.pronoun_set used by the default configurations of this corpus.';
COMMENT ON COLUMN translation_corpora.segments IS 'Number of segments (lines) of the source file.';
COMMENT ON COLUMN translation_corpora.documents IS 'Number of documents (1 when no document-boundary file was given).';
COMMENT ON COLUMN translation_corpora.source_files IS 'source, reference, source-reference alignment and document-boundary files, in that order.';
COMMENT ON COLUMN translation_corpora.sha256 IS 'SHA-256 of each file as read, same order as source_files.';
COMMENT ON COLUMN translation_corpora.normalisations IS 'What ingest normalised (BOM, CRLF, trailing empty lines of an alignment file); empty when the files were canonical.';
COMMENT ON COLUMN translation_corpora.evalhouse_version IS 'evalhouse version that ingested the corpus.';
COMMENT ON COLUMN translation_corpora.ingested_at IS 'When the ingest transaction ran.';
COMMENT ON COLUMN translation_corpora.skipped_positions IS 'Segments whose alignment line had indices beyond the segment and was dropped (--skip-bad-alignment-lines); their pronouns are not scored. Empty normally.';
