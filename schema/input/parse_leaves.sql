-- parse_leaves: the leaves (words, traces included) of every ingested parse, with their POS.
-- Grain: corpus x team x run x position x leaf.
CREATE TABLE IF NOT EXISTS parse_leaves (
    corpus    VARCHAR NOT NULL,
    team      VARCHAR,
    run       VARCHAR,
    position  INTEGER NOT NULL,
    leaf      INTEGER NOT NULL,
    word      VARCHAR NOT NULL,
    pos       VARCHAR
);
COMMENT ON TABLE parse_leaves IS 'Leaves of ingested constituency parses in surface order, traces included. Grain: corpus x team x run x position x leaf.';
COMMENT ON COLUMN parse_leaves.leaf IS '0-based leaf index within the sentence (constituent spans count in these indices).';
COMMENT ON COLUMN parse_leaves.pos IS 'Label of the preterminal above the word, verbatim (NULL in the square notation of Sampson & Babarczy 2003, which has no POS).';
