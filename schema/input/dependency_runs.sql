-- dependency_runs: one row per dependency parser run scored against gold UD trees (every CoNLL 2018 metric
-- and dependency leaf-ancestor), with the files, the counts of the span metrics (Tokens, Sentences) and the
-- configuration.
-- Grain: corpus x team x run.
CREATE TABLE IF NOT EXISTS dependency_runs (
    corpus            VARCHAR NOT NULL,
    team              VARCHAR NOT NULL,
    run               VARCHAR NOT NULL,
    gold_file         VARCHAR NOT NULL,
    gold_sha256       VARCHAR NOT NULL,
    system_file       VARCHAR NOT NULL,
    system_sha256     VARCHAR NOT NULL,
    gold_sentences    INTEGER NOT NULL,
    system_sentences  INTEGER NOT NULL,
    gold_words        BIGINT NOT NULL,
    system_words      BIGINT NOT NULL,
    gold_tokens       BIGINT NOT NULL,
    system_tokens     BIGINT NOT NULL,
    matched_tokens    BIGINT NOT NULL,
    matched_sentences INTEGER NOT NULL,
    la_cost           VARCHAR NOT NULL,
    config            VARCHAR NOT NULL,
    evalhouse_version VARCHAR NOT NULL,
    ingested_at       TIMESTAMP WITH TIME ZONE NOT NULL
);
COMMENT ON TABLE dependency_runs IS 'Dependency parser runs scored against gold UD trees (CoNLL 2018 word alignment, LAS/UAS, dependency leaf-ancestor). Grain: corpus x team x run.';
COMMENT ON COLUMN dependency_runs.gold_words IS 'Syntactic words of the gold file (empty nodes excluded).';
COMMENT ON COLUMN dependency_runs.system_words IS 'Syntactic words of the system file (the denominator of precision).';
COMMENT ON COLUMN dependency_runs.gold_tokens IS 'Tokens of the gold file (multiword tokens, and words outside them).';
COMMENT ON COLUMN dependency_runs.system_tokens IS 'Tokens of the system file.';
COMMENT ON COLUMN dependency_runs.matched_tokens IS 'Gold tokens with a system token of the same character span (CoNLL 2018 Tokens: correct).';
COMMENT ON COLUMN dependency_runs.matched_sentences IS 'Gold sentences with a system sentence of the same character span (CoNLL 2018 Sentences: correct).';
COMMENT ON COLUMN dependency_runs.la_cost IS 'JSON: the label-cost function of the dependency LA (relations, universal parts).';
COMMENT ON COLUMN dependency_runs.config IS 'Signature: evalhouse version, alignment (conll2018), relation comparison (universal), LA cost, lineage definition.';
