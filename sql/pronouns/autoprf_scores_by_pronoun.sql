-- autoprf_scores_by_pronoun: AutoPRF and its restricted variant per system and source pronoun.
-- Grain: corpus x config x team x run x source_pronoun.
-- Upstream: pronoun_analyses.
CREATE OR REPLACE VIEW autoprf_scores_by_pronoun AS
WITH sums AS (
    SELECT corpus, config, team, run, source_pronoun,
           count(*) AS pronouns,
           sum(autoprf_matches) AS matches,
           sum(autoprf_reference) AS reference_words,
           sum(autoprf_output) AS output_words,
           sum(restricted_match) AS restricted_matches,
           sum(restricted_reference) AS restricted_reference,
           sum(restricted_output) AS restricted_output
    FROM pronoun_analyses
    GROUP BY corpus, config, team, run, source_pronoun
),
final AS (
    SELECT *,
           matches / nullif(output_words, 0) AS "precision",
           matches / nullif(reference_words, 0) AS recall,
           2 * matches / nullif(output_words + reference_words, 0) AS f,
           restricted_matches / nullif(restricted_output, 0) AS restricted_precision,
           restricted_matches / nullif(restricted_reference, 0) AS restricted_recall,
           2 * restricted_matches / nullif(restricted_output + restricted_reference, 0) AS restricted_f
    FROM sums
)
SELECT * FROM final;

COMMENT ON VIEW autoprf_scores_by_pronoun IS 'AutoPRF precision/recall/F and the restricted variant per configuration, system and source pronoun. Grain: corpus x config x team x run x source_pronoun.';
COMMENT ON COLUMN autoprf_scores_by_pronoun.matches IS 'Sum of clipped counts.';
COMMENT ON COLUMN autoprf_scores_by_pronoun.f IS 'F = 2PR/(P+R) = 2 matches / (output_words + reference_words).';
COMMENT ON COLUMN autoprf_scores_by_pronoun.restricted_f IS 'Same for the restricted counts.';
