-- la_words: the leaf-ancestor metric's local error display (Sampson & Babarczy 2003, section 7): every word of a
-- candidate run with its gold and candidate lineages and its score.
-- Grain: corpus x team x run x position x word_index. Key: (corpus, team, run, position, word_index).
-- Columns: team, run, corpus, position, word_index, word, gold_lineage, candidate_lineage, score, distance.
-- Upstream: la_word_scores (materialised at ingest by evalhouse.analysis.leaf_ancestor).
CREATE OR REPLACE VIEW la_words AS
WITH words AS (
    SELECT * FROM la_word_scores
), final AS (
    SELECT team, run, corpus, position, word_index, word, gold_lineage, candidate_lineage, score, distance
    FROM words
)
SELECT * FROM final;

COMMENT ON VIEW la_words IS 'Leaf-ancestor per word: gold lineage, candidate lineage (leaf end first, [ ] boundary markers) and score, the local error display of Sampson & Babarczy (2003, section 7). Grain: corpus x team x run x position x word_index.';
COMMENT ON COLUMN la_words.word_index IS '1-based index among the scored words (deleted punctuation and traces are not scored).';
COMMENT ON COLUMN la_words.gold_lineage IS 'Gold lineage, leaf end first, e.g. N1 [ S.';
COMMENT ON COLUMN la_words.candidate_lineage IS 'Candidate lineage, leaf end first, e.g. NP [ S.';
COMMENT ON COLUMN la_words.score IS '1 - d(c, g) / (len(c) + len(g)) in [0, 1] (Sampson & Babarczy 2003, section 4).';
COMMENT ON COLUMN la_words.distance IS 'd(c, g): Levenshtein distance with label-dependent substitution costs (parse_runs.la_cost).';
COMMENT ON COLUMN la_words.team IS 'Team of the candidate run (parser).';
COMMENT ON COLUMN la_words.run IS 'Run name within the team.';
COMMENT ON COLUMN la_words.corpus IS 'Parse corpus (parse_runs.corpus): the gold parses and the runs scored against them.';
COMMENT ON COLUMN la_words.position IS '1-based position of the sentence (or segment) in its corpus.';
COMMENT ON COLUMN la_words.word IS 'The word (leaf) as written in the candidate parse.';
