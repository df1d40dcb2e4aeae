-- dependency_breakdowns: MaltEval's breakdowns of a dependency run: UAS, LAS and label accuracy with
-- precision, recall and F1 per group of words, for seven groupings, with the counts, so that the rows of a
-- breakdown sum to the run's totals (dependency_metrics' Words, UAS and LAS rows).
-- Grain: corpus x team x run x breakdown x grp.
-- As in MaltEval, recall groups the gold words by their own attribute and precision groups the system
-- words by theirs: precision = correct system words of the group / system words of the group, recall =
-- correct gold words of the group / gold words of the group, F1 = 2PR / (P + R) (NULL when P + R is 0 or a
-- side has no word in the group). A correct pair counts in its gold word's group and in its system word's.
-- Groupings: relation, upos, arc_length, arc_direction, root_distance, sentence_length, projectivity, as
-- dependency_word_groups defines them.
-- Key: (corpus, team, run, breakdown, grp).
-- Upstream: dependency_word_groups.
CREATE OR REPLACE VIEW dependency_breakdowns AS
WITH grouped AS (
    SELECT * FROM dependency_word_groups
), counts AS (
    SELECT corpus, team, run, ordinal, breakdown, grp, max(grp_order) AS grp_order,
           count(*) FILTER (WHERE side = 'gold') AS gold_words,
           count(*) FILTER (WHERE side = 'system') AS system_words,
           count(*) FILTER (WHERE side = 'gold' AND head_correct) AS uas_gold_correct,
           count(*) FILTER (WHERE side = 'system' AND head_correct) AS uas_system_correct,
           count(*) FILTER (WHERE side = 'gold' AND label_correct) AS las_gold_correct,
           count(*) FILTER (WHERE side = 'system' AND label_correct) AS las_system_correct,
           count(*) FILTER (WHERE side = 'gold' AND relation_correct) AS label_gold_correct,
           count(*) FILTER (WHERE side = 'system' AND relation_correct) AS label_system_correct,
           avg(la) AS la_gold_mean
    FROM grouped
    GROUP BY corpus, team, run, ordinal, breakdown, grp
), ratios AS (
    SELECT c.*,
           CASE WHEN system_words > 0 THEN CAST(uas_system_correct AS DOUBLE) / system_words END AS uas_precision,
           CASE WHEN gold_words > 0 THEN CAST(uas_gold_correct AS DOUBLE) / gold_words END AS uas_recall,
           CASE WHEN system_words > 0 THEN CAST(las_system_correct AS DOUBLE) / system_words END AS las_precision,
           CASE WHEN gold_words > 0 THEN CAST(las_gold_correct AS DOUBLE) / gold_words END AS las_recall,
           CASE WHEN system_words > 0 THEN CAST(label_system_correct AS DOUBLE) / system_words END AS label_precision,
           CASE WHEN gold_words > 0 THEN CAST(label_gold_correct AS DOUBLE) / gold_words END AS label_recall
    FROM counts AS c
), final AS (
    SELECT corpus, team, run, breakdown, grp, grp_order,
           CAST(gold_words AS BIGINT) AS gold_words, CAST(system_words AS BIGINT) AS system_words,
           CAST(uas_gold_correct AS BIGINT) AS uas_gold_correct, CAST(uas_system_correct AS BIGINT) AS uas_system_correct,
           CAST(las_gold_correct AS BIGINT) AS las_gold_correct, CAST(las_system_correct AS BIGINT) AS las_system_correct,
           CAST(label_gold_correct AS BIGINT) AS label_gold_correct,
           CAST(label_system_correct AS BIGINT) AS label_system_correct,
           uas_precision, uas_recall,
           CASE WHEN uas_precision + uas_recall > 0 THEN 2 * uas_precision * uas_recall / (uas_precision + uas_recall) END AS uas_f1,
           las_precision, las_recall,
           CASE WHEN las_precision + las_recall > 0 THEN 2 * las_precision * las_recall / (las_precision + las_recall) END AS las_f1,
           label_precision, label_recall,
           CASE WHEN label_precision + label_recall > 0
                THEN 2 * label_precision * label_recall / (label_precision + label_recall) END AS label_f1,
           CAST(la_gold_mean AS DOUBLE) AS la_gold_mean,
           ordinal
    FROM ratios
)
SELECT * FROM final;

