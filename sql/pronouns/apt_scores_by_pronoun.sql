-- apt_scores_by_pronoun: APT per system, configuration and source pronoun (it, they, ...).
-- Grain: corpus x config x team x run x source_pronoun.
-- Columns: as apt_scores without the configuration columns.
-- Upstream: pronoun_analyses, apt_case_weights.
CREATE OR REPLACE VIEW apt_scores_by_pronoun AS
WITH weighted AS (
    SELECT a.corpus, a.config, a.team, a.run, a.source_pronoun, a.apt_case, w.used, w.weight
    FROM pronoun_analyses a JOIN apt_case_weights w USING (corpus, config, apt_case)
),
final AS (
    SELECT corpus, config, team, run, source_pronoun,
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
    GROUP BY corpus, config, team, run, source_pronoun
)
SELECT * FROM final;

COMMENT ON VIEW apt_scores_by_pronoun IS 'APT per configuration, system and source pronoun. Grain: corpus x config x team x run x source_pronoun.';
COMMENT ON COLUMN apt_scores_by_pronoun.source_pronoun IS 'The source pronoun (as listed in the pronoun set).';
COMMENT ON COLUMN apt_scores_by_pronoun.pronouns IS 'Occurrences in the cases the configuration uses (NULL scores when 0).';
COMMENT ON COLUMN apt_scores_by_pronoun.apt IS 'APT with the configuration''s weights.';
COMMENT ON COLUMN apt_scores_by_pronoun.apt_a IS 'APT-A (identical only).';
COMMENT ON COLUMN apt_scores_by_pronoun.apt_b IS 'APT-B (identical 1, equivalent 0.5).';
