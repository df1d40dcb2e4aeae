-- apt_scores_by_pronoun: APT per system, configuration and source pronoun (it, they, ...).
-- Grain: corpus x config x team x run x source_pronoun.
-- Key: (corpus, config, team, run, source_pronoun).
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
COMMENT ON COLUMN apt_scores_by_pronoun.corpus IS 'Translation corpus (translation_corpora.corpus).';
COMMENT ON COLUMN apt_scores_by_pronoun.config IS 'Name of the pronoun configuration (pronoun_configs.config).';
COMMENT ON COLUMN apt_scores_by_pronoun.team IS 'Team (system) that produced the translation.';
COMMENT ON COLUMN apt_scores_by_pronoun.run IS 'Run name within the team.';
COMMENT ON COLUMN apt_scores_by_pronoun.case_1 IS 'Occurrences of the source pronoun whose reference and output translations are identical.';
COMMENT ON COLUMN apt_scores_by_pronoun.case_2 IS 'Occurrences whose translations are equivalent.';
COMMENT ON COLUMN apt_scores_by_pronoun.case_3 IS 'Occurrences whose translations are different.';
COMMENT ON COLUMN apt_scores_by_pronoun.case_4 IS 'Occurrences with no translation in the output (the reference has one).';
COMMENT ON COLUMN apt_scores_by_pronoun.case_5 IS 'Occurrences with no translation in the reference (the output has one).';
COMMENT ON COLUMN apt_scores_by_pronoun.case_6 IS 'Occurrences with no translation in either.';
