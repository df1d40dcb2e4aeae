-- apt_scores: APT per system and configuration (Miculicich Werlen & Popescu-Belis 2017), with the
-- configuration's own weights and the two settings of Guillou & Hardmeier (2018): APT-A (1 for
-- identical) and APT-B (1 identical, 0.5 equivalent); all over the configuration's cases.
-- Grain: corpus x config x team x run.
-- Columns: case_1..case_6 (pronouns per case), pronouns (in the cases used), apt, apt_a, apt_b,
--          and the configuration (pronoun_set, target_list, equivalence, alignment_correction, cases,
--          weights, evalhouse_version).
-- Upstream: pronoun_analyses, pronoun_configs, apt_case_weights.
CREATE OR REPLACE VIEW apt_scores AS
WITH analyses AS (
    SELECT corpus, config, team, run, apt_case FROM pronoun_analyses
),
configs AS (
    SELECT * FROM pronoun_configs
),
weighted AS (
    SELECT a.corpus, a.config, a.team, a.run, a.apt_case, w.used, w.weight
    FROM analyses a JOIN apt_case_weights w USING (corpus, config, apt_case)
),
counted AS (
    SELECT corpus, config, team, run,
           count(*) FILTER (WHERE apt_case = 1) AS case_1,
           count(*) FILTER (WHERE apt_case = 2) AS case_2,
           count(*) FILTER (WHERE apt_case = 3) AS case_3,
           count(*) FILTER (WHERE apt_case = 4) AS case_4,
           count(*) FILTER (WHERE apt_case = 5) AS case_5,
           count(*) FILTER (WHERE apt_case = 6) AS case_6,
           count(*) FILTER (WHERE used) AS pronouns,
           sum(weight) FILTER (WHERE used) / count(*) FILTER (WHERE used) AS apt,
           count(*) FILTER (WHERE used AND apt_case = 1) / count(*) FILTER (WHERE used) AS apt_a,
           (count(*) FILTER (WHERE used AND apt_case = 1) + 0.5 * count(*) FILTER (WHERE used AND apt_case = 2))
               / count(*) FILTER (WHERE used) AS apt_b
    FROM weighted
    GROUP BY corpus, config, team, run
),
final AS (
    SELECT n.*,
           c.pronoun_set, c.target_list, c.equivalence, c.alignment_correction, c.count_other_as_equal,
           c.cases, c.weights, c.evalhouse_version
    FROM counted n JOIN configs c USING (corpus, config)
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
