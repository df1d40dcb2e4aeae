-- sacrebleu_scores: standard sacreBLEU corpus BLEU and chrF of each submission, as sacrebleu itself
-- computed them at ingest (table submission_sacrebleu), one row per submission, with the signature
-- strings to quote beside the numbers.
-- Grain: team x run x corpus. Key: (team, run, corpus). Submissions without sacreBLEU scores (the
-- reference has no # text, or ingest was told not to compute them) have no row.
-- Columns: team, run, corpus, bleu, bleu_signature, bleu_report, chrf, chrf_signature, chrf_report,
--   tokenised_output, configuration.
-- Upstream: submission_sacrebleu, submissions.
CREATE OR REPLACE VIEW sacrebleu_scores AS
WITH bleu AS (
    SELECT team, run, corpus, score, signature, report, configuration
    FROM submission_sacrebleu
    WHERE metric = 'bleu'
),
chrf AS (
    SELECT team, run, corpus, score, signature, report
    FROM submission_sacrebleu
    WHERE metric = 'chrf'
),
final AS (
    SELECT b.team, b.run, b.corpus,
           b.score AS bleu, b.signature AS bleu_signature, b.report AS bleu_report,
           c.score AS chrf, c.signature AS chrf_signature, c.report AS chrf_report,
           u.format = 'conllu' AS tokenised_output,
           b.configuration
    FROM bleu AS b
    JOIN submissions AS u ON u.team = b.team AND u.run = b.run AND u.corpus = b.corpus
    LEFT JOIN chrf AS c ON c.team = b.team AND c.run = b.run AND c.corpus = b.corpus
)
SELECT * FROM final;
COMMENT ON VIEW sacrebleu_scores IS 'sacreBLEU corpus BLEU and chrF of each submission (computed by sacrebleu, 0-100) with the signature strings to quote. Grain: team x run x corpus.';
COMMENT ON COLUMN sacrebleu_scores.team IS 'Team of the submission.';
COMMENT ON COLUMN sacrebleu_scores.run IS 'Run of the submission.';
COMMENT ON COLUMN sacrebleu_scores.corpus IS 'Reference corpus.';
COMMENT ON COLUMN sacrebleu_scores.bleu IS 'sacreBLEU corpus BLEU (0-100): 13a tokenisation, case kept, exponential smoothing, of the output texts against the reference # text.';
COMMENT ON COLUMN sacrebleu_scores.bleu_signature IS 'sacrebleu''s BLEU signature, e.g. nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0.';
COMMENT ON COLUMN sacrebleu_scores.bleu_report IS 'sacrebleu''s one-line BLEU report: n-gram precisions, brevity penalty, length ratio and lengths.';
COMMENT ON COLUMN sacrebleu_scores.chrf IS 'sacreBLEU corpus chrF2 (0-100): character 6-grams, beta 2.';
COMMENT ON COLUMN sacrebleu_scores.chrf_signature IS 'sacrebleu''s chrF signature, e.g. nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0.';
COMMENT ON COLUMN sacrebleu_scores.chrf_report IS 'sacrebleu''s one-line chrF report.';
COMMENT ON COLUMN sacrebleu_scores.tokenised_output IS 'True for a CoNLL-U output, whose text is its FORMs joined by spaces (tokenised).';
COMMENT ON COLUMN sacrebleu_scores.configuration IS 'How evalhouse called sacrebleu: the texts compared and the options (submission_sacrebleu.configuration).';
