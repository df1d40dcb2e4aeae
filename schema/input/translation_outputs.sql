-- translation_outputs: a system's translation of each segment.
-- Grain: corpus x team x run x position. Key: corpus, team, run, position.
CREATE TABLE IF NOT EXISTS translation_outputs (
    corpus    VARCHAR NOT NULL,
    team      VARCHAR NOT NULL,
    run       VARCHAR NOT NULL,
    position  INTEGER NOT NULL,
    output    VARCHAR NOT NULL,
    PRIMARY KEY (corpus, team, run, position)
);
COMMENT ON TABLE translation_outputs IS 'System translations, one row per segment (line of the output file). Grain: corpus x team x run x position.';
COMMENT ON COLUMN translation_outputs.corpus IS 'translation_corpora.corpus.';
COMMENT ON COLUMN translation_outputs.team IS 'translation_systems.team.';
COMMENT ON COLUMN translation_outputs.run IS 'translation_systems.run.';
COMMENT ON COLUMN translation_outputs.position IS '1-based segment position (segments.position).';
COMMENT ON COLUMN translation_outputs.output IS 'System translation as read (tokenised text).';
