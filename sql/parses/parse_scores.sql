-- parse_scores: one row per candidate run and subset: EVALB's summary (labelled and unlabelled
-- precision, recall, F, complete match, crossing, tagging accuracy) and the leaf-ancestor score as a
-- mean over sentences and as a mean over words, all on a 0-1 scale, with the run's configuration.
-- Grain: corpus x team x run x subset (subset = 'all', and 'len<=N' for EVALB's CUTOFF_LEN N).
-- Precision and recall pool brackets over valid (status ok) sentences, as EVALB does; F = 2PR/(P+R).
-- The counts behind every figure are columns too (EVALB's report is printed from them: evalhouse.reports.evalb).
-- Key: (corpus, team, run, subset).
-- Upstream: geig_sentences, la_sentences, parse_runs.
CREATE OR REPLACE VIEW parse_scores AS
WITH runs AS (
    SELECT corpus, team, run, cutoff_len, config FROM parse_runs WHERE role = 'candidate'
), sentences AS (
    SELECT g.*, l.la, l.words AS la_words, l.score_sum
    FROM geig_sentences AS g
    LEFT JOIN la_sentences AS l USING (corpus, team, run, position)
), subsets AS (
    SELECT 'all' AS subset, s.* FROM sentences AS s
    UNION ALL
    SELECT 'len<=' || r.cutoff_len AS subset, s.*
    FROM sentences AS s JOIN runs AS r USING (corpus, team, run)
    WHERE s.length <= r.cutoff_len
), sums AS (
    SELECT corpus, team, run, subset,
           count(*)::INTEGER AS sentences,
           count(*) FILTER (WHERE status = 'error')::INTEGER AS error_sentences,
           count(*) FILTER (WHERE status = 'skip')::INTEGER AS skip_sentences,
           count(*) FILTER (WHERE status = 'ok')::INTEGER AS valid_sentences,
           sum(gold_brackets) FILTER (WHERE status = 'ok')::BIGINT AS gold_brackets,
           sum(test_brackets) FILTER (WHERE status = 'ok')::BIGINT AS test_brackets,
           sum(matched_labelled) FILTER (WHERE status = 'ok')::BIGINT AS matched_labelled,
           sum(matched_unlabelled) FILTER (WHERE status = 'ok')::BIGINT AS matched_unlabelled,
           sum(crossing) FILTER (WHERE status = 'ok')::BIGINT AS crossing,
           count(*) FILTER (WHERE status = 'ok' AND crossing = 0)::INTEGER AS no_crossing_sentences,
           count(*) FILTER (WHERE status = 'ok' AND crossing <= 2)::INTEGER AS two_or_less_crossing_sentences,
           count(*) FILTER (WHERE labelled_complete_match)::INTEGER AS labelled_complete_sentences,
           count(*) FILTER (WHERE unlabelled_complete_match)::INTEGER AS unlabelled_complete_sentences,
           sum(words) FILTER (WHERE status = 'ok')::BIGINT AS words,
           sum(correct_tags) FILTER (WHERE status = 'ok')::BIGINT AS correct_tags,
           avg(la)::DOUBLE AS la_sentence_mean,
           (sum(score_sum) / sum(la_words))::DOUBLE AS la_word_mean
    FROM subsets
    GROUP BY corpus, team, run, subset
), ratios AS (
    SELECT *,
           CASE WHEN test_brackets > 0 THEN matched_labelled / test_brackets END::DOUBLE AS labelled_precision,
           CASE WHEN gold_brackets > 0 THEN matched_labelled / gold_brackets END::DOUBLE AS labelled_recall,
           CASE WHEN test_brackets > 0 THEN matched_unlabelled / test_brackets END::DOUBLE AS unlabelled_precision,
           CASE WHEN gold_brackets > 0 THEN matched_unlabelled / gold_brackets END::DOUBLE AS unlabelled_recall
    FROM sums
), final AS (
    SELECT r.team, r.run, r.corpus, r.subset,
           r.sentences, r.error_sentences, r.skip_sentences, r.valid_sentences,
           r.labelled_precision, r.labelled_recall,
           CASE WHEN r.gold_brackets + r.test_brackets > 0
                THEN 2 * r.matched_labelled / (r.gold_brackets + r.test_brackets) END::DOUBLE AS labelled_f,
           r.unlabelled_precision, r.unlabelled_recall,
           CASE WHEN r.gold_brackets + r.test_brackets > 0
                THEN 2 * r.matched_unlabelled / (r.gold_brackets + r.test_brackets) END::DOUBLE AS unlabelled_f,
           (r.labelled_complete_sentences / nullif(r.valid_sentences, 0))::DOUBLE AS labelled_complete_match,
           (r.unlabelled_complete_sentences / nullif(r.valid_sentences, 0))::DOUBLE AS unlabelled_complete_match,
           (r.crossing / nullif(r.valid_sentences, 0))::DOUBLE AS average_crossing,
           (r.no_crossing_sentences / nullif(r.valid_sentences, 0))::DOUBLE AS no_crossing,
           (r.two_or_less_crossing_sentences / nullif(r.valid_sentences, 0))::DOUBLE AS two_or_less_crossing,
           (r.correct_tags / nullif(r.words, 0))::DOUBLE AS tagging_accuracy,
           r.la_sentence_mean, r.la_word_mean,
           r.gold_brackets, r.test_brackets, r.matched_labelled, r.matched_unlabelled, r.crossing,
           r.no_crossing_sentences, r.words, r.correct_tags,
           r.two_or_less_crossing_sentences, r.labelled_complete_sentences, r.unlabelled_complete_sentences,
           runs.config
    FROM ratios AS r
    JOIN runs USING (corpus, team, run)
)
SELECT * FROM final;

COMMENT ON VIEW parse_scores IS 'Per candidate run and subset (all, len<=CUTOFF_LEN): EVALB summary figures and leaf-ancestor means, all on a 0-1 scale (EVALB prints x100), with the scoring configuration. Grain: corpus x team x run x subset.';
COMMENT ON COLUMN parse_scores.subset IS 'all, or len<=N for the sentences whose EVALB length is at most the run''s CUTOFF_LEN N.';
COMMENT ON COLUMN parse_scores.labelled_precision IS 'Bracketing precision, labelled, pooled over valid sentences; 0-1 scale (EVALB prints x100).';
COMMENT ON COLUMN parse_scores.labelled_recall IS 'Bracketing recall, labelled, pooled over valid sentences; 0-1 scale.';
COMMENT ON COLUMN parse_scores.labelled_f IS '2PR/(P+R) of the pooled labelled figures; 0-1 scale.';
COMMENT ON COLUMN parse_scores.unlabelled_precision IS 'Bracketing precision ignoring labels; 0-1 scale.';
COMMENT ON COLUMN parse_scores.unlabelled_recall IS 'Bracketing recall ignoring labels; 0-1 scale.';
COMMENT ON COLUMN parse_scores.unlabelled_f IS '2PR/(P+R) of the pooled unlabelled figures; 0-1 scale.';
COMMENT ON COLUMN parse_scores.labelled_complete_match IS 'Share of valid sentences whose labelled brackets match exactly; 0-1 scale.';
COMMENT ON COLUMN parse_scores.unlabelled_complete_match IS 'Share of valid sentences whose unlabelled brackets match exactly; 0-1 scale.';
COMMENT ON COLUMN parse_scores.average_crossing IS 'Crossing brackets per valid sentence.';
COMMENT ON COLUMN parse_scores.no_crossing IS 'Share of valid sentences with no crossing bracket; 0-1 scale.';
COMMENT ON COLUMN parse_scores.two_or_less_crossing IS 'Share of valid sentences with at most 2 crossing brackets; 0-1 scale.';
COMMENT ON COLUMN parse_scores.tagging_accuracy IS 'Correct tags / words over valid sentences; 0-1 scale.';
COMMENT ON COLUMN parse_scores.la_sentence_mean IS 'Leaf-ancestor score of the run as the mean of sentence LA scores (each sentence weighs the same).';
COMMENT ON COLUMN parse_scores.la_word_mean IS 'Leaf-ancestor score of the run as the mean of all word scores (each word weighs the same).';
COMMENT ON COLUMN parse_scores.no_crossing_sentences IS 'Valid sentences with no crossing bracket (what EVALB prints in the Cross column of its totals row).';
COMMENT ON COLUMN parse_scores.two_or_less_crossing_sentences IS 'Valid sentences with at most 2 crossing brackets (the count behind two_or_less_crossing).';
COMMENT ON COLUMN parse_scores.labelled_complete_sentences IS 'Valid sentences whose labelled brackets match exactly (the count behind labelled_complete_match).';
COMMENT ON COLUMN parse_scores.unlabelled_complete_sentences IS 'Valid sentences whose unlabelled brackets match exactly (the count behind unlabelled_complete_match).';
COMMENT ON COLUMN parse_scores.config IS 'Signature of the scoring configuration (parse_runs.config).';
COMMENT ON COLUMN parse_scores.team IS 'Team of the candidate run (parser).';
COMMENT ON COLUMN parse_scores.run IS 'Run name within the team.';
COMMENT ON COLUMN parse_scores.corpus IS 'Parse corpus (parse_runs.corpus): the gold parses and the runs scored against them.';
COMMENT ON COLUMN parse_scores.sentences IS 'Sentences of the run in the subset.';
COMMENT ON COLUMN parse_scores.error_sentences IS 'Sentences with EVALB status error (length or word mismatch).';
COMMENT ON COLUMN parse_scores.skip_sentences IS 'Sentences with EVALB status skip (empty candidate parse).';
COMMENT ON COLUMN parse_scores.valid_sentences IS 'Sentences with status ok: the ones the figures pool.';
COMMENT ON COLUMN parse_scores.gold_brackets IS 'Gold brackets over the valid sentences.';
COMMENT ON COLUMN parse_scores.test_brackets IS 'Candidate brackets over the valid sentences.';
COMMENT ON COLUMN parse_scores.matched_labelled IS 'Labelled matching brackets over the valid sentences.';
COMMENT ON COLUMN parse_scores.matched_unlabelled IS 'Unlabelled matching brackets over the valid sentences.';
COMMENT ON COLUMN parse_scores.crossing IS 'Crossing brackets over the valid sentences.';
COMMENT ON COLUMN parse_scores.words IS 'Words over the valid sentences (tagging accuracy denominator).';
COMMENT ON COLUMN parse_scores.correct_tags IS 'Correct tags over the valid sentences.';
