-- pronoun_scores_by_document: APT and AutoPRF per document (document boundaries respected: every
-- count comes from the segments of one document), as the DiscoMT scorer reports them.
-- Grain: corpus x config x team x run x document.
-- Key: (corpus, config, team, run, document).
-- Upstream: pronoun_score_groups (the formulas).
CREATE OR REPLACE VIEW pronoun_scores_by_document AS
WITH final AS (
    SELECT corpus, config, team, run, group_value AS document, first_position, pronouns, apt, matches,
           reference_words, output_words, "precision", recall
    FROM pronoun_score_groups
    WHERE grouped_by = 'document'
)
SELECT * FROM final;

COMMENT ON VIEW pronoun_scores_by_document IS 'APT (configuration weights) and AutoPRF precision/recall per document. Grain: corpus x config x team x run x document.';
COMMENT ON COLUMN pronoun_scores_by_document.first_position IS 'First segment of the document that has a source pronoun.';
COMMENT ON COLUMN pronoun_scores_by_document.pronouns IS 'Source pronouns in the document.';
COMMENT ON COLUMN pronoun_scores_by_document.apt IS 'APT over the document''s pronouns in the cases used (NULL when none).';
COMMENT ON COLUMN pronoun_scores_by_document.recall IS 'AutoPRF recall: matches / reference_words.';
COMMENT ON COLUMN pronoun_scores_by_document.corpus IS 'Translation corpus (translation_corpora.corpus).';
COMMENT ON COLUMN pronoun_scores_by_document.config IS 'Name of the pronoun configuration (pronoun_configs.config).';
COMMENT ON COLUMN pronoun_scores_by_document.team IS 'Team (system) that produced the translation.';
COMMENT ON COLUMN pronoun_scores_by_document.run IS 'Run name within the team.';
COMMENT ON COLUMN pronoun_scores_by_document.document IS 'Document identifier (segments.document).';
COMMENT ON COLUMN pronoun_scores_by_document.matches IS 'AutoPRF: sum of clipped counts in the document.';
COMMENT ON COLUMN pronoun_scores_by_document.reference_words IS 'AutoPRF: aligned reference words in the document.';
COMMENT ON COLUMN pronoun_scores_by_document.output_words IS 'AutoPRF: aligned output words in the document.';
COMMENT ON COLUMN pronoun_scores_by_document.precision IS 'AutoPRF precision: matches / output_words.';
