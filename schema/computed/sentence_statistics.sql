-- sentence_statistics: per-sentence sufficient statistics that need Python, computed once at ingest
-- (sacrebleu's design): BLEU n-gram matches and totals, and the edit counts of the string and tree
-- accuracies. Views compute every score from these columns in plain SQL.
-- Grain: team x run x corpus x position. Key: (team, run, corpus, position).
CREATE TABLE IF NOT EXISTS sentence_statistics (
    team                      VARCHAR NOT NULL,
    run                       VARCHAR NOT NULL,
    corpus                    VARCHAR NOT NULL,
    position                  INTEGER NOT NULL,
    bleu_hypothesis_length    INTEGER NOT NULL,
    bleu_reference_length     INTEGER NOT NULL,
    bleu_matches              INTEGER[4] NOT NULL,
    bleu_totals               INTEGER[4] NOT NULL,
    surface_hypothesis_length INTEGER NOT NULL,
    surface_reference_length  INTEGER NOT NULL,
    surface_matches           INTEGER[4] NOT NULL,
    surface_totals            INTEGER[4] NOT NULL,
    string_insertions         INTEGER NOT NULL,
    string_deletions          INTEGER NOT NULL,
    string_substitutions      INTEGER NOT NULL,
    string_moves              INTEGER NOT NULL,
    string_reference_length   INTEGER NOT NULL,
    tree_insertions           INTEGER NOT NULL,
    tree_deletions            INTEGER NOT NULL,
    tree_substitutions        INTEGER NOT NULL,
    tree_moves                INTEGER NOT NULL,
    tree_reference_length     INTEGER NOT NULL
);
COMMENT ON TABLE sentence_statistics IS 'Per-sentence sufficient statistics computed at ingest (BLEU n-gram counts, string and tree edit counts). Grain: team x run x corpus x position.';
COMMENT ON COLUMN sentence_statistics.bleu_hypothesis_length IS 'Lemma BLEU: non-punctuation output tokens (case-folded lemmas).';
COMMENT ON COLUMN sentence_statistics.bleu_reference_length IS 'Lemma BLEU: non-punctuation reference words.';
COMMENT ON COLUMN sentence_statistics.bleu_matches IS 'Lemma BLEU: clipped n-gram matches for n = 1..4.';
COMMENT ON COLUMN sentence_statistics.bleu_totals IS 'Lemma BLEU: hypothesis n-grams for n = 1..4 (0 when shorter than n).';
COMMENT ON COLUMN sentence_statistics.surface_hypothesis_length IS 'Surface BLEU: output tokens, case preserved, punctuation kept.';
COMMENT ON COLUMN sentence_statistics.surface_reference_length IS 'Surface BLEU: reference words (forms), punctuation kept.';
COMMENT ON COLUMN sentence_statistics.surface_matches IS 'Surface BLEU: clipped n-gram matches for n = 1..4.';
COMMENT ON COLUMN sentence_statistics.surface_totals IS 'Surface BLEU: hypothesis n-grams for n = 1..4.';
COMMENT ON COLUMN sentence_statistics.string_insertions IS 'String accuracy (Bangalore et al. 2000): insertions I, on case-folded lemmas without punctuation.';
COMMENT ON COLUMN sentence_statistics.string_deletions IS 'String accuracy: deletions D.';
COMMENT ON COLUMN sentence_statistics.string_substitutions IS 'String accuracy: substitutions S.';
COMMENT ON COLUMN sentence_statistics.string_moves IS 'String accuracy: moves M (a deletion and an insertion of the same token), most moves among minimum-cost alignments.';
COMMENT ON COLUMN sentence_statistics.string_reference_length IS 'String accuracy: reference tokens R.';
COMMENT ON COLUMN sentence_statistics.tree_insertions IS 'Tree accuracy: insertions summed over the treelets of the stripped reference tree, plus one per output word realising no reference word.';
COMMENT ON COLUMN sentence_statistics.tree_deletions IS 'Tree accuracy: deletions summed over treelets.';
COMMENT ON COLUMN sentence_statistics.tree_substitutions IS 'Tree accuracy: substitutions summed over treelets.';
COMMENT ON COLUMN sentence_statistics.tree_moves IS 'Tree accuracy: moves summed over treelets.';
COMMENT ON COLUMN sentence_statistics.tree_reference_length IS 'Tree accuracy: denominator R, the number of words of the stripped reference tree (configuration R:reference).';
