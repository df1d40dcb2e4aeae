-- apt_scores: APT per system and configuration (Miculicich Werlen & Popescu-Belis 2017), with the
-- configuration's own weights and the two settings of Guillou & Hardmeier (2018): APT-A (1 for
-- identical) and APT-B (1 identical, 0.5 equivalent); all over the configuration's cases.
-- Grain: corpus x config x team x run.
-- Key: (corpus, config, team, run).
-- Columns: case_1..case_6 (pronouns per case), pronouns (in the cases used), apt, apt_a, apt_b,
--          and the configuration (pronoun_set, target_list, equivalence, alignment_correction, cases,
--          weights, evalhouse_version).
-- Upstream: pronoun_score_groups (the formulas), pronoun_configs.
CREATE OR REPLACE VIEW apt_scores AS
WITH systems AS (
    SELECT * FROM pronoun_score_groups WHERE grouped_by = 'system'
),
configs AS (
    SELECT * FROM pronoun_configs
),
final AS (
    SELECT s.corpus, s.config, s.team, s.run, s.case_1, s.case_2, s.case_3, s.case_4, s.case_5, s.case_6,
           s.used_pronouns AS pronouns, s.apt, s.apt_a, s.apt_b,
           c.pronoun_set, c.target_list, c.equivalence, c.alignment_correction, c.count_other_as_equal,
           c.cases, c.weights, c.evalhouse_version
    FROM systems s JOIN configs c USING (corpus, config)
)
SELECT * FROM final;

COMMENT ON VIEW apt_scores IS 'APT per configuration and system: pronouns per case, APT with the configuration''s weights, APT-A and APT-B, and the configuration. Grain: corpus x config x team x run.';
COMMENT ON COLUMN apt_scores.case_1 IS 'Source pronouns whose reference and output translations are identical.';
COMMENT ON COLUMN apt_scores.case_2 IS 'Equivalent (different but in an equivalence class).';
COMMENT ON COLUMN apt_scores.case_3 IS 'Different.';
COMMENT ON COLUMN apt_scores.case_4 IS 'No translation in the output (reference has one).';
COMMENT ON COLUMN apt_scores.case_5 IS 'No translation in the reference (output has one).';
COMMENT ON COLUMN apt_scores.case_6 IS 'No translation in either.';
COMMENT ON COLUMN apt_scores.pronouns IS 'Pronouns in the cases the configuration uses (the APT denominator).';
COMMENT ON COLUMN apt_scores.apt IS 'APT = sum of case weights / pronouns, with the configuration''s weights.';
COMMENT ON COLUMN apt_scores.apt_a IS 'APT-A: weight 1 for identical, 0 otherwise (same cases).';
COMMENT ON COLUMN apt_scores.apt_b IS 'APT-B: 1 identical, 0.5 equivalent, 0 otherwise (same cases).';
COMMENT ON COLUMN apt_scores.weights IS 'Weights of the configuration, one per entry of cases.';
COMMENT ON COLUMN apt_scores.corpus IS 'Translation corpus (translation_corpora.corpus).';
COMMENT ON COLUMN apt_scores.config IS 'Name of the pronoun configuration (pronoun_configs.config).';
COMMENT ON COLUMN apt_scores.team IS 'Team (system) that produced the translation.';
COMMENT ON COLUMN apt_scores.run IS 'Run name within the team.';
COMMENT ON COLUMN apt_scores.pronoun_set IS 'Pronoun set of the configuration (pronoun_lists.pronoun_set, e.g. es-en).';
COMMENT ON COLUMN apt_scores.target_list IS 'Whether aligned words were mapped through the target pronoun list (others become OTHER).';
COMMENT ON COLUMN apt_scores.equivalence IS 'Whether equivalent pronouns give case 2 (else case 3).';
COMMENT ON COLUMN apt_scores.alignment_correction IS 'Whether APT''s alignment-correction heuristic was applied.';
COMMENT ON COLUMN apt_scores.count_other_as_equal IS 'Whether OTHER in both reference and output counts as identical.';
COMMENT ON COLUMN apt_scores.cases IS 'APT cases the configuration counts (the denominator), e.g. [1, 2, 3, 4].';
COMMENT ON COLUMN apt_scores.evalhouse_version IS 'evalhouse version that scored the configuration.';
