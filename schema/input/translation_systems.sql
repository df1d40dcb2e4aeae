-- translation_systems: one row per MT system output (team x run) ingested for a parallel corpus.
-- Grain: corpus x team x run. Key: corpus, team, run.
CREATE TABLE IF NOT EXISTS translation_systems (
    corpus            VARCHAR NOT NULL,
    team              VARCHAR NOT NULL,
    run               VARCHAR NOT NULL,
    source_files      VARCHAR[] NOT NULL,
    sha256            VARCHAR[] NOT NULL,
    normalisations    VARCHAR[] NOT NULL,
    skipped_positions INTEGER[] NOT NULL,
    evalhouse_version VARCHAR NOT NULL,
    ingested_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (corpus, team, run)
);
COMMENT ON TABLE translation_systems IS 'One row per system translation (team x run) of a parallel corpus, with its source-output word alignment. Grain: corpus x team x run.';
COMMENT ON COLUMN translation_systems.corpus IS 'translation_corpora.corpus.';
COMMENT ON COLUMN translation_systems.team IS 'Team (--team); use e.g. reference/self to score the reference against itself.';
COMMENT ON COLUMN translation_systems.run IS 'Run of the team (--run).';
COMMENT ON COLUMN translation_systems.source_files IS 'Output file and source-output alignment file, in that order.';
COMMENT ON COLUMN translation_systems.sha256 IS 'SHA-256 of each file as read, same order as source_files.';
COMMENT ON COLUMN translation_systems.normalisations IS 'What ingest normalised (BOM, CRLF, trailing empty lines of the alignment file).';
COMMENT ON COLUMN translation_systems.evalhouse_version IS 'evalhouse version that ingested the output.';
COMMENT ON COLUMN translation_systems.ingested_at IS 'When the ingest transaction ran.';
COMMENT ON COLUMN translation_systems.skipped_positions IS 'Segments whose alignment line had indices beyond the segment and was dropped (--skip-bad-alignment-lines); their pronouns are not scored. Empty normally.';
