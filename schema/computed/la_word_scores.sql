-- la_word_scores: the leaf-ancestor score of every word of a candidate run (Sampson & Babarczy 2003), with both
-- lineages, computed at ingest (evalhouse.analysis.leaf_ancestor) on the trees prepared as for EVALB.
-- Grain: corpus x team x run x position x word_index.
CREATE TABLE IF NOT EXISTS la_word_scores (
    corpus             VARCHAR NOT NULL,
    team               VARCHAR NOT NULL,
    run                VARCHAR NOT NULL,
    position           INTEGER NOT NULL,
    word_index         INTEGER NOT NULL,
    word               VARCHAR NOT NULL,
    gold_lineage       VARCHAR NOT NULL,
    candidate_lineage  VARCHAR NOT NULL,
    distance           DOUBLE NOT NULL,
    score              DOUBLE NOT NULL
);
COMMENT ON TABLE la_word_scores IS 'Leaf-ancestor word scores with gold and candidate lineages (only for sentences whose status is ok). Grain: corpus x team x run x position x word_index.';
COMMENT ON COLUMN la_word_scores.word_index IS '1-based index of the word among the scored words (DELETE_LABEL preterminals and traces removed).';
COMMENT ON COLUMN la_word_scores.gold_lineage IS 'Gold lineage, leaf end first, space-separated, with [ and ] boundary markers (Sampson & Babarczy 2003, rules (i) and (ii)).';
COMMENT ON COLUMN la_word_scores.candidate_lineage IS 'Candidate lineage, same notation.';
COMMENT ON COLUMN la_word_scores.distance IS 'Levenshtein distance between the lineages: insert/delete 1, substitution from the label-cost function (parse_runs.la_cost).';
COMMENT ON COLUMN la_word_scores.score IS '1 - distance / (len(candidate) + len(gold)), in [0, 1]; 1 when both lineages are empty.';
