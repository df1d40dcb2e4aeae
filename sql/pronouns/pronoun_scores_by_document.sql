-- pronoun_scores_by_document: APT and AutoPRF per document (document boundaries respected: every
-- count comes from the segments of one document), as the DiscoMT scorer reports them.
-- Grain: corpus x config x team x run x document.
-- Upstream: pronoun_cases, apt_case_weights.
CREATE OR REPLACE VIEW pronoun_scores_by_document AS
WITH weighted AS (
    SELECT p.*, w.used, w.weight
    FROM pronoun_cases p JOIN apt_case_weights w USING (corpus, config, apt_case)
),
final AS (
    SELECT corpus, config, team, run, document,
           min(position) AS first_position,
           count(*) AS pronouns,
           sum(weight) FILTER (WHERE used) / nullif(count(*) FILTER (WHERE used), 0) AS apt,
           sum(autoprf_matches) AS matches,
           sum(autoprf_reference) AS reference_words,
           sum(autoprf_output) AS output_words,
           sum(autoprf_matches) / nullif(sum(autoprf_output), 0) AS "precision",
           sum(autoprf_matches) / nullif(sum(autoprf_reference), 0) AS recall
    FROM weighted
    GROUP BY corpus, config, team, run, document
)
SELECT * FROM final;

COMMENT ON VIEW pronoun_scores_by_document IS 'APT (configuration weights) and AutoPRF precision/recall per document. Grain: corpus x config x team x run x document.';
COMMENT ON COLUMN pronoun_scores_by_document.first_position IS 'First segment of the document that has a source pronoun.';
COMMENT ON COLUMN pronoun_scores_by_document.pronouns IS 'Source pronouns in the document.';
COMMENT ON COLUMN pronoun_scores_by_document.apt IS 'APT over the document''s pronouns in the cases used (NULL when none).';
COMMENT ON COLUMN pronoun_scores_by_document.recall IS 'AutoPRF recall: matches / reference_words.';
