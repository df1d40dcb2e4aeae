-- sentence_statistics: per-sentence sufficient statistics that need Python, computed once at ingest
-- (sacrebleu's design): BLEU n-gram matches and totals, and the edit counts of the string and tree
-- accuracies, and the statistics of the SR shared tasks' BLEU, NIST and DIST (sr_*; NULL when the
-- reference has no # text). Views compute every score from these columns in plain SQL.
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
    tree_reference_length     INTEGER NOT NULL,
    sr_hypothesis_length      INTEGER,
    sr_reference_length       INTEGER,
    sr_matches                INTEGER[4],
    sr_totals                 INTEGER[4],
    sr_nist_matches           DOUBLE[4],
    sr_sentence_nist          DOUBLE,
    sr_word_edits             INTEGER,
    sr_word_length            INTEGER,
    sr_char_edits             INTEGER,
    sr_char_length            INTEGER
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
COMMENT ON COLUMN sentence_statistics.sr_hypothesis_length IS 'SR shared-task metrics (analysis/sr_metrics.py): tokens of the output text lowercased and split at white space (punctuation attached); NULL when the reference has no # text.';
COMMENT ON COLUMN sentence_statistics.sr_reference_length IS 'SR metrics: tokens of the reference # text, lowercased and split at white space.';
COMMENT ON COLUMN sentence_statistics.sr_matches IS 'SR BLEU: clipped n-gram matches for n = 1..4 (NLTK).';
COMMENT ON COLUMN sentence_statistics.sr_totals IS 'SR BLEU and NIST: hypothesis n-grams for n = 1..4 (0 when shorter than n; BLEU counts at least 1 per sentence, as NLTK corpus_bleu).';
COMMENT ON COLUMN sentence_statistics.sr_nist_matches IS 'SR NIST: clipped matches weighted by their information, the weights counted over the whole reference corpus (NLTK corpus_nist), n = 1..4. Their sums give NIST only over the full corpus.';
COMMENT ON COLUMN sentence_statistics.sr_sentence_nist IS 'SR NIST of the sentence alone (NLTK sentence_nist, weights from its reference); NULL where NLTK divides by zero (an output of fewer than 4 tokens).';
COMMENT ON COLUMN sentence_statistics.sr_word_edits IS 'SR DIST (words, the SR''18 script): word edit distance between output and reference tokens.';
COMMENT ON COLUMN sentence_statistics.sr_word_length IS 'SR DIST (words): the larger token count of output and reference.';
COMMENT ON COLUMN sentence_statistics.sr_char_edits IS 'SR DIST (characters, the SR''19 script): character edit distance between the tokens joined by single spaces.';
COMMENT ON COLUMN sentence_statistics.sr_char_length IS 'SR DIST (characters): the larger character length of the two joined texts.';
