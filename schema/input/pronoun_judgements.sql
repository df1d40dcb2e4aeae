-- pronoun_judgements: human judgements of pronoun translations (e.g. PROTEST-style), one per system x pronoun.
-- Grain: corpus x team x run x position x source_index. Key: those columns.
CREATE TABLE IF NOT EXISTS pronoun_judgements (
    corpus        VARCHAR NOT NULL,
    team          VARCHAR NOT NULL,
    run           VARCHAR NOT NULL,
    position      INTEGER NOT NULL,
    source_index  INTEGER NOT NULL,
    category      VARCHAR NOT NULL,
    judgement     VARCHAR NOT NULL,
    file          VARCHAR NOT NULL,
    line          INTEGER NOT NULL,
    PRIMARY KEY (corpus, team, run, position, source_index)
);
COMMENT ON TABLE pronoun_judgements IS 'Human judgements of a system''s translation of one source pronoun, with the pronoun''s category. Grain: corpus x team x run x position x source_index.';
COMMENT ON COLUMN pronoun_judgements.position IS '1-based segment position.';
COMMENT ON COLUMN pronoun_judgements.source_index IS '1-based index of the pronoun among the source segment''s tokens.';
COMMENT ON COLUMN pronoun_judgements.category IS 'Pronoun category, e.g. PROTEST''s anaphoric intra sbj it, pleonastic it, deictic sg you.';
COMMENT ON COLUMN pronoun_judgements.judgement IS 'correct, incorrect or unjudgeable.';
COMMENT ON COLUMN pronoun_judgements.file IS 'CSV file the judgement was read from.';
COMMENT ON COLUMN pronoun_judgements.line IS '1-based line in that file.';
