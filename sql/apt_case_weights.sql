-- apt_case_weights: the weight each APT case gets in each pronoun configuration, and whether the case
-- is counted at all (pronoun_configs keeps them as two aligned lists: cases and weights).
-- Grain: corpus x config x apt_case (cases 1..6). Key: (corpus, config, apt_case).
-- Columns: corpus, config, apt_case, used (the case is in the configuration's cases), weight (NULL
--          when not used).
-- Upstream: pronoun_configs.
CREATE OR REPLACE VIEW apt_case_weights AS
WITH apt_cases AS (
    SELECT apt_case FROM (VALUES (1), (2), (3), (4), (5), (6)) AS t(apt_case)
),
final AS (
    SELECT c.corpus, c.config, k.apt_case,
           list_contains(c.cases, k.apt_case) AS used,
           c.weights[list_position(c.cases, k.apt_case)] AS weight
    FROM pronoun_configs AS c
    CROSS JOIN apt_cases AS k
)
SELECT * FROM final;
COMMENT ON VIEW apt_case_weights IS 'Weight of each APT case (1..6) in each pronoun configuration, and whether it is counted. Grain: corpus x config x apt_case.';
COMMENT ON COLUMN apt_case_weights.used IS 'True when the configuration counts this case (pronoun_configs.cases).';
COMMENT ON COLUMN apt_case_weights.weight IS 'The case''s weight (pronoun_configs.weights); NULL when the case is not used.';
