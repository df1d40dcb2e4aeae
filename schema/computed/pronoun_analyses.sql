-- pronoun_analyses: the per-pronoun facts of APT and AutoPRF, computed in Python at ingest (and by
-- evalhouse apt) and materialised so that every pronoun view is plain SQL.
-- Grain: corpus x config x team x run x position x source_index. Key: those columns.
CREATE TABLE IF NOT EXISTS pronoun_analyses (
    corpus              VARCHAR NOT NULL,
    config              VARCHAR NOT NULL,
    team                VARCHAR NOT NULL,
    run                 VARCHAR NOT NULL,
    position            INTEGER NOT NULL,
    source_index        INTEGER NOT NULL,
    source_token        VARCHAR NOT NULL,
    source_pronoun      VARCHAR NOT NULL,
    reference_indices   INTEGER[] NOT NULL,
    reference_words     VARCHAR[] NOT NULL,
    reference_items     VARCHAR[] NOT NULL,
    reference_item_indices INTEGER[] NOT NULL,
    output_indices      INTEGER[] NOT NULL,
    output_words        VARCHAR[] NOT NULL,
    output_items        VARCHAR[] NOT NULL,
    output_item_indices INTEGER[] NOT NULL,
    reference_corrected BOOLEAN NOT NULL,
    output_corrected    BOOLEAN NOT NULL,
    apt_case            INTEGER NOT NULL,
    matrix_reference    VARCHAR NOT NULL,
    matrix_output       VARCHAR NOT NULL,
    autoprf_matches     INTEGER NOT NULL,
    autoprf_reference   INTEGER NOT NULL,
    autoprf_output      INTEGER NOT NULL,
    restricted_match    INTEGER NOT NULL,
    restricted_reference INTEGER NOT NULL,
    restricted_output   INTEGER NOT NULL,
    PRIMARY KEY (corpus, config, team, run, position, source_index)
);
COMMENT ON TABLE pronoun_analyses IS 'One row per configuration x system x source pronoun: aligned reference and output words, APT case, AutoPRF clipped counts. Grain: corpus x config x team x run x position x source_index.';
COMMENT ON COLUMN pronoun_analyses.config IS 'pronoun_configs.config.';
COMMENT ON COLUMN pronoun_analyses.position IS '1-based segment position.';
COMMENT ON COLUMN pronoun_analyses.source_index IS '1-based token index of the source pronoun.';
COMMENT ON COLUMN pronoun_analyses.source_token IS 'Source token (lower-cased).';
COMMENT ON COLUMN pronoun_analyses.source_pronoun IS 'The listed pronoun found in it (differs from source_token only with a source word separator).';
COMMENT ON COLUMN pronoun_analyses.reference_indices IS '1-based reference token indices aligned to the pronoun (as given).';
COMMENT ON COLUMN pronoun_analyses.reference_words IS 'Those reference tokens, lower-cased (AutoPRF compares these).';
COMMENT ON COLUMN pronoun_analyses.reference_items IS 'What APT compares: the words mapped through the target list (OTHER for unlisted words) after alignment correction; empty = no translation.';
COMMENT ON COLUMN pronoun_analyses.reference_item_indices IS '1-based reference indices after alignment correction.';
COMMENT ON COLUMN pronoun_analyses.output_indices IS '1-based output token indices aligned to the pronoun (as given).';
COMMENT ON COLUMN pronoun_analyses.output_words IS 'Those output tokens, lower-cased.';
COMMENT ON COLUMN pronoun_analyses.output_items IS 'What APT compares on the output side.';
COMMENT ON COLUMN pronoun_analyses.output_item_indices IS '1-based output indices after alignment correction.';
COMMENT ON COLUMN pronoun_analyses.reference_corrected IS 'The alignment correction added a reference word.';
COMMENT ON COLUMN pronoun_analyses.output_corrected IS 'The alignment correction added an output word.';
COMMENT ON COLUMN pronoun_analyses.apt_case IS 'APT case: 1 identical, 2 equivalent, 3 different, 4 no output translation, 5 no reference translation, 6 neither.';
COMMENT ON COLUMN pronoun_analyses.matrix_reference IS 'Row label of the APT confusion matrix (NONE when no translation).';
COMMENT ON COLUMN pronoun_analyses.matrix_output IS 'Column label of the APT confusion matrix.';
COMMENT ON COLUMN pronoun_analyses.autoprf_matches IS 'AutoPRF clipped count: sum over words of min(count in reference words, count in output words).';
COMMENT ON COLUMN pronoun_analyses.autoprf_reference IS 'Number of aligned reference words (recall denominator).';
COMMENT ON COLUMN pronoun_analyses.autoprf_output IS 'Number of aligned output words (precision denominator).';
COMMENT ON COLUMN pronoun_analyses.restricted_match IS 'Restricted AutoPRF (one item per example): 1 when reference and output items are identical (APT case 1 without equivalence or correction).';
COMMENT ON COLUMN pronoun_analyses.restricted_reference IS '1 when the pronoun has an aligned reference word.';
COMMENT ON COLUMN pronoun_analyses.restricted_output IS '1 when the pronoun has an aligned output word.';
