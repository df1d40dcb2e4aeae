-- apt_case_weights: the weight each APT case gets in each pronoun configuration, and whether the case
-- is counted at all (pronoun_configs keeps them as two aligned lists: cases and weights).
-- Intermediate: a building block of pronoun_score_groups, which a user reads instead (evalhouse views lists it apart).
-- Grain: corpus x config x apt_case (cases 1..6). Key: (corpus, config, apt_case).
-- Columns: corpus, config, apt_case, used (the case is in the configuration's cases), weight (NULL
--          when not used).
-- Upstream: pronoun_configs.
-- The two lists are paired by position with UNNEST ... WITH ORDINALITY (standard SQL; sqlglot writes
-- POSEXPLODE for Spark and WITH OFFSET for BigQuery, whose positions start at 0, the same for both
-- lists). A case listed twice takes its first weight, as APT's list.index does.
CREATE OR REPLACE VIEW apt_case_weights AS
WITH apt_cases AS (
    SELECT apt_case FROM (VALUES (1), (2), (3), (4), (5), (6)) AS t(apt_case)
),
listed_cases AS (
    SELECT c.corpus, c.config, u.listed_case, u.case_position
    FROM pronoun_configs AS c
    CROSS JOIN UNNEST(c.cases) WITH ORDINALITY AS u(listed_case, case_position)
),
first_positions AS (
    SELECT corpus, config, listed_case, min(case_position) AS case_position
    FROM listed_cases
    GROUP BY corpus, config, listed_case
),
listed_weights AS (
    SELECT c.corpus, c.config, w.listed_weight, w.weight_position
    FROM pronoun_configs AS c
    CROSS JOIN UNNEST(c.weights) WITH ORDINALITY AS w(listed_weight, weight_position)
),
final AS (
    SELECT c.corpus, c.config, k.apt_case,
           p.listed_case IS NOT NULL AS used,
           w.listed_weight AS weight
    FROM pronoun_configs AS c
    CROSS JOIN apt_cases AS k
    LEFT JOIN first_positions AS p
        ON p.corpus = c.corpus AND p.config = c.config AND p.listed_case = k.apt_case
    LEFT JOIN listed_weights AS w
        ON w.corpus = p.corpus AND w.config = p.config AND w.weight_position = p.case_position
)
SELECT * FROM final;
COMMENT ON VIEW apt_case_weights IS 'Weight of each APT case (1..6) in each pronoun configuration, and whether it is counted. Grain: corpus x config x apt_case.';
COMMENT ON COLUMN apt_case_weights.used IS 'True when the configuration counts this case (pronoun_configs.cases).';
COMMENT ON COLUMN apt_case_weights.weight IS 'The case''s weight (pronoun_configs.weights); NULL when the case is not used.';
COMMENT ON COLUMN apt_case_weights.corpus IS 'Translation corpus (translation_corpora.corpus).';
COMMENT ON COLUMN apt_case_weights.config IS 'Name of the pronoun configuration (pronoun_configs.config).';
COMMENT ON COLUMN apt_case_weights.apt_case IS 'APT case, 1..6 (1 identical, 2 equivalent, 3 different, 4 none in output, 5 none in reference, 6 none in either).';
