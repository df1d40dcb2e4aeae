-- la_sentences: leaf-ancestor score of every scored sentence of a candidate run: the mean of its
-- word scores (Sampson & Babarczy 2003, section 2).
-- Grain: corpus x team x run x position (sentences whose EVALB status is ok and that have a word).
-- Key: (corpus, team, run, position).
-- Columns: team, run, corpus, position, la, words, score_sum.
-- Upstream: la_words.
CREATE OR REPLACE VIEW la_sentences AS
WITH words AS (
    SELECT * FROM la_words
), final AS (
    SELECT team, run, corpus, position,
           avg(score)::DOUBLE AS la,
           count(*)::INTEGER AS words,
           sum(score)::DOUBLE AS score_sum
    FROM words
    GROUP BY team, run, corpus, position
)
SELECT * FROM final;

COMMENT ON VIEW la_sentences IS 'Leaf-ancestor sentence score = mean of its word scores (Sampson & Babarczy 2003). Grain: corpus x team x run x position.';
COMMENT ON COLUMN la_sentences.la IS 'Mean of the word scores, 0-1 scale.';
COMMENT ON COLUMN la_sentences.words IS 'Words scored.';
COMMENT ON COLUMN la_sentences.score_sum IS 'Sum of the word scores (for word-weighted means).';
COMMENT ON COLUMN la_sentences.team IS 'Team of the candidate run (parser).';
COMMENT ON COLUMN la_sentences.run IS 'Run name within the team.';
COMMENT ON COLUMN la_sentences.corpus IS 'Parse corpus (parse_runs.corpus): the gold parses and the runs scored against them.';
COMMENT ON COLUMN la_sentences.position IS '1-based position of the sentence (or segment) in its corpus.';
