-- judgements: human scores of output sentences, one row per annotator x criterion x sentence, as read
-- from the judgement CSV files.
-- Grain: team x run x corpus x position x annotator x criterion. Key: those six columns.
CREATE TABLE IF NOT EXISTS judgements (
    team         VARCHAR NOT NULL,
    run          VARCHAR NOT NULL,
    corpus       VARCHAR NOT NULL,
    position     INTEGER NOT NULL,
    sent_id      VARCHAR NOT NULL,
    annotator    VARCHAR NOT NULL,
    criterion    VARCHAR NOT NULL,
    score        DOUBLE NOT NULL,
    source_file  VARCHAR NOT NULL,
    source_line  INTEGER NOT NULL
);
COMMENT ON TABLE judgements IS 'Raw human scores (e.g. fluency, adequacy) of output sentences. Grain: team x run x corpus x position x annotator x criterion.';
COMMENT ON COLUMN judgements.position IS 'Position of the judged reference sentence (resolved from sent_id at ingest).';
COMMENT ON COLUMN judgements.sent_id IS 'sent_id as written in the judgement file (a reference sent_id or a position).';
COMMENT ON COLUMN judgements.criterion IS 'What was judged, lower case (fluency, adequacy, ...).';
COMMENT ON COLUMN judgements.score IS 'Raw score as given by the annotator.';
