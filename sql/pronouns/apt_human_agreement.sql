-- apt_human_agreement: where APT agrees with human judgements, per pronoun category (Guillou &
-- Hardmeier 2018, Table 3). A pronoun is assessed when people judged it correct or incorrect and APT
-- gave case 1, 2 (counted as correct) or 3 (incorrect); APT cases 4-6 and unjudgeable pronouns are
-- left out. A disagreement is human-correct with case 3, or human-incorrect with case 1 or 2.
-- Grain: corpus x config x category, plus one row per corpus x config with category '(total)'.
-- Key: (corpus, config, category).
-- Upstream: pronoun_cases.
CREATE OR REPLACE VIEW apt_human_agreement AS
WITH assessed AS (
    SELECT corpus, config, category, apt_case, judgement
    FROM pronoun_cases
    WHERE judgement IN ('correct', 'incorrect') AND apt_case IN (1, 2, 3)
),
counts AS (
    SELECT corpus, config, coalesce(category, '(total)') AS category,
           count(*) FILTER (WHERE apt_case = 1) AS case_1,
           count(*) FILTER (WHERE apt_case = 2) AS case_2,
           count(*) FILTER (WHERE apt_case = 3) AS case_3,
           count(*) FILTER (WHERE judgement = 'correct') AS human_correct,
           count(*) FILTER (WHERE judgement = 'incorrect') AS human_incorrect,
           count(*) FILTER (WHERE judgement = 'correct' AND apt_case = 1) AS correct_case_1,
           count(*) FILTER (WHERE judgement = 'correct' AND apt_case = 2) AS correct_case_2,
           count(*) FILTER (WHERE judgement = 'correct' AND apt_case = 3) AS correct_case_3,
           count(*) FILTER (WHERE judgement = 'incorrect' AND apt_case = 1) AS incorrect_case_1,
           count(*) FILTER (WHERE judgement = 'incorrect' AND apt_case = 2) AS incorrect_case_2,
           count(*) FILTER (WHERE judgement = 'incorrect' AND apt_case = 3) AS incorrect_case_3,
           count(*) AS assessed
    FROM assessed
    GROUP BY GROUPING SETS ((corpus, config, category), (corpus, config))
),
final AS (
    SELECT *,
           correct_case_3 + incorrect_case_1 + incorrect_case_2 AS disagreements,
           100.0 * (correct_case_3 + incorrect_case_1 + incorrect_case_2) / assessed AS disagreement_pct
    FROM counts
)
SELECT * FROM final;

COMMENT ON VIEW apt_human_agreement IS 'Per pronoun category: APT cases 1/2/3 among pronouns judged correct and incorrect, and the percentage of disagreements (Guillou & Hardmeier 2018, Table 3). Grain: corpus x config x category (category (total) = all).';
COMMENT ON COLUMN apt_human_agreement.category IS 'Pronoun category from the judgements; (total) for all categories together.';
COMMENT ON COLUMN apt_human_agreement.case_1 IS 'Assessed pronouns APT marks identical.';
COMMENT ON COLUMN apt_human_agreement.case_2 IS 'Assessed pronouns APT marks equivalent.';
COMMENT ON COLUMN apt_human_agreement.case_3 IS 'Assessed pronouns APT marks different (incompatible).';
COMMENT ON COLUMN apt_human_agreement.human_correct IS 'Assessed pronouns people judged correct.';
COMMENT ON COLUMN apt_human_agreement.human_incorrect IS 'Assessed pronouns people judged incorrect.';
COMMENT ON COLUMN apt_human_agreement.assessed IS 'Judged correct/incorrect and APT case 1, 2 or 3.';
COMMENT ON COLUMN apt_human_agreement.disagreements IS 'correct_case_3 + incorrect_case_1 + incorrect_case_2.';
COMMENT ON COLUMN apt_human_agreement.disagreement_pct IS '100 * disagreements / assessed.';
COMMENT ON COLUMN apt_human_agreement.corpus IS 'Translation corpus (translation_corpora.corpus).';
COMMENT ON COLUMN apt_human_agreement.config IS 'Name of the pronoun configuration (pronoun_configs.config).';
COMMENT ON COLUMN apt_human_agreement.correct_case_1 IS 'Pronouns people judged correct that APT marks identical (case 1): agreements.';
COMMENT ON COLUMN apt_human_agreement.correct_case_2 IS 'Pronouns people judged correct that APT marks equivalent (case 2): agreements.';
COMMENT ON COLUMN apt_human_agreement.correct_case_3 IS 'Pronouns people judged correct that APT marks different (case 3): disagreements.';
COMMENT ON COLUMN apt_human_agreement.incorrect_case_1 IS 'Pronouns people judged incorrect that APT marks identical (case 1): disagreements.';
COMMENT ON COLUMN apt_human_agreement.incorrect_case_2 IS 'Pronouns people judged incorrect that APT marks equivalent (case 2): disagreements.';
COMMENT ON COLUMN apt_human_agreement.incorrect_case_3 IS 'Pronouns people judged incorrect that APT marks different (case 3): agreements.';
