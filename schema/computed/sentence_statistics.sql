-- sentence_statistics: per-sentence sufficient statistics that need Python, computed once at ingest
-- (sacrebleu's design): BLEU n-gram matches and totals, the edit counts of the string and tree
-- accuracies as Bangalore, Rambow & Whittaker (2000) define them (string_*, tree_*) and of their lemma-key variant (lemma_string_*,
-- lemma_tree_*), and the statistics of the SR shared tasks' BLEU, NIST and DIST (sr_*; NULL when the
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
    sr_char_length            INTEGER,
    lemma_string_insertions   INTEGER NOT NULL,
    lemma_string_deletions    INTEGER NOT NULL,
    lemma_string_substitutions INTEGER NOT NULL,
    lemma_string_moves        INTEGER NOT NULL,
    lemma_string_reference_length INTEGER NOT NULL,
    lemma_tree_insertions     INTEGER NOT NULL,
    lemma_tree_deletions      INTEGER NOT NULL,
    lemma_tree_substitutions  INTEGER NOT NULL,
    lemma_tree_moves          INTEGER NOT NULL,
    lemma_tree_reference_length INTEGER NOT NULL
);
COMMENT ON TABLE sentence_statistics IS 'Per-sentence sufficient statistics computed at ingest (BLEU n-gram counts, string and tree edit counts of Bangalore, Rambow & Whittaker (2000) and of the lemma-key variant, SR metrics). Grain: team x run x corpus x position.';
COMMENT ON COLUMN sentence_statistics.bleu_hypothesis_length IS 'Lemma BLEU: non-punctuation output tokens (case-folded lemmas).';
COMMENT ON COLUMN sentence_statistics.bleu_reference_length IS 'Lemma BLEU: non-punctuation reference words.';
COMMENT ON COLUMN sentence_statistics.bleu_matches IS 'Lemma BLEU: clipped n-gram matches for n = 1..4.';
COMMENT ON COLUMN sentence_statistics.bleu_totals IS 'Lemma BLEU: hypothesis n-grams for n = 1..4 (0 when shorter than n).';
COMMENT ON COLUMN sentence_statistics.surface_hypothesis_length IS 'Surface BLEU: output tokens, case preserved, punctuation kept.';
COMMENT ON COLUMN sentence_statistics.surface_reference_length IS 'Surface BLEU: reference words (forms), punctuation kept.';
COMMENT ON COLUMN sentence_statistics.surface_matches IS 'Surface BLEU: clipped n-gram matches for n = 1..4.';
COMMENT ON COLUMN sentence_statistics.surface_totals IS 'Surface BLEU: hypothesis n-grams for n = 1..4.';
COMMENT ON COLUMN sentence_statistics.string_insertions IS 'String accuracy (Bangalore, Rambow & Whittaker 2000): insertions I between the words of the output and of the reference (case-folded, punctuation kept).';
COMMENT ON COLUMN sentence_statistics.string_deletions IS 'String accuracy (Bangalore, Rambow & Whittaker 2000): deletions D.';
COMMENT ON COLUMN sentence_statistics.string_substitutions IS 'String accuracy (Bangalore, Rambow & Whittaker 2000): substitutions S.';
COMMENT ON COLUMN sentence_statistics.string_moves IS 'String accuracy (Bangalore, Rambow & Whittaker 2000): moves M (a deletion and an insertion of the same word), most moves among minimum-cost alignments.';
COMMENT ON COLUMN sentence_statistics.string_reference_length IS 'String accuracy (Bangalore, Rambow & Whittaker 2000): reference words R, punctuation included.';
COMMENT ON COLUMN sentence_statistics.tree_insertions IS 'Tree accuracy (Bangalore, Rambow & Whittaker 2000): insertions summed over the treelets of the whole reference tree; an output word that realises no reference word (the same word, aligned to it) is in no treelet.';
COMMENT ON COLUMN sentence_statistics.tree_deletions IS 'Tree accuracy (Bangalore, Rambow & Whittaker 2000): deletions summed over treelets.';
COMMENT ON COLUMN sentence_statistics.tree_substitutions IS 'Tree accuracy (Bangalore, Rambow & Whittaker 2000): substitutions summed over treelets.';
COMMENT ON COLUMN sentence_statistics.tree_moves IS 'Tree accuracy (Bangalore, Rambow & Whittaker 2000): moves summed over treelets.';
COMMENT ON COLUMN sentence_statistics.tree_reference_length IS 'Tree accuracy (Bangalore, Rambow & Whittaker 2000): denominator R, the number of reference words (configuration R:reference).';
COMMENT ON COLUMN sentence_statistics.lemma_string_insertions IS 'Lemma-key variant of string accuracy (evalhouse): insertions I between the keys (case-folded lemmas) of the output and reference words, punctuation removed.';
COMMENT ON COLUMN sentence_statistics.lemma_string_deletions IS 'Lemma-key string accuracy: deletions D.';
COMMENT ON COLUMN sentence_statistics.lemma_string_substitutions IS 'Lemma-key string accuracy: substitutions S.';
COMMENT ON COLUMN sentence_statistics.lemma_string_moves IS 'Lemma-key string accuracy: moves M.';
COMMENT ON COLUMN sentence_statistics.lemma_string_reference_length IS 'Lemma-key string accuracy: reference words without punctuation R.';
COMMENT ON COLUMN sentence_statistics.lemma_tree_insertions IS 'Lemma-key tree accuracy (evalhouse): insertions summed over the treelets of the punctuation-stripped reference tree, plus one per output word realising no reference word.';
COMMENT ON COLUMN sentence_statistics.lemma_tree_deletions IS 'Lemma-key tree accuracy: deletions summed over treelets.';
COMMENT ON COLUMN sentence_statistics.lemma_tree_substitutions IS 'Lemma-key tree accuracy: substitutions summed over treelets.';
COMMENT ON COLUMN sentence_statistics.lemma_tree_moves IS 'Lemma-key tree accuracy: moves summed over treelets.';
COMMENT ON COLUMN sentence_statistics.lemma_tree_reference_length IS 'Lemma-key tree accuracy: denominator R, the words of the stripped reference tree.';
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
