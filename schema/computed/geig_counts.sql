-- geig_counts: EVALB's per-sentence sufficient statistics for a candidate run against the gold
-- parses, computed at ingest (evalhouse.analysis.parse_eval) under the run's EVALB parameters.
-- Grain: corpus x team x run x position.
CREATE TABLE IF NOT EXISTS geig_counts (
    corpus              VARCHAR NOT NULL,
    team                VARCHAR NOT NULL,
    run                 VARCHAR NOT NULL,
    position            INTEGER NOT NULL,
    status_code         INTEGER NOT NULL,
    message             VARCHAR,
    length              INTEGER NOT NULL,
    words               INTEGER NOT NULL,
    gold_brackets       INTEGER NOT NULL,
    test_brackets       INTEGER NOT NULL,
    matched_labelled    INTEGER NOT NULL,
    matched_unlabelled  INTEGER NOT NULL,
    crossing            INTEGER NOT NULL,
    correct_tags        INTEGER NOT NULL
);
COMMENT ON TABLE geig_counts IS 'Per-sentence bracket counts (EVALB semantics) of a candidate run against the gold parses, materialised at ingest. Grain: corpus x team x run x position.';
COMMENT ON COLUMN geig_counts.status_code IS 'EVALB Stat.: 0 ok, 1 error (length or word mismatch), 2 skip (empty test parse).';
COMMENT ON COLUMN geig_counts.message IS 'Why the sentence is not ok (e.g. word mismatch at word 2 (is|was)); NULL when ok.';
COMMENT ON COLUMN geig_counts.length IS 'EVALB Len.: gold words not in DELETE_LABEL_FOR_LENGTH (decides the len<=cutoff subset).';
COMMENT ON COLUMN geig_counts.words IS 'Gold words scored (DELETE_LABEL preterminals removed).';
COMMENT ON COLUMN geig_counts.gold_brackets IS 'Gold constituents after deletions (0 unless ok).';
COMMENT ON COLUMN geig_counts.test_brackets IS 'Candidate constituents after deletions (0 unless ok).';
COMMENT ON COLUMN geig_counts.matched_labelled IS 'Size of the multiset intersection of (label, start, end).';
COMMENT ON COLUMN geig_counts.matched_unlabelled IS 'Size of the multiset intersection of (start, end).';
COMMENT ON COLUMN geig_counts.crossing IS 'Candidate brackets that overlap some gold bracket without nesting.';
COMMENT ON COLUMN geig_counts.correct_tags IS 'Words whose candidate POS equals the gold POS (after EQ_LABEL).';
