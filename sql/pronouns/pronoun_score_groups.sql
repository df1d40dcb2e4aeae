-- pronoun_score_groups: APT (Miculicich Werlen & Popescu-Belis 2017) and AutoPRF (Hardmeier & Federico
-- 2010), each formula written once, over groups of one system's source pronouns: all of them ('system'),
-- one source pronoun ('source_pronoun'), one document ('document'), or those people judged ('judged').
-- apt_scores, apt_scores_by_pronoun, autoprf_scores, autoprf_scores_by_pronoun,
-- pronoun_scores_by_document and apt_human_correlation select their rows from here.
-- Intermediate: a building block of apt_scores, apt_scores_by_pronoun, autoprf_scores, autoprf_scores_by_pronoun, pronoun_scores_by_document, apt_human_correlation, which a user reads instead (evalhouse views lists it apart).
-- Grain: corpus x config x team x run x grouped_by x group_value.
-- Key: (corpus, config, team, run, grouped_by, group_value).
-- Columns: grouped_by, group_value (the source pronoun or the document; '(all)' otherwise),
--          first_position, pronouns, case_1..case_6, used_pronouns, weighted_cases, used_identical,
--          used_equivalent, judged_correct, the AutoPRF sums, and the scores: apt, apt_a, apt_b,
--          precision, recall, f and their restricted variants.
-- Upstream: pronoun_cases, apt_case_weights.
CREATE OR REPLACE VIEW pronoun_score_groups AS
WITH weighted AS (
    SELECT p.corpus, p.config, p.team, p.run, p.position, p.document, p.source_pronoun, p.apt_case,
           p.judgement, p.autoprf_matches, p.autoprf_reference, p.autoprf_output, p.restricted_match,
           p.restricted_reference, p.restricted_output, w.used, w.weight
    FROM pronoun_cases p JOIN apt_case_weights w USING (corpus, config, apt_case)
),
grouped AS (
    SELECT *, 'system' AS grouped_by, '(all)' AS group_value FROM weighted
    UNION ALL
    SELECT *, 'source_pronoun' AS grouped_by, source_pronoun AS group_value FROM weighted
    UNION ALL
    SELECT *, 'document' AS grouped_by, document AS group_value FROM weighted
    UNION ALL
    SELECT *, 'judged' AS grouped_by, '(all)' AS group_value FROM weighted WHERE judgement IS NOT NULL
),
counts AS (
    SELECT corpus, config, team, run, grouped_by, group_value,
           min(position) AS first_position,
           count(*) AS pronouns,
           count(*) FILTER (WHERE apt_case = 1) AS case_1,
           count(*) FILTER (WHERE apt_case = 2) AS case_2,
           count(*) FILTER (WHERE apt_case = 3) AS case_3,
           count(*) FILTER (WHERE apt_case = 4) AS case_4,
           count(*) FILTER (WHERE apt_case = 5) AS case_5,
           count(*) FILTER (WHERE apt_case = 6) AS case_6,
           count(*) FILTER (WHERE used) AS used_pronouns,
           sum(weight) FILTER (WHERE used) AS weighted_cases,
           count(*) FILTER (WHERE used AND apt_case = 1) AS used_identical,
           count(*) FILTER (WHERE used AND apt_case = 2) AS used_equivalent,
           count(*) FILTER (WHERE judgement = 'correct') AS judged_correct,
           CAST(sum(autoprf_matches) AS BIGINT) AS matches,
           CAST(sum(autoprf_reference) AS BIGINT) AS reference_words,
           CAST(sum(autoprf_output) AS BIGINT) AS output_words,
           CAST(sum(restricted_match) AS BIGINT) AS restricted_matches,
           CAST(sum(restricted_reference) AS BIGINT) AS restricted_reference,
           CAST(sum(restricted_output) AS BIGINT) AS restricted_output
    FROM grouped
    GROUP BY corpus, config, team, run, grouped_by, group_value
),
ratios AS (
    SELECT *,
           weighted_cases / nullif(used_pronouns, 0) AS apt,
           used_identical / nullif(used_pronouns, 0) AS apt_a,
           (used_identical + 0.5 * used_equivalent) / nullif(used_pronouns, 0) AS apt_b,
           matches / nullif(output_words, 0) AS "precision",
           matches / nullif(reference_words, 0) AS recall,
           restricted_matches / nullif(restricted_output, 0) AS restricted_precision,
           restricted_matches / nullif(restricted_reference, 0) AS restricted_recall
    FROM counts
),
final AS (
    SELECT *,
           CASE WHEN "precision" + recall > 0 THEN 2 * "precision" * recall / ("precision" + recall)
                WHEN "precision" + recall = 0 THEN 0.0 END AS f,
           CASE WHEN restricted_precision + restricted_recall > 0
                THEN 2 * restricted_precision * restricted_recall / (restricted_precision + restricted_recall)
                WHEN restricted_precision + restricted_recall = 0 THEN 0.0 END AS restricted_f
    FROM ratios
)
SELECT * FROM final;

