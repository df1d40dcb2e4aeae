-- submission_sacrebleu: standard sacreBLEU corpus scores of each submission, computed at ingest by
-- sacrebleu itself (analysis/sacrebleu_scores.py): BLEU and chrF of the output texts against the
-- reference # text, with sacrebleu's signature string and one-line report.
-- Grain: team x run x corpus x metric. Key: (team, run, corpus, metric).
-- No rows for a submission whose reference has no # text, or when ingest was told not to compute them.
CREATE TABLE IF NOT EXISTS submission_sacrebleu (
    team           VARCHAR NOT NULL,
    run            VARCHAR NOT NULL,
    corpus         VARCHAR NOT NULL,
    metric         VARCHAR NOT NULL,
    score          DOUBLE NOT NULL,
    signature      VARCHAR NOT NULL,
    report         VARCHAR NOT NULL,
    configuration  VARCHAR NOT NULL,
    PRIMARY KEY (team, run, corpus, metric)
);
COMMENT ON TABLE submission_sacrebleu IS 'sacreBLEU corpus BLEU and chrF of each submission (sacrebleu''s own computation, 0-100) with its signature. Grain: team x run x corpus x metric.';
COMMENT ON COLUMN submission_sacrebleu.metric IS 'bleu (sacrebleu BLEU: 13a tokenisation, mixed case, exponential smoothing) or chrf (chrF2: character 6-grams, beta 2).';
COMMENT ON COLUMN submission_sacrebleu.score IS 'The corpus score as sacrebleu computes it, 0-100.';
COMMENT ON COLUMN submission_sacrebleu.signature IS 'sacrebleu''s signature string (nrefs, case, tokenisation, smoothing, version): quote it with the score.';
COMMENT ON COLUMN submission_sacrebleu.report IS 'sacrebleu''s one-line report (precisions, brevity penalty, lengths for BLEU).';
COMMENT ON COLUMN submission_sacrebleu.configuration IS 'How evalhouse called sacrebleu: the texts compared (output text, reference sentences.text) and the options.';
