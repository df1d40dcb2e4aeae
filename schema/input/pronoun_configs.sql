-- pronoun_configs: every configuration pronoun scores were computed with (sacrebleu-style signature).
-- Grain: corpus x config. Key: corpus, config.
CREATE TABLE IF NOT EXISTS pronoun_configs (
    corpus                VARCHAR NOT NULL,
    config                VARCHAR NOT NULL,
    pronoun_set           VARCHAR NOT NULL,
    target_list           BOOLEAN NOT NULL,
    equivalence           BOOLEAN NOT NULL,
    alignment_correction  BOOLEAN NOT NULL,
    count_other_as_equal  BOOLEAN NOT NULL,
    cases                 INTEGER[] NOT NULL,
    weights               DOUBLE[] NOT NULL,
    source_separator      VARCHAR,
    target_separator      VARCHAR,
    origin                VARCHAR NOT NULL,
    evalhouse_version     VARCHAR NOT NULL,
    created_at            TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (corpus, config)
);
COMMENT ON TABLE pronoun_configs IS 'Configurations of APT/AutoPRF runs: pronoun set, target list, equivalence, alignment correction, cases and weights, evalhouse version. Grain: corpus x config.';
COMMENT ON COLUMN pronoun_configs.config IS 'Configuration name: apt-a, apt-b (Guillou & Hardmeier 2018) and plain (restricted AutoPRF recall) are created with every corpus; evalhouse apt adds more.';
COMMENT ON COLUMN pronoun_configs.pronoun_set IS 'pronoun_lists.pronoun_set giving the source pronouns (and target list and classes).';
COMMENT ON COLUMN pronoun_configs.target_list IS 'true: aligned words are mapped through the target pronoun list (others become OTHER); false: raw aligned words are compared.';
COMMENT ON COLUMN pronoun_configs.equivalence IS 'Whether equivalent classes give APT case 2.';
COMMENT ON COLUMN pronoun_configs.alignment_correction IS 'Whether the alignment-correction heuristic was applied (docs/pronoun-evaluation.md).';
COMMENT ON COLUMN pronoun_configs.count_other_as_equal IS 'Whether OTHER (a non-listed word) in both reference and output counts as identical.';
COMMENT ON COLUMN pronoun_configs.cases IS 'APT cases counted in the score (others are dropped from numerator and denominator).';
COMMENT ON COLUMN pronoun_configs.weights IS 'Weight of each case in cases, same order.';
COMMENT ON COLUMN pronoun_configs.source_separator IS 'Character splitting a source token into sub-words (APT source_word_separator); NULL = none.';
COMMENT ON COLUMN pronoun_configs.target_separator IS 'Same for target tokens.';
COMMENT ON COLUMN pronoun_configs.origin IS 'Where the configuration came from: built-in default, command-line options, or the APT configuration file read.';
COMMENT ON COLUMN pronoun_configs.evalhouse_version IS 'evalhouse version that computed the analyses.';
COMMENT ON COLUMN pronoun_configs.created_at IS 'When the configuration was computed.';
