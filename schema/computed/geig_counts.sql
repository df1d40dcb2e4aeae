-- geig_counts: EVALB's per-sentence sufficient statistics for a candidate run against the gold
-- parses, computed at ingest (evalhouse.analysis.parse_eval) under the run's EVALB parameters, by the bracket
-- rules of C EVALB's current release (parse_runs.config: rules:evalb-2006).
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
COMMENT ON COLUMN geig_counts.words IS 'Gold words scored: DELETE_LABEL preterminals removed, a quote term put back by QUOTE_LABEL counted (stored whatever the status; EVALB''s current report prints 0 for an error or skip row).';
COMMENT ON COLUMN geig_counts.gold_brackets IS 'Gold brackets EVALB counts: nonterminals over at least one kept word whose label (cut at the first - or =) is not deleted, the unlabelled wrapper included (0 unless ok).';
COMMENT ON COLUMN geig_counts.test_brackets IS 'Candidate brackets EVALB counts, as gold_brackets (0 unless ok).';
COMMENT ON COLUMN geig_counts.matched_labelled IS 'Gold brackets matched, each in order by the first unmatched candidate bracket with its span and an equal label (or an EQ_LABEL pair), as EVALB matches them.';
COMMENT ON COLUMN geig_counts.matched_unlabelled IS 'Gold brackets matched by a candidate bracket with their span, whatever the labels (the size of the multiset intersection of spans).';
COMMENT ON COLUMN geig_counts.crossing IS 'Candidate brackets that overlap some gold bracket without nesting.';
COMMENT ON COLUMN geig_counts.correct_tags IS 'Words whose candidate POS equals the gold POS as written, or is paired with it by EQ_LABEL.';
