-- multiword_tokens: one row per multiword-token range line (e.g. "3-4  don't").
-- Grain: corpus x position x first_id.
CREATE TABLE IF NOT EXISTS multiword_tokens (
    corpus    VARCHAR NOT NULL,
    position  INTEGER NOT NULL,
    first_id  INTEGER NOT NULL,
    last_id   INTEGER NOT NULL,
    form      VARCHAR NOT NULL,
    lemma     VARCHAR NOT NULL,
    upos      VARCHAR NOT NULL,
    xpos      VARCHAR NOT NULL,
    feats     VARCHAR NOT NULL,
    head      VARCHAR NOT NULL,
    deprel    VARCHAR NOT NULL,
    deps      VARCHAR NOT NULL,
    misc      VARCHAR NOT NULL
);
COMMENT ON TABLE multiword_tokens IS 'Multiword-token ranges (ID a-b): the surface token spanning words a..b. Columns after form are verbatim (normally "_"). Grain: corpus x position x first_id.';
COMMENT ON COLUMN multiword_tokens.first_id IS 'First word ID of the range (a in a-b).';
COMMENT ON COLUMN multiword_tokens.last_id IS 'Last word ID of the range (b in a-b).';
