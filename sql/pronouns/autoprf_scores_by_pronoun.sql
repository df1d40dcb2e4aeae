-- autoprf_scores_by_pronoun: AutoPRF and its restricted variant per system and source pronoun.
-- Grain: corpus x config x team x run x source_pronoun.
-- Upstream: pronoun_score_groups (the formulas).
CREATE OR REPLACE VIEW autoprf_scores_by_pronoun AS
WITH final AS (
    SELECT corpus, config, team, run, group_value AS source_pronoun, pronouns, matches, reference_words,
           output_words, restricted_matches, restricted_reference, restricted_output, "precision", recall, f,
           restricted_precision, restricted_recall, restricted_f
    FROM pronoun_score_groups
    WHERE grouped_by = 'source_pronoun'
)
SELECT * FROM final;

COMMENT ON VIEW autoprf_scores_by_pronoun IS 'AutoPRF precision/recall/F and the restricted variant per configuration, system and source pronoun. Grain: corpus x config x team x run x source_pronoun.';
COMMENT ON COLUMN autoprf_scores_by_pronoun.matches IS 'Sum of clipped counts.';
COMMENT ON COLUMN autoprf_scores_by_pronoun.f IS 'Harmonic mean of precision and recall: 0 when both are 0, NULL when either is undefined.';
COMMENT ON COLUMN autoprf_scores_by_pronoun.restricted_f IS 'Same for the restricted counts.';
