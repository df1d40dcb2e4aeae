-- autoprf_scores: AutoPRF (Hardmeier & Federico 2010) per system: precision, recall and F of the
-- clipped counts of aligned reference words among aligned output words; and the restricted variant
-- of Guillou & Hardmeier (2018, section 4), one pronominal item per example.
-- Grain: corpus x config x team x run (AutoPRF ignores equivalence and correction; the configuration
--        decides the source pronouns and, for the restricted variant, the target-list mapping).
-- Key: (corpus, config, team, run).
-- Upstream: pronoun_score_groups (the formulas).
CREATE OR REPLACE VIEW autoprf_scores AS
WITH final AS (
    SELECT corpus, config, team, run, pronouns, matches, reference_words, output_words, restricted_matches,
           restricted_reference, restricted_output, "precision", recall, restricted_precision,
           restricted_recall, f, restricted_f
    FROM pronoun_score_groups
    WHERE grouped_by = 'system'
)
SELECT * FROM final;

COMMENT ON VIEW autoprf_scores IS 'AutoPRF precision, recall and F (clipped counts over aligned words) and the restricted variant (one item per example; its recall equals APT without equivalence and correction over cases 1-4). Grain: corpus x config x team x run.';
COMMENT ON COLUMN autoprf_scores.pronouns IS 'Source pronouns evaluated.';
COMMENT ON COLUMN autoprf_scores.matches IS 'Sum of clipped counts.';
COMMENT ON COLUMN autoprf_scores.reference_words IS 'Aligned reference words (recall denominator).';
COMMENT ON COLUMN autoprf_scores.output_words IS 'Aligned output words (precision denominator).';
COMMENT ON COLUMN autoprf_scores.precision IS 'matches / output_words.';
COMMENT ON COLUMN autoprf_scores.recall IS 'matches / reference_words.';
COMMENT ON COLUMN autoprf_scores.f IS 'Harmonic mean of precision and recall.';
COMMENT ON COLUMN autoprf_scores.restricted_matches IS 'Pronouns whose reference and output items are identical (one item each).';
COMMENT ON COLUMN autoprf_scores.restricted_reference IS 'Pronouns with an aligned reference word.';
COMMENT ON COLUMN autoprf_scores.restricted_output IS 'Pronouns with an aligned output word.';
COMMENT ON COLUMN autoprf_scores.restricted_precision IS 'restricted_matches / restricted_output.';
COMMENT ON COLUMN autoprf_scores.restricted_recall IS 'restricted_matches / restricted_reference (= apt of the plain configuration: cases 1-4, weights 1,0,0,0, no equivalence, no correction).';
COMMENT ON COLUMN autoprf_scores.restricted_f IS 'Harmonic mean of the restricted precision and recall.';
COMMENT ON COLUMN autoprf_scores.corpus IS 'Translation corpus (translation_corpora.corpus).';
COMMENT ON COLUMN autoprf_scores.config IS 'Name of the pronoun configuration (pronoun_configs.config).';
COMMENT ON COLUMN autoprf_scores.team IS 'Team (system) that produced the translation.';
COMMENT ON COLUMN autoprf_scores.run IS 'Run name within the team.';
