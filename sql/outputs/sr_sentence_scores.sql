-- sr_sentence_scores: BLEU, NIST and DIST of each output sentence as the evaluation script of the
-- Surface Realisation shared tasks (SR'18, SR'19, SR'20) defines them (analysis/sr_metrics.py): the
-- output text and the reference # text lowercased and split at white space, punctuation attached to
-- its word. These are not evalhouse's lemma BLEU (sentence_scores.bleu); docs/system-outputs.md says
-- which number to quote when.
-- Grain: team x run x corpus x position. Key: (team, run, corpus, position).
-- Columns: team, run, corpus, position, sent_id, missing,
--   bleu                NLTK sentence_bleu, smoothing method 2, 4-grams, uniform weights
--   nist                NLTK sentence_nist, n = 4 (weights from this sentence's reference alone);
--                       NULL where NLTK divides by zero (an output of fewer than 4 tokens)
--   dist                1 - character edit distance / longer character length (the SR'19 script)
--   dist_words          1 - word edit distance / longer token count (the SR'18 script)
--   hypothesis_length, reference_length   the script's tokens
--   configuration_id    the id of submissions.configuration in configurations (its sr-eval part names these definitions)
-- Every metric is NULL when the reference has no # text (nothing to compare with).
-- Upstream: sentence_statistics, output_sentences, sentences, submissions, configurations.
CREATE OR REPLACE VIEW sr_sentence_scores AS
WITH statistics AS (
    SELECT team, run, corpus, position,
           sr_hypothesis_length AS h, sr_reference_length AS r, sr_matches AS m, sr_totals AS t,
           sr_sentence_nist, sr_word_edits, sr_word_length, sr_char_edits, sr_char_length
    FROM sentence_statistics
),
scores AS (
    SELECT team, run, corpus, position, h, r,
           CASE WHEN h IS NOT NULL THEN bleu_from_statistics(h, r, m[1], m[2], m[3], m[4], t[1], t[2], t[3], t[4])
           END AS bleu,
           sr_sentence_nist AS nist,
           CASE WHEN sr_char_length > 0 THEN 1 - sr_char_edits / sr_char_length END AS dist,
           CASE WHEN sr_word_length > 0 THEN 1 - sr_word_edits / sr_word_length END AS dist_words
    FROM statistics
),
final AS (
    SELECT o.team, o.run, o.corpus, o.position, s.sent_id, o.missing,
           c.bleu, c.nist, c.dist, c.dist_words,
           c.h AS hypothesis_length, c.r AS reference_length,
           k.configuration_id
    FROM output_sentences AS o
    JOIN sentences AS s ON s.corpus = o.corpus AND s.position = o.position
    JOIN submissions AS u ON u.team = o.team AND u.run = o.run AND u.corpus = o.corpus
    LEFT JOIN configurations AS k ON k.configuration = u.configuration
    JOIN scores AS c ON c.team = o.team AND c.run = o.run AND c.corpus = o.corpus AND c.position = o.position
)
SELECT * FROM final;
COMMENT ON VIEW sr_sentence_scores IS 'BLEU, NIST and DIST of each output sentence as the SR shared tasks'' evaluation script computes them (lowercased, whitespace-split detokenised text; NLTK). Grain: team x run x corpus x position.';
COMMENT ON COLUMN sr_sentence_scores.team IS 'Team of the submission.';
COMMENT ON COLUMN sr_sentence_scores.run IS 'Run of the submission.';
COMMENT ON COLUMN sr_sentence_scores.corpus IS 'Reference corpus.';
COMMENT ON COLUMN sr_sentence_scores.position IS '1-based position of the reference sentence in its corpus.';
COMMENT ON COLUMN sr_sentence_scores.sent_id IS 'sent_id of the reference sentence.';
COMMENT ON COLUMN sr_sentence_scores.missing IS 'True when the submission had no output for this sentence (scored as an empty text).';
COMMENT ON COLUMN sr_sentence_scores.bleu IS 'NLTK sentence_bleu (smoothing method 2, 4-grams) of the lowercased, whitespace-split output text against the reference # text; NULL when the reference has no # text.';
COMMENT ON COLUMN sr_sentence_scores.nist IS 'NLTK sentence_nist (n = 4) with the weights of this sentence''s reference; NULL where NLTK divides by zero (fewer than 4 output tokens) or the reference has no # text.';
COMMENT ON COLUMN sr_sentence_scores.dist IS 'DIST of the SR''19 script: 1 - character edit distance / longer length, on the tokens joined by single spaces; NULL when both texts are empty.';
COMMENT ON COLUMN sr_sentence_scores.dist_words IS 'DIST of the SR''18 script: 1 - word edit distance / longer token count; NULL when both texts are empty.';
COMMENT ON COLUMN sr_sentence_scores.hypothesis_length IS 'Tokens of the output text (lowercased, split at white space).';
COMMENT ON COLUMN sr_sentence_scores.reference_length IS 'Tokens of the reference # text (lowercased, split at white space).';
COMMENT ON COLUMN sr_sentence_scores.configuration_id IS 'Short id of the configuration the scores were computed with; its whole text: configurations.configuration (join on configuration_id).';
