-- dependency_word_groups: the group each word of a dependency run falls in, for each of MaltEval's
-- breakdowns (the rows dependency_breakdowns counts, and what the report's drill-down lists): gold words by
-- their own attributes, system words by theirs, each with the correctness of its pair.
-- Intermediate: a building block of dependency_breakdowns, which a user reads instead (evalhouse views lists it apart).
-- Grain: corpus x team x run x side x word_index x breakdown.
-- Groupings (breakdown -> grp; grp_order sorts the groups):
--   relation        universal relation (as CoNLL 2018 compares them)
--   upos            UPOS (each word of a multiword token has its own)
--   arc_length      |ID - HEAD| in words; a root's arc is the group 'root' (grp_order 0)
--   arc_direction   'head-initial' (the head precedes the word), 'head-final', or 'root'
--   root_distance   arcs between the word and its sentence's root word (the root word 0)
--   sentence_length words in the word's own sentence, in bins of ten: '1-10', '11-20', ...
--   projectivity    'projective' or 'non-projective' arc (the head dominates every word between; a root's
--                   arc is projective)
-- A system word is correct when the gold word aligned to it is; sentence is the gold sentence the word
-- counts in (dependency_word_pairs.sentence).
-- Key: (corpus, team, run, side, word_index, breakdown).
-- Upstream: dependency_gold_words, dependency_system_words.
CREATE OR REPLACE VIEW dependency_word_groups AS
WITH groupings AS (
    SELECT * FROM (VALUES (1, 'relation'), (2, 'upos'), (3, 'arc_length'), (4, 'arc_direction'),
                          (5, 'root_distance'), (6, 'sentence_length'), (7, 'projectivity')) AS b (ordinal, breakdown)
), sides AS (
    SELECT corpus, team, run, 'gold' AS side, gold_index AS word_index, sentence, relation, upos, word_id, head,
           depth, sentence_length, arc_projective, head_correct, label_correct, relation_correct, la
    FROM dependency_gold_words
    UNION ALL
    -- a system word is correct when the gold word aligned to it is
    SELECT s.corpus, s.team, s.run, 'system' AS side, s.system_index, coalesce(g.sentence, s.gold_sentence),
           s.relation, s.upos, s.word_id, s.head, s.depth, s.sentence_length, s.arc_projective,
           coalesce(g.head_correct, false), coalesce(g.label_correct, false), coalesce(g.relation_correct, false),
           CAST(NULL AS DOUBLE)
    FROM dependency_system_words AS s
    LEFT JOIN dependency_gold_words AS g
        ON g.corpus = s.corpus AND g.team = s.team AND g.run = s.run AND g.system_index = s.system_index
), grouped AS (
    SELECT s.corpus, s.team, s.run, s.side, s.word_index, s.sentence, g.ordinal, g.breakdown,
           CASE g.breakdown
                WHEN 'relation' THEN s.relation
                WHEN 'upos' THEN s.upos
                WHEN 'arc_length' THEN CASE WHEN s.head = 0 THEN 'root' ELSE CAST(abs(s.word_id - s.head) AS VARCHAR) END
                WHEN 'arc_direction' THEN CASE WHEN s.head = 0 THEN 'root' WHEN s.head < s.word_id THEN 'head-initial'
                                               ELSE 'head-final' END
                WHEN 'root_distance' THEN CAST(s.depth AS VARCHAR)
                WHEN 'sentence_length' THEN CAST(10 * CAST(floor((s.sentence_length - 1) / 10.0) AS INTEGER) + 1 AS VARCHAR)
                                            || '-' || CAST(10 * CAST(floor((s.sentence_length - 1) / 10.0) AS INTEGER) + 10 AS VARCHAR)
                ELSE CASE WHEN s.arc_projective THEN 'projective' ELSE 'non-projective' END
           END AS grp,
           CASE g.breakdown
                WHEN 'arc_length' THEN CASE WHEN s.head = 0 THEN 0 ELSE abs(s.word_id - s.head) END
                WHEN 'arc_direction' THEN CASE WHEN s.head = 0 THEN 0 WHEN s.head < s.word_id THEN 1 ELSE 2 END
                WHEN 'root_distance' THEN s.depth
                WHEN 'sentence_length' THEN 10 * CAST(floor((s.sentence_length - 1) / 10.0) AS INTEGER) + 1
                WHEN 'projectivity' THEN CASE WHEN s.arc_projective THEN 0 ELSE 1 END
           END AS grp_order,
           s.head_correct, s.label_correct, s.relation_correct, s.la
    FROM sides AS s CROSS JOIN groupings AS g
), final AS (
    SELECT corpus, team, run, side, word_index, breakdown, grp, grp_order, ordinal, sentence,
           head_correct, label_correct, relation_correct, la
    FROM grouped
)
SELECT * FROM final;

COMMENT ON VIEW dependency_word_groups IS 'The group of each word of a dependency run in each MaltEval breakdown (gold words by their attributes, system words by theirs), with its pair''s correctness. Grain: corpus x team x run x side x word_index x breakdown.';
COMMENT ON COLUMN dependency_word_groups.corpus IS 'Corpus of the dependency run (dependency_runs.corpus).';
COMMENT ON COLUMN dependency_word_groups.team IS 'Team of the run (parser).';
COMMENT ON COLUMN dependency_word_groups.run IS 'Run name within the team.';
COMMENT ON COLUMN dependency_word_groups.side IS 'gold or system.';
COMMENT ON COLUMN dependency_word_groups.word_index IS 'gold_index of a gold word, system_index of a system word.';
COMMENT ON COLUMN dependency_word_groups.breakdown IS 'relation, upos, arc_length, arc_direction, root_distance, sentence_length or projectivity.';
COMMENT ON COLUMN dependency_word_groups.grp IS 'The word''s group in the breakdown (see the view''s header).';
COMMENT ON COLUMN dependency_word_groups.grp_order IS 'Sort key of ordered groups (NULL for relation and upos).';
COMMENT ON COLUMN dependency_word_groups.ordinal IS 'Order of the breakdown (1 relation ... 7 projectivity).';
COMMENT ON COLUMN dependency_word_groups.sentence IS 'The gold sentence the word counts in.';
COMMENT ON COLUMN dependency_word_groups.head_correct IS 'The word''s pair has the right head (UAS).';
COMMENT ON COLUMN dependency_word_groups.label_correct IS 'The word''s pair has the right head and relation (LAS).';
COMMENT ON COLUMN dependency_word_groups.relation_correct IS 'The word''s pair has the same relation (label accuracy).';
COMMENT ON COLUMN dependency_word_groups.la IS 'Dependency LA of a gold word; NULL for a system word.';
