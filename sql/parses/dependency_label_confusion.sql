-- dependency_label_confusion: per dependency run, how often a gold relation is given each system relation,
-- and how often the head is right then: the label confusion matrix, unaligned words included, so that its
-- rows sum to the gold words (over a gold relation) and to the system words (over a system relation).
-- Grain: corpus x team x run x gold_relation x system_relation.
-- gold_relation is NULL for the system words aligned to no gold word, system_relation for the gold words
-- aligned to no system word. Relations are universal (as CoNLL 2018 compares them).
-- Key: (corpus, team, run, gold_relation, system_relation).
-- Upstream: dependency_word_pairs.
CREATE OR REPLACE VIEW dependency_label_confusion AS
WITH pairs AS (
    SELECT * FROM dependency_word_pairs
), final AS (
    SELECT corpus, team, run, gold_relation, system_relation,
           CAST(count(*) AS BIGINT) AS words,
           CAST(count(*) FILTER (WHERE head_correct) AS BIGINT) AS head_correct,
           CAST(count(*) FILTER (WHERE NOT head_correct) AS BIGINT) AS head_wrong
    FROM pairs
    GROUP BY corpus, team, run, gold_relation, system_relation
)
SELECT * FROM final;

COMMENT ON VIEW dependency_label_confusion IS 'Label confusion of a dependency run: words per (gold relation, system relation), with the head right or wrong; NULL on the side of an unaligned word. Grain: corpus x team x run x gold_relation x system_relation.';
COMMENT ON COLUMN dependency_label_confusion.corpus IS 'Corpus of the dependency run (dependency_runs.corpus).';
COMMENT ON COLUMN dependency_label_confusion.team IS 'Team of the run (parser).';
COMMENT ON COLUMN dependency_label_confusion.run IS 'Run name within the team.';
COMMENT ON COLUMN dependency_label_confusion.gold_relation IS 'Universal relation of the gold word; NULL for system words aligned to no gold word.';
COMMENT ON COLUMN dependency_label_confusion.system_relation IS 'Universal relation of the aligned system word; NULL for gold words aligned to no system word.';
COMMENT ON COLUMN dependency_label_confusion.words IS 'Words (pairs) with these two relations.';
COMMENT ON COLUMN dependency_label_confusion.head_correct IS 'Of them, those whose head is right (CoNLL 2018 UAS).';
COMMENT ON COLUMN dependency_label_confusion.head_wrong IS 'Of them, those whose head is wrong, or that are not aligned.';
