-- dependency_word_pairs: the words of a dependency run, gold and system side by side as the CoNLL 2018
-- evaluation (conll18_ud_eval.py 1.2) aligns them, with whether each of its word metrics counts the pair
-- correct: the row-level view a user filters to see which words a parser gets wrong.
-- Grain: corpus x team x run x gold_index x system_index: one row per aligned pair, per unaligned gold word
-- (system_index NULL) and per unaligned system word (gold_index NULL).
-- Key: (corpus, team, run, gold_index, system_index).
-- Columns: keys; sentence (the gold sentence the row counts in); gold_* and system_* facts of each side
-- (NULL on the missing side); the CoNLL 2018 flags of dependency_gold_words (false for an unaligned word);
-- la (the gold word's dependency LA).
-- Upstream: dependency_gold_words, dependency_system_words.
CREATE OR REPLACE VIEW dependency_word_pairs AS
WITH gold_side AS (
    SELECT * FROM dependency_gold_words
), system_side AS (
    SELECT * FROM dependency_system_words
), aligned_and_gold AS (
    SELECT g.corpus, g.team, g.run, g.gold_index, g.system_index, g.sentence,
           g.form AS gold_form, s.form AS system_form, g.lemma AS gold_lemma, s.lemma AS system_lemma,
           g.upos AS gold_upos, s.upos AS system_upos, g.xpos AS gold_xpos, s.xpos AS system_xpos,
           g.ufeats AS gold_ufeats, s.ufeats AS system_ufeats, g.head AS gold_head, s.head AS system_head,
           g.relation AS gold_relation, s.relation AS system_relation,
           g.word_id AS gold_word_id, s.word_id AS system_word_id, s.sentence AS system_sentence,
           g.content AS gold_content, coalesce(s.content, false) AS system_content,
           g.system_index IS NOT NULL AS aligned,
           g.upos_correct, g.xpos_correct, g.ufeats_correct, g.alltags_correct, g.lemma_correct, g.head_correct,
           g.label_correct, g.relation_correct, g.clas_correct, g.mlas_correct, g.blex_correct, g.la
    FROM gold_side AS g
    LEFT JOIN system_side AS s
        ON s.corpus = g.corpus AND s.team = g.team AND s.run = g.run AND s.system_index = g.system_index
), system_only AS (
    SELECT s.corpus, s.team, s.run, CAST(NULL AS INTEGER) AS gold_index, s.system_index, s.gold_sentence AS sentence,
           CAST(NULL AS VARCHAR) AS gold_form, s.form AS system_form, CAST(NULL AS VARCHAR) AS gold_lemma,
           s.lemma AS system_lemma, CAST(NULL AS VARCHAR) AS gold_upos, s.upos AS system_upos,
           CAST(NULL AS VARCHAR) AS gold_xpos, s.xpos AS system_xpos, CAST(NULL AS VARCHAR) AS gold_ufeats,
           s.ufeats AS system_ufeats, CAST(NULL AS INTEGER) AS gold_head, s.head AS system_head,
           CAST(NULL AS VARCHAR) AS gold_relation, s.relation AS system_relation,
           CAST(NULL AS INTEGER) AS gold_word_id, s.word_id AS system_word_id, s.sentence AS system_sentence,
           false AS gold_content, s.content AS system_content, false AS aligned,
           false AS upos_correct, false AS xpos_correct, false AS ufeats_correct, false AS alltags_correct,
           false AS lemma_correct, false AS head_correct, false AS label_correct, false AS relation_correct,
           false AS clas_correct, false AS mlas_correct, false AS blex_correct, CAST(NULL AS DOUBLE) AS la
    FROM system_side AS s
    WHERE NOT EXISTS (SELECT 1 FROM gold_side AS g WHERE g.corpus = s.corpus AND g.team = s.team AND g.run = s.run
                                                AND g.system_index = s.system_index)
), final AS (
    SELECT * FROM aligned_and_gold
    UNION ALL
    SELECT * FROM system_only
)
SELECT * FROM final;

COMMENT ON VIEW dependency_word_pairs IS 'The words of a dependency run, gold and system side by side as the CoNLL 2018 evaluation aligns them, with the correctness of each CoNLL 2018 word metric. Grain: corpus x team x run x gold_index x system_index (one side NULL for an unaligned word).';
COMMENT ON COLUMN dependency_word_pairs.corpus IS 'Corpus of the dependency run (dependency_runs.corpus).';
COMMENT ON COLUMN dependency_word_pairs.team IS 'Team of the run (parser).';
COMMENT ON COLUMN dependency_word_pairs.run IS 'Run name within the team.';
COMMENT ON COLUMN dependency_word_pairs.gold_index IS '0-based index of the gold word in the gold file; NULL for an unaligned system word.';
COMMENT ON COLUMN dependency_word_pairs.system_index IS '0-based index of the system word in the system file; NULL for an unaligned gold word.';
COMMENT ON COLUMN dependency_word_pairs.sentence IS 'The gold sentence the row counts in: the gold word''s, else the system word''s gold_sentence.';
COMMENT ON COLUMN dependency_word_pairs.gold_form IS 'FORM of the gold word.';
COMMENT ON COLUMN dependency_word_pairs.system_form IS 'FORM of the system word.';
COMMENT ON COLUMN dependency_word_pairs.gold_lemma IS 'LEMMA of the gold word.';
COMMENT ON COLUMN dependency_word_pairs.system_lemma IS 'LEMMA of the system word.';
COMMENT ON COLUMN dependency_word_pairs.gold_upos IS 'UPOS of the gold word.';
COMMENT ON COLUMN dependency_word_pairs.system_upos IS 'UPOS of the system word.';
COMMENT ON COLUMN dependency_word_pairs.gold_xpos IS 'XPOS of the gold word.';
COMMENT ON COLUMN dependency_word_pairs.system_xpos IS 'XPOS of the system word.';
COMMENT ON COLUMN dependency_word_pairs.gold_ufeats IS 'Universal features of the gold word (sorted, |-joined).';
COMMENT ON COLUMN dependency_word_pairs.system_ufeats IS 'Universal features of the system word (sorted, |-joined).';
COMMENT ON COLUMN dependency_word_pairs.gold_head IS 'HEAD of the gold word (ID in its sentence, 0 for the root).';
COMMENT ON COLUMN dependency_word_pairs.system_head IS 'HEAD of the system word (ID in its system sentence, 0 for the root).';
COMMENT ON COLUMN dependency_word_pairs.gold_relation IS 'Universal relation of the gold word.';
COMMENT ON COLUMN dependency_word_pairs.system_relation IS 'Universal relation of the system word.';
COMMENT ON COLUMN dependency_word_pairs.gold_word_id IS 'ID of the gold word in its sentence.';
COMMENT ON COLUMN dependency_word_pairs.system_word_id IS 'ID of the system word in its system sentence.';
COMMENT ON COLUMN dependency_word_pairs.system_sentence IS '1-based position of the system word''s sentence in the system file.';
COMMENT ON COLUMN dependency_word_pairs.gold_content IS 'The gold relation is a content relation (counts in CLAS, MLAS, BLEX recall).';
COMMENT ON COLUMN dependency_word_pairs.system_content IS 'The system relation is a content relation (counts in CLAS, MLAS, BLEX precision).';
COMMENT ON COLUMN dependency_word_pairs.aligned IS 'Both sides present (CoNLL 2018 Words).';
COMMENT ON COLUMN dependency_word_pairs.upos_correct IS 'CoNLL 2018 UPOS counts the pair correct.';
COMMENT ON COLUMN dependency_word_pairs.xpos_correct IS 'CoNLL 2018 XPOS counts the pair correct.';
COMMENT ON COLUMN dependency_word_pairs.ufeats_correct IS 'CoNLL 2018 UFeats counts the pair correct.';
COMMENT ON COLUMN dependency_word_pairs.alltags_correct IS 'CoNLL 2018 AllTags counts the pair correct.';
COMMENT ON COLUMN dependency_word_pairs.lemma_correct IS 'CoNLL 2018 Lemmas counts the pair correct.';
COMMENT ON COLUMN dependency_word_pairs.head_correct IS 'CoNLL 2018 UAS counts the pair correct (right head).';
COMMENT ON COLUMN dependency_word_pairs.label_correct IS 'CoNLL 2018 LAS counts the pair correct (right head and relation).';
COMMENT ON COLUMN dependency_word_pairs.relation_correct IS 'Same universal relation, whatever the head (MaltEval''s label accuracy).';
COMMENT ON COLUMN dependency_word_pairs.clas_correct IS 'CoNLL 2018 CLAS counts the pair correct.';
COMMENT ON COLUMN dependency_word_pairs.mlas_correct IS 'CoNLL 2018 MLAS counts the pair correct.';
COMMENT ON COLUMN dependency_word_pairs.blex_correct IS 'CoNLL 2018 BLEX counts the pair correct.';
COMMENT ON COLUMN dependency_word_pairs.la IS 'Dependency leaf-ancestor score of the gold word (0 when unaligned); NULL for an unaligned system word.';
