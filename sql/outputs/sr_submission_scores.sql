-- sr_submission_scores: the corpus BLEU, NIST and DIST of each submission as the evaluation script of
-- the Surface Realisation shared tasks (SR'18, SR'19, SR'20) prints them: NLTK corpus_bleu with
-- smoothing method 2 and corpus_nist (n = 4) on the lowercased, whitespace-split output text against
-- the reference # text, and DIST from edit distances (analysis/sr_metrics.py). These are the numbers
-- to put beside an SR results table; evalhouse's lemma BLEU (submission_scores.corpus_bleu) is not.
-- NIST's per-sentence numerators are weighted by information counted over the whole reference corpus,
-- so this view's NIST is the script's for the whole corpus only (never sum it over a subset).
-- Grain: team x run x corpus. Key: (team, run, corpus).
-- Columns: team, run, corpus, sentences, bleu, nist, dist (characters, the SR'19 script),
--   dist_words (words, the SR'18 script), hypothesis_length, reference_length (tokens summed),
--   tokenised_output (CoNLL-U output: FORMs joined by spaces, which the script punishes),
--   configuration_id (the text: configurations).
-- Every metric is NULL when the reference has no # text.
-- Upstream: sentence_statistics, submissions, configurations.
CREATE OR REPLACE VIEW sr_submission_scores AS
WITH sums AS (
    SELECT team, run, corpus,
           count(*) AS sentences, count(sr_hypothesis_length) AS scored,
           sum(sr_hypothesis_length)::BIGINT AS h, sum(sr_reference_length)::BIGINT AS r,
           sum(sr_matches[1]) AS m1, sum(sr_matches[2]) AS m2, sum(sr_matches[3]) AS m3, sum(sr_matches[4]) AS m4,
           -- corpus_bleu: every sentence adds at least 1 to each n-gram total (NLTK)
           sum(greatest(sr_totals[1], 1)) AS b1, sum(greatest(sr_totals[2], 1)) AS b2,
           sum(greatest(sr_totals[3], 1)) AS b3, sum(greatest(sr_totals[4], 1)) AS b4,
           -- corpus_nist: the hypothesis n-grams as they are
           sum(sr_totals[1]) AS n1, sum(sr_totals[2]) AS n2, sum(sr_totals[3]) AS n3, sum(sr_totals[4]) AS n4,
           sum(sr_nist_matches[1]) AS w1, sum(sr_nist_matches[2]) AS w2,
           sum(sr_nist_matches[3]) AS w3, sum(sr_nist_matches[4]) AS w4,
           sum(sr_word_edits) AS word_edits, sum(sr_word_length) AS word_length,
           sum(sr_char_edits) AS char_edits, sum(sr_char_length) AS char_length
    FROM sentence_statistics
    GROUP BY team, run, corpus
),
scores AS (
    SELECT team, run, corpus, sentences, h, r,
           CASE WHEN scored = sentences THEN bleu_from_statistics(h, r, m1, m2, m3, m4, b1, b2, b3, b4) END AS bleu,
           -- NLTK's length penalty: exp(beta ln(c / r)^2), beta = ln(0.5) / ln(1.5)^2, when c < r
           CASE WHEN scored < sentences OR r = 0 OR n1 = 0 OR n2 = 0 OR n3 = 0 OR n4 = 0 THEN NULL
                ELSE (w1 / n1 + w2 / n2 + w3 / n3 + w4 / n4)
                     * (CASE WHEN h < r THEN exp(ln(0.5) / power(ln(1.5), 2) * power(ln(h / r), 2)) ELSE 1.0 END)
           END AS nist,
           CASE WHEN scored = sentences AND char_length > 0 THEN 1 - char_edits / char_length END AS dist,
           CASE WHEN scored = sentences AND word_length > 0 THEN 1 - word_edits / word_length END AS dist_words
    FROM sums
),
final AS (
    SELECT c.team, c.run, c.corpus, c.sentences, c.bleu, c.nist, c.dist, c.dist_words,
           c.h AS hypothesis_length, c.r AS reference_length,
           u.format = 'conllu' AS tokenised_output,
           k.configuration_id
    FROM scores AS c
    JOIN submissions AS u ON u.team = c.team AND u.run = c.run AND u.corpus = c.corpus
    LEFT JOIN configurations AS k ON k.configuration = u.configuration
)
SELECT * FROM final;
COMMENT ON VIEW sr_submission_scores IS 'Corpus BLEU, NIST and DIST of each submission as the SR shared tasks'' evaluation script prints them (NLTK corpus_bleu method 2 and corpus_nist on lowercased, whitespace-split detokenised text): the numbers to put beside an SR results table. Grain: team x run x corpus.';
COMMENT ON COLUMN sr_submission_scores.team IS 'Team of the submission.';
COMMENT ON COLUMN sr_submission_scores.run IS 'Run of the submission.';
COMMENT ON COLUMN sr_submission_scores.corpus IS 'Reference corpus.';
COMMENT ON COLUMN sr_submission_scores.sentences IS 'Reference sentences scored (missing outputs count as empty texts).';
COMMENT ON COLUMN sr_submission_scores.bleu IS 'NLTK corpus_bleu with smoothing method 2, 4-grams (0-1; the SR''19 script prints it to 4 decimals); NULL when the reference has no # text.';
COMMENT ON COLUMN sr_submission_scores.nist IS 'NLTK corpus_nist, n = 4, information weights counted over the whole reference corpus (the SR''19 script prints it to 2 decimals); for the whole corpus only.';
COMMENT ON COLUMN sr_submission_scores.dist IS 'DIST of the SR''19 script: 1 - summed character edit distances / summed longer lengths, on the tokens joined by single spaces.';
COMMENT ON COLUMN sr_submission_scores.dist_words IS 'DIST of the SR''18 script (ADAPT''s copy): 1 - summed word edit distances / summed longer token counts.';
COMMENT ON COLUMN sr_submission_scores.hypothesis_length IS 'Output tokens over the corpus (lowercased, split at white space).';
COMMENT ON COLUMN sr_submission_scores.reference_length IS 'Reference # text tokens over the corpus.';
COMMENT ON COLUMN sr_submission_scores.tokenised_output IS 'True for a CoNLL-U output, whose text is its FORMs joined by spaces: tokenised, which the script punishes (not comparable with detokenised submissions).';
COMMENT ON COLUMN sr_submission_scores.configuration_id IS 'Short id of the configuration the scores were computed with; its whole text: configurations.configuration (join on configuration_id; its sr-eval part names these definitions).';