COMMENT ON VIEW pronoun_score_groups IS 'APT and AutoPRF, each formula defined once, per system and configuration over all its source pronouns, one source pronoun, one document, or the judged ones. Grain: corpus x config x team x run x grouped_by x group_value.';
COMMENT ON COLUMN pronoun_score_groups.grouped_by IS 'system (all source pronouns), source_pronoun, document, or judged (the pronouns with a human judgement).';
COMMENT ON COLUMN pronoun_score_groups.group_value IS 'The source pronoun or the document; (all) for system and judged.';
COMMENT ON COLUMN pronoun_score_groups.first_position IS 'First segment of the group that has a source pronoun.';
COMMENT ON COLUMN pronoun_score_groups.pronouns IS 'Source pronouns in the group.';
COMMENT ON COLUMN pronoun_score_groups.case_1 IS 'Pronouns whose reference and output translations are identical (case_2: equivalent, case_3: different, case_4: no translation in the output, case_5: none in the reference, case_6: none in either).';
COMMENT ON COLUMN pronoun_score_groups.used_pronouns IS 'Pronouns in the cases the configuration uses (the APT denominator).';
COMMENT ON COLUMN pronoun_score_groups.weighted_cases IS 'Sum of the configuration''s case weights over those pronouns (the APT numerator).';
COMMENT ON COLUMN pronoun_score_groups.used_identical IS 'Pronouns in case 1 among those used.';
COMMENT ON COLUMN pronoun_score_groups.used_equivalent IS 'Pronouns in case 2 among those used.';
COMMENT ON COLUMN pronoun_score_groups.judged_correct IS 'Pronouns people judged correct.';
COMMENT ON COLUMN pronoun_score_groups.matches IS 'AutoPRF: sum of clipped counts.';
COMMENT ON COLUMN pronoun_score_groups.reference_words IS 'AutoPRF: aligned reference words (recall denominator).';
COMMENT ON COLUMN pronoun_score_groups.output_words IS 'AutoPRF: aligned output words (precision denominator).';
COMMENT ON COLUMN pronoun_score_groups.restricted_matches IS 'Pronouns whose reference and output items are identical (one item each).';
COMMENT ON COLUMN pronoun_score_groups.restricted_reference IS 'Pronouns with an aligned reference word.';
COMMENT ON COLUMN pronoun_score_groups.restricted_output IS 'Pronouns with an aligned output word.';
COMMENT ON COLUMN pronoun_score_groups.apt IS 'APT = weighted_cases / used_pronouns (NULL when no pronoun is in a case used).';
COMMENT ON COLUMN pronoun_score_groups.apt_a IS 'APT-A: weight 1 for identical, 0 otherwise (same cases).';
COMMENT ON COLUMN pronoun_score_groups.apt_b IS 'APT-B: 1 identical, 0.5 equivalent, 0 otherwise (same cases).';
COMMENT ON COLUMN pronoun_score_groups.precision IS 'AutoPRF precision: matches / output_words.';
COMMENT ON COLUMN pronoun_score_groups.recall IS 'AutoPRF recall: matches / reference_words.';
COMMENT ON COLUMN pronoun_score_groups.f IS 'Harmonic mean of precision and recall: 0 when both are 0, NULL when either is undefined.';
COMMENT ON COLUMN pronoun_score_groups.restricted_precision IS 'restricted_matches / restricted_output.';
COMMENT ON COLUMN pronoun_score_groups.restricted_recall IS 'restricted_matches / restricted_reference (= APT-A of the plain configuration).';
COMMENT ON COLUMN pronoun_score_groups.restricted_f IS 'Harmonic mean of the restricted precision and recall.';
COMMENT ON COLUMN pronoun_score_groups.corpus IS 'Translation corpus (translation_corpora.corpus).';
COMMENT ON COLUMN pronoun_score_groups.config IS 'Name of the pronoun configuration (pronoun_configs.config).';
COMMENT ON COLUMN pronoun_score_groups.team IS 'Team (system) that produced the translation.';
COMMENT ON COLUMN pronoun_score_groups.run IS 'Run name within the team.';
COMMENT ON COLUMN pronoun_score_groups.case_2 IS 'Pronouns whose reference and output translations are equivalent.';
COMMENT ON COLUMN pronoun_score_groups.case_3 IS 'Pronouns whose translations are different.';
COMMENT ON COLUMN pronoun_score_groups.case_4 IS 'Pronouns with no translation in the output (the reference has one).';
COMMENT ON COLUMN pronoun_score_groups.case_5 IS 'Pronouns with no translation in the reference (the output has one).';
COMMENT ON COLUMN pronoun_score_groups.case_6 IS 'Pronouns with no translation in either.';