COMMENT ON VIEW dependency_breakdowns IS 'MaltEval''s breakdowns of a dependency run (relation, UPOS, arc length, arc direction, distance to root, sentence length, projectivity): UAS, LAS and label precision (system words'' groups), recall (gold words'' groups) and F1, with counts that sum to the totals. Grain: corpus x team x run x breakdown x grp.';
COMMENT ON COLUMN dependency_breakdowns.corpus IS 'Corpus of the dependency run (dependency_runs.corpus).';
COMMENT ON COLUMN dependency_breakdowns.team IS 'Team of the run (parser).';
COMMENT ON COLUMN dependency_breakdowns.run IS 'Run name within the team.';
COMMENT ON COLUMN dependency_breakdowns.breakdown IS 'relation, upos, arc_length, arc_direction, root_distance, sentence_length or projectivity.';
COMMENT ON COLUMN dependency_breakdowns.grp IS 'The group: a relation, a UPOS, an arc length (''root'' for a root''s arc), head-initial/head-final/root, a depth, a bin of ten sentence lengths, projective/non-projective.';
COMMENT ON COLUMN dependency_breakdowns.grp_order IS 'Sort key of the numeric and ordered groups (NULL for relation and upos: sort by grp).';
COMMENT ON COLUMN dependency_breakdowns.gold_words IS 'Gold words in the group (the denominator of recall).';
COMMENT ON COLUMN dependency_breakdowns.system_words IS 'System words in the group (the denominator of precision).';
COMMENT ON COLUMN dependency_breakdowns.uas_gold_correct IS 'Gold words of the group with the right head.';
COMMENT ON COLUMN dependency_breakdowns.uas_system_correct IS 'System words of the group with the right head.';
COMMENT ON COLUMN dependency_breakdowns.las_gold_correct IS 'Gold words of the group with the right head and relation.';
COMMENT ON COLUMN dependency_breakdowns.las_system_correct IS 'System words of the group with the right head and relation.';
COMMENT ON COLUMN dependency_breakdowns.label_gold_correct IS 'Gold words of the group aligned to a word of the same relation (head right or wrong).';
COMMENT ON COLUMN dependency_breakdowns.label_system_correct IS 'System words of the group aligned to a word of the same relation.';
COMMENT ON COLUMN dependency_breakdowns.uas_precision IS 'uas_system_correct / system_words (NULL without system words).';
COMMENT ON COLUMN dependency_breakdowns.uas_recall IS 'uas_gold_correct / gold_words (NULL without gold words).';
COMMENT ON COLUMN dependency_breakdowns.uas_f1 IS '2PR / (P + R) of UAS.';
COMMENT ON COLUMN dependency_breakdowns.las_precision IS 'las_system_correct / system_words.';
COMMENT ON COLUMN dependency_breakdowns.las_recall IS 'las_gold_correct / gold_words.';
COMMENT ON COLUMN dependency_breakdowns.las_f1 IS '2PR / (P + R) of LAS.';
COMMENT ON COLUMN dependency_breakdowns.label_precision IS 'label_system_correct / system_words (MaltEval''s label accuracy).';
COMMENT ON COLUMN dependency_breakdowns.label_recall IS 'label_gold_correct / gold_words.';
COMMENT ON COLUMN dependency_breakdowns.label_f1 IS '2PR / (P + R) of the label accuracy.';
COMMENT ON COLUMN dependency_breakdowns.la_gold_mean IS 'Mean dependency leaf-ancestor score of the gold words of the group (unaligned 0).';
COMMENT ON COLUMN dependency_breakdowns.ordinal IS 'Order of the breakdown (1 relation ... 7 projectivity).';
