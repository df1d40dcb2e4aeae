-- geig_sentences: GEIG/PARSEVAL per sentence of a candidate run (EVALB's per-sentence row): status,
-- labelled and unlabelled bracket precision, recall and F on a 0-1 scale, crossing brackets, tagging.
-- Grain: corpus x team x run x position. Key: (corpus, team, run, position).
-- Columns: team, run, corpus, position, status, labelled_precision, labelled_recall, labelled_f,
--          unlabelled_precision, unlabelled_recall, unlabelled_f, then EVALB's counts.
-- Ratios are NULL unless status = 'ok'. With no bracket on either side all three are 1; with no
-- bracket on one side only they are 0. F = 2PR / (P + R) = 2 matched / (gold + test) (Sampson & Babarczy 2003, section 3).
-- Upstream: geig_counts (materialised at ingest by evalhouse.analysis.parse_eval).
CREATE OR REPLACE VIEW geig_sentences AS
WITH counts AS (
    SELECT * FROM geig_counts
), final AS (
    SELECT team, run, corpus, position,
           CASE status_code WHEN 0 THEN 'ok' WHEN 1 THEN 'error' ELSE 'skip' END AS status,
           CASE WHEN status_code <> 0 THEN NULL
                WHEN test_brackets = 0 THEN CASE WHEN gold_brackets = 0 THEN 1.0 ELSE 0.0 END
                ELSE matched_labelled / test_brackets END::DOUBLE AS labelled_precision,
           CASE WHEN status_code <> 0 THEN NULL
                WHEN gold_brackets = 0 THEN CASE WHEN test_brackets = 0 THEN 1.0 ELSE 0.0 END
                ELSE matched_labelled / gold_brackets END::DOUBLE AS labelled_recall,
           CASE WHEN status_code <> 0 THEN NULL
                WHEN gold_brackets + test_brackets = 0 THEN 1.0
                ELSE 2 * matched_labelled / (gold_brackets + test_brackets) END::DOUBLE AS labelled_f,
           CASE WHEN status_code <> 0 THEN NULL
                WHEN test_brackets = 0 THEN CASE WHEN gold_brackets = 0 THEN 1.0 ELSE 0.0 END
                ELSE matched_unlabelled / test_brackets END::DOUBLE AS unlabelled_precision,
           CASE WHEN status_code <> 0 THEN NULL
                WHEN gold_brackets = 0 THEN CASE WHEN test_brackets = 0 THEN 1.0 ELSE 0.0 END
                ELSE matched_unlabelled / gold_brackets END::DOUBLE AS unlabelled_recall,
           CASE WHEN status_code <> 0 THEN NULL
                WHEN gold_brackets + test_brackets = 0 THEN 1.0
                ELSE 2 * matched_unlabelled / (gold_brackets + test_brackets) END::DOUBLE AS unlabelled_f,
           status_code,
           message,
           length,
           words,
           gold_brackets,
           test_brackets,
           matched_labelled,
           matched_unlabelled,
           crossing,
           correct_tags,
           CASE WHEN status_code <> 0 THEN NULL
                ELSE matched_labelled = gold_brackets AND matched_labelled = test_brackets END AS labelled_complete_match,
           CASE WHEN status_code <> 0 THEN NULL
                ELSE matched_unlabelled = gold_brackets AND matched_unlabelled = test_brackets END AS unlabelled_complete_match,
           CASE WHEN status_code <> 0 OR words = 0 THEN NULL ELSE correct_tags / words END::DOUBLE AS tagging_accuracy
    FROM counts
)
SELECT * FROM final;

COMMENT ON VIEW geig_sentences IS 'GEIG/PARSEVAL (EVALB) per sentence of a candidate run: status, labelled/unlabelled precision, recall, F on a 0-1 scale, crossing, tagging. Grain: corpus x team x run x position.';
COMMENT ON COLUMN geig_sentences.status IS 'EVALB status: ok, error (length or word mismatch with the gold) or skip (empty test parse).';
COMMENT ON COLUMN geig_sentences.labelled_precision IS 'Matched (label, start, end) brackets / candidate brackets, 0-1 scale (EVALB prints x100).';
COMMENT ON COLUMN geig_sentences.labelled_recall IS 'Matched (label, start, end) brackets / gold brackets, 0-1 scale.';
COMMENT ON COLUMN geig_sentences.labelled_f IS 'GEIG/labelled F = 2PR/(P+R), 0-1 scale.';
COMMENT ON COLUMN geig_sentences.unlabelled_precision IS 'Matched (start, end) brackets / candidate brackets, 0-1 scale.';
COMMENT ON COLUMN geig_sentences.unlabelled_recall IS 'Matched (start, end) brackets / gold brackets, 0-1 scale.';
COMMENT ON COLUMN geig_sentences.unlabelled_f IS 'GEIG/unlabelled F = 2PR/(P+R), 0-1 scale.';
COMMENT ON COLUMN geig_sentences.status_code IS 'EVALB Stat. column: 0 ok, 1 error, 2 skip.';
COMMENT ON COLUMN geig_sentences.length IS 'EVALB Len.: gold words not deleted for length.';
COMMENT ON COLUMN geig_sentences.crossing IS 'Candidate brackets crossing some gold bracket.';
COMMENT ON COLUMN geig_sentences.tagging_accuracy IS 'correct_tags / words, 0-1 scale.';
COMMENT ON COLUMN geig_sentences.team IS 'Team of the candidate run (parser).';
COMMENT ON COLUMN geig_sentences.run IS 'Run name within the team.';
COMMENT ON COLUMN geig_sentences.corpus IS 'Parse corpus (parse_runs.corpus): the gold parses and the runs scored against them.';
COMMENT ON COLUMN geig_sentences.position IS '1-based position of the sentence (or segment) in its corpus.';
COMMENT ON COLUMN geig_sentences.message IS 'Why the sentence is not ok (e.g. word mismatch at word 2 (is|was)); NULL when ok.';
COMMENT ON COLUMN geig_sentences.words IS 'Gold words scored (DELETE_LABEL preterminals removed).';
COMMENT ON COLUMN geig_sentences.gold_brackets IS 'Gold constituents after deletions (0 unless ok).';
COMMENT ON COLUMN geig_sentences.test_brackets IS 'Candidate constituents after deletions (0 unless ok).';
COMMENT ON COLUMN geig_sentences.matched_labelled IS 'Size of the multiset intersection of (label, start, end).';
COMMENT ON COLUMN geig_sentences.matched_unlabelled IS 'Size of the multiset intersection of (start, end).';
COMMENT ON COLUMN geig_sentences.correct_tags IS 'Words whose candidate POS equals the gold POS (after EQ_LABEL).';
COMMENT ON COLUMN geig_sentences.labelled_complete_match IS 'The labelled brackets match exactly (NULL unless status ok).';
COMMENT ON COLUMN geig_sentences.unlabelled_complete_match IS 'The unlabelled brackets match exactly (NULL unless status ok).';
