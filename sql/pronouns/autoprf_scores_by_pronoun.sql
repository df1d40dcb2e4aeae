-- autoprf_scores_by_pronoun: AutoPRF and its restricted variant per system and source pronoun.
-- Grain: corpus x config x team x run x source_pronoun.
-- Key: (corpus, config, team, run, source_pronoun).
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
COMMENT ON COLUMN autoprf_scores_by_pronoun.corpus IS 'Translation corpus (translation_corpora.corpus).';
COMMENT ON COLUMN autoprf_scores_by_pronoun.config IS 'Name of the pronoun configuration (pronoun_configs.config).';
COMMENT ON COLUMN autoprf_scores_by_pronoun.team IS 'Team (system) that produced the translation.';
COMMENT ON COLUMN autoprf_scores_by_pronoun.run IS 'Run name within the team.';
COMMENT ON COLUMN autoprf_scores_by_pronoun.source_pronoun IS 'The source pronoun (as listed in the pronoun set).';
COMMENT ON COLUMN autoprf_scores_by_pronoun.pronouns IS 'Occurrences of the source pronoun.';
COMMENT ON COLUMN autoprf_scores_by_pronoun.reference_words IS 'Aligned reference words (the recall denominator).';
COMMENT ON COLUMN autoprf_scores_by_pronoun.output_words IS 'Aligned output words (the precision denominator).';
COMMENT ON COLUMN autoprf_scores_by_pronoun.restricted_matches IS 'Occurrences whose reference and output items are identical (one item each).';
COMMENT ON COLUMN autoprf_scores_by_pronoun.restricted_reference IS 'Occurrences with an aligned reference word.';
COMMENT ON COLUMN autoprf_scores_by_pronoun.restricted_output IS 'Occurrences with an aligned output word.';
COMMENT ON COLUMN autoprf_scores_by_pronoun.precision IS 'AutoPRF precision: matches / output_words.';
COMMENT ON COLUMN autoprf_scores_by_pronoun.recall IS 'AutoPRF recall: matches / reference_words.';
COMMENT ON COLUMN autoprf_scores_by_pronoun.restricted_precision IS 'restricted_matches / restricted_output.';
COMMENT ON COLUMN autoprf_scores_by_pronoun.restricted_recall IS 'restricted_matches / restricted_reference.';
