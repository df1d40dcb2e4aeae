-- pronoun_cases: every source pronoun's fate per system and configuration: the aligned reference and
-- output words, the APT case (identical, equivalent, different, untranslated), the AutoPRF counts,
-- and the human category and judgement when there is one.
-- Grain: corpus x config x team x run x position x source_index.
-- Key: (corpus, config, team, run, position, source_index).
-- Columns: document, source_pronoun, reference_words/output_words (as aligned), reference_items/
--          output_items (what APT compared), apt_case and case_label, corrections, AutoPRF counts,
--          category and judgement (NULL when the pronoun was not judged).
-- Upstream: pronoun_analyses, segments, pronoun_judgements.
CREATE OR REPLACE VIEW pronoun_cases AS
WITH analyses AS (
    SELECT * FROM pronoun_analyses
),
documents AS (
    SELECT corpus, position, document FROM segments
),
judgements AS (
    SELECT corpus, team, run, position, source_index, category, judgement FROM pronoun_judgements
),
final AS (
    SELECT a.corpus, a.config, a.team, a.run, a.position, d.document, a.source_index, a.source_token,
           a.source_pronoun,
           a.reference_indices, a.reference_words, a.reference_items,
           a.output_indices, a.output_words, a.output_items,
           a.apt_case,
           CASE a.apt_case WHEN 1 THEN 'identical' WHEN 2 THEN 'equivalent' WHEN 3 THEN 'different'
                           WHEN 4 THEN 'no translation in output' WHEN 5 THEN 'no translation in reference'
                           ELSE 'no translation in either' END AS case_label,
           a.reference_corrected, a.output_corrected,
           a.autoprf_matches, a.autoprf_reference, a.autoprf_output,
           a.restricted_match, a.restricted_reference, a.restricted_output,
           j.category, j.judgement
    FROM analyses a
    JOIN documents d USING (corpus, position)
    LEFT JOIN judgements j USING (corpus, team, run, position, source_index)
)
SELECT * FROM final;

COMMENT ON VIEW pronoun_cases IS 'Every source pronoun per configuration and system: aligned reference and output words, APT case (1 identical ... 6 untranslated in both), AutoPRF counts, human category and judgement when known. Grain: corpus x config x team x run x position x source_index.';
COMMENT ON COLUMN pronoun_cases.document IS 'Document of the segment (segments.document).';
COMMENT ON COLUMN pronoun_cases.source_index IS '1-based token index of the source pronoun.';
COMMENT ON COLUMN pronoun_cases.reference_words IS 'Reference tokens aligned to the pronoun (lower-cased, before correction).';
COMMENT ON COLUMN pronoun_cases.reference_items IS 'What APT compared on the reference side (target-list mapping, alignment correction).';
COMMENT ON COLUMN pronoun_cases.output_words IS 'Output tokens aligned to the pronoun (lower-cased, before correction).';
COMMENT ON COLUMN pronoun_cases.output_items IS 'What APT compared on the output side.';
COMMENT ON COLUMN pronoun_cases.apt_case IS 'APT case: 1 identical, 2 equivalent, 3 different, 4 none in output, 5 none in reference, 6 none in either.';
COMMENT ON COLUMN pronoun_cases.case_label IS 'apt_case in words.';
COMMENT ON COLUMN pronoun_cases.autoprf_matches IS 'AutoPRF clipped count of aligned reference words found among the aligned output words.';
COMMENT ON COLUMN pronoun_cases.restricted_match IS '1 when the restricted AutoPRF (one item per example) counts a match.';
COMMENT ON COLUMN pronoun_cases.category IS 'Human category of the pronoun (pronoun_judgements), NULL when not judged.';
COMMENT ON COLUMN pronoun_cases.judgement IS 'Human judgement: correct, incorrect, unjudgeable; NULL when not judged.';
COMMENT ON COLUMN pronoun_cases.corpus IS 'Translation corpus (translation_corpora.corpus).';
COMMENT ON COLUMN pronoun_cases.config IS 'Name of the pronoun configuration (pronoun_configs.config).';
COMMENT ON COLUMN pronoun_cases.team IS 'Team (system) that produced the translation.';
COMMENT ON COLUMN pronoun_cases.run IS 'Run name within the team.';
COMMENT ON COLUMN pronoun_cases.position IS '1-based position of the sentence (or segment) in its corpus.';
COMMENT ON COLUMN pronoun_cases.source_token IS 'The source token as written.';
COMMENT ON COLUMN pronoun_cases.source_pronoun IS 'The source pronoun it was matched to in the pronoun set (lower-cased).';
COMMENT ON COLUMN pronoun_cases.reference_indices IS '1-based reference token indices aligned to the pronoun (as given).';
COMMENT ON COLUMN pronoun_cases.output_indices IS '1-based output token indices aligned to the pronoun (as given).';
COMMENT ON COLUMN pronoun_cases.reference_corrected IS 'The alignment correction added a reference word.';
COMMENT ON COLUMN pronoun_cases.output_corrected IS 'The alignment correction added an output word.';
COMMENT ON COLUMN pronoun_cases.autoprf_reference IS 'Number of aligned reference words (recall denominator).';
COMMENT ON COLUMN pronoun_cases.autoprf_output IS 'Number of aligned output words (precision denominator).';
COMMENT ON COLUMN pronoun_cases.restricted_reference IS '1 when the pronoun has an aligned reference word (restricted AutoPRF).';
COMMENT ON COLUMN pronoun_cases.restricted_output IS '1 when the pronoun has an aligned output word (restricted AutoPRF).';
