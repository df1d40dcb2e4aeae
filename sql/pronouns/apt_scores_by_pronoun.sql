-- apt_scores_by_pronoun: APT per system, configuration and source pronoun (it, they, ...).
-- Grain: corpus x config x team x run x source_pronoun.
-- Columns: as apt_scores without the configuration columns.
-- Upstream: pronoun_score_groups (the formulas).
CREATE OR REPLACE VIEW apt_scores_by_pronoun AS
WITH final AS (
    SELECT corpus, config, team, run, group_value AS source_pronoun, case_1, case_2, case_3, case_4, case_5,
           case_6, used_pronouns AS pronouns, apt, apt_a, apt_b
    FROM pronoun_score_groups
    WHERE grouped_by = 'source_pronoun'
)
SELECT * FROM final;

COMMENT ON VIEW apt_scores_by_pronoun IS 'APT per configuration, system and source pronoun. Grain: corpus x config x team x run x source_pronoun.';
COMMENT ON COLUMN apt_scores_by_pronoun.source_pronoun IS 'The source pronoun (as listed in the pronoun set).';
COMMENT ON COLUMN apt_scores_by_pronoun.pronouns IS 'Occurrences in the cases the configuration uses (NULL scores when 0).';
COMMENT ON COLUMN apt_scores_by_pronoun.apt IS 'APT with the configuration''s weights.';
COMMENT ON COLUMN apt_scores_by_pronoun.apt_a IS 'APT-A (identical only).';
COMMENT ON COLUMN apt_scores_by_pronoun.apt_b IS 'APT-B (identical 1, equivalent 0.5).';
