-- sentence_scores: every automatic and human score of every output sentence.
-- Grain: submission x reference sentence (team, run, corpus, position). Missing outputs are scored
-- as empty outputs (missing = true).
-- Key: (team, run, corpus, position).
-- Columns: team, run, corpus, position, sent_id, missing,
--   edges, matched_edges, dea            DEA (Shimorina, Parmentier & Gardent 2021, section 3.2); NULL when the sentence has no edge
--   bleu                                 sentence BLEU-4, NLTK smoothing method 2, on case-folded lemmas
--                                        without punctuation (Shimorina, Parmentier & Gardent 2021, section 4)
--   bleu_surface                         the same on output tokens as written, punctuation kept
--   ssa, gsa, sta, gta                   simple/generation string and tree accuracy as Bangalore, Rambow & Whittaker (2000) define them:
--                                        the words of output and reference (case-folded, punctuation kept),
--                                        treelets of the whole reference tree, unlinked output words in none
--   understandability_accuracy, quality_accuracy  Bangalore, Rambow & Whittaker's (2000) derived metrics (from sta and string_substitutions)
--   string_* and tree_* counts           I, D, S, M and R behind those accuracies
--   lemma_ssa, lemma_gsa, lemma_sta, lemma_gta  evalhouse's lemma-key variant: case-folded lemma keys without
--                                        punctuation, stripped tree, each unlinked output word one tree insertion
--   lemma_string_* and lemma_tree_* counts  I, D, S, M and R behind the variant
--   fluency_z, adequacy_z, judgements    mean z-score over annotators (judgement_z), number of judgements
--   configuration_id                     how the scores were computed: the text is in configurations
-- Upstream: output_sentences, sentences, sentence_statistics, dea_edges, judgement_z, submissions, configurations.
CREATE OR REPLACE VIEW sentence_scores AS
WITH bleu_inputs AS (
    SELECT team, run, corpus, position, 'lemma' AS variant, bleu_hypothesis_length AS h,
           bleu_reference_length AS r, bleu_matches AS m, bleu_totals AS t
    FROM sentence_statistics
    UNION ALL
    SELECT team, run, corpus, position, 'surface', surface_hypothesis_length, surface_reference_length,
           surface_matches, surface_totals
    FROM sentence_statistics
),
bleu_scores AS (
    SELECT team, run, corpus, position,
           max(score) FILTER (WHERE variant = 'lemma') AS bleu,
           max(score) FILTER (WHERE variant = 'surface') AS bleu_surface
    FROM (
        SELECT *,
               bleu_from_statistics(h, r, m[1], m[2], m[3], m[4], t[1], t[2], t[3], t[4]) AS score
        FROM bleu_inputs
    )
    GROUP BY ALL
),
dea AS (
    SELECT team, run, corpus, position, count(*) AS edges, count(*) FILTER (WHERE matched) AS matched_edges
    FROM dea_edges
    GROUP BY ALL
),
human AS (
    SELECT team, run, corpus, position,
           avg(z) FILTER (WHERE criterion = 'fluency') AS fluency_z,
           avg(z) FILTER (WHERE criterion = 'adequacy') AS adequacy_z,
           count(*) AS judgements
    FROM judgement_z
    GROUP BY ALL
),
accuracies AS (
    SELECT *,
           CASE WHEN string_reference_length > 0 THEN
               1 - (string_insertions + string_deletions + string_substitutions) / string_reference_length END AS ssa,
           CASE WHEN string_reference_length > 0 THEN
               1 - (string_insertions + string_deletions - string_moves + string_substitutions)
                   / string_reference_length END AS gsa,
           CASE WHEN tree_reference_length > 0 THEN
               1 - (tree_insertions + tree_deletions + tree_substitutions) / tree_reference_length END AS sta,
           CASE WHEN tree_reference_length > 0 THEN
               1 - (tree_insertions + tree_deletions - tree_moves + tree_substitutions) / tree_reference_length END AS gta,
           CASE WHEN lemma_string_reference_length > 0 THEN
               1 - (lemma_string_insertions + lemma_string_deletions + lemma_string_substitutions)
                   / lemma_string_reference_length END AS lemma_ssa,
           CASE WHEN lemma_string_reference_length > 0 THEN
               1 - (lemma_string_insertions + lemma_string_deletions - lemma_string_moves + lemma_string_substitutions)
                   / lemma_string_reference_length END AS lemma_gsa,
           CASE WHEN lemma_tree_reference_length > 0 THEN
               1 - (lemma_tree_insertions + lemma_tree_deletions + lemma_tree_substitutions)
                   / lemma_tree_reference_length END AS lemma_sta,
           CASE WHEN lemma_tree_reference_length > 0 THEN
               1 - (lemma_tree_insertions + lemma_tree_deletions - lemma_tree_moves + lemma_tree_substitutions)
                   / lemma_tree_reference_length END AS lemma_gta
    FROM sentence_statistics
),
final AS (
    SELECT o.team, o.run, o.corpus, o.position, s.sent_id, o.missing,
           coalesce(d.edges, 0) AS edges, coalesce(d.matched_edges, 0) AS matched_edges,
           d.matched_edges / d.edges AS dea,
           b.bleu, b.bleu_surface,
           a.ssa, a.gsa, a.sta, a.gta,
           -- (a sta - b S - c) / d written as 1 - (a (1 - sta) + b S) / d (a - c = d): a perfect sentence is exactly 1
           1 - (1.3147 * (1 - a.sta) + 0.1039 * a.string_substitutions) / 0.8689 AS understandability_accuracy,
           1 - (1.0192 * (1 - a.sta) + 0.0869 * a.string_substitutions) / 0.6639 AS quality_accuracy,
           a.string_insertions, a.string_deletions, a.string_substitutions, a.string_moves, a.string_reference_length,
           a.tree_insertions, a.tree_deletions, a.tree_substitutions, a.tree_moves, a.tree_reference_length,
           a.lemma_ssa, a.lemma_gsa, a.lemma_sta, a.lemma_gta,
           a.lemma_string_insertions, a.lemma_string_deletions, a.lemma_string_substitutions, a.lemma_string_moves,
           a.lemma_string_reference_length,
           a.lemma_tree_insertions, a.lemma_tree_deletions, a.lemma_tree_substitutions, a.lemma_tree_moves,
           a.lemma_tree_reference_length,
           a.bleu_hypothesis_length, a.bleu_reference_length,
           h.fluency_z, h.adequacy_z, coalesce(h.judgements, 0) AS judgements,
           k.configuration_id
    FROM output_sentences AS o
    JOIN sentences AS s ON s.corpus = o.corpus AND s.position = o.position
    JOIN submissions AS u ON u.team = o.team AND u.run = o.run AND u.corpus = o.corpus
    LEFT JOIN configurations AS k ON k.configuration = u.configuration
    JOIN accuracies AS a ON a.team = o.team AND a.run = o.run AND a.corpus = o.corpus AND a.position = o.position
    JOIN bleu_scores AS b ON b.team = o.team AND b.run = o.run AND b.corpus = o.corpus AND b.position = o.position
    LEFT JOIN dea AS d ON d.team = o.team AND d.run = o.run AND d.corpus = o.corpus AND d.position = o.position
    LEFT JOIN human AS h ON h.team = o.team AND h.run = o.run AND h.corpus = o.corpus AND h.position = o.position
)
SELECT * FROM final;
COMMENT ON VIEW sentence_scores IS 'Every score of every output sentence: DEA, lemma and surface sentence BLEU, string/tree accuracies (Bangalore, Rambow & Whittaker 2000, and their lemma-key variant), human z-scores. Grain: team x run x corpus x position.';
COMMENT ON COLUMN sentence_scores.position IS '1-based position of the reference sentence in its corpus.';
COMMENT ON COLUMN sentence_scores.sent_id IS 'sent_id of the reference sentence.';
COMMENT ON COLUMN sentence_scores.missing IS 'True when the submission had no output for this sentence (scored as empty).';
COMMENT ON COLUMN sentence_scores.edges IS 'Edges of the punctuation-stripped reference tree (the root excluded).';
COMMENT ON COLUMN sentence_scores.matched_edges IS 'Edges found in the output (dea_edges.matched).';
COMMENT ON COLUMN sentence_scores.dea IS 'Dependency edge accuracy matched_edges / edges; NULL for a sentence without edges.';
COMMENT ON COLUMN sentence_scores.bleu IS 'Sentence BLEU-4 (NLTK smoothing method 2) on case-folded lemmas, punctuation removed.';
COMMENT ON COLUMN sentence_scores.bleu_surface IS 'Sentence BLEU-4 (NLTK method 2) on the output tokens as written against the reference forms, punctuation kept.';
COMMENT ON COLUMN sentence_scores.ssa IS 'Simple string accuracy 1 - (I + D + S) / R (Bangalore, Rambow & Whittaker 2000) between the words of the output and of the reference, case-folded, punctuation kept.';
COMMENT ON COLUMN sentence_scores.gsa IS 'Generation string accuracy 1 - (M + I'' + D'' + S) / R (Bangalore, Rambow & Whittaker 2000), on the same words as ssa.';
COMMENT ON COLUMN sentence_scores.sta IS 'Simple tree accuracy (Bangalore, Rambow & Whittaker 2000): string counts summed over the treelets (a head with its dependents) of the whole reference tree, each in reference and in output order, over the reference length; an output word that realises no reference word (the same word, aligned to it) is in no treelet.';
COMMENT ON COLUMN sentence_scores.gta IS 'Generation tree accuracy (Bangalore, Rambow & Whittaker 2000): generation string counts summed over the treelets (moves credited), as sta.';
COMMENT ON COLUMN sentence_scores.understandability_accuracy IS '(1.3147 sta - 0.1039 string_substitutions - 0.4458) / 0.8689 (Bangalore, Rambow & Whittaker 2000, published coefficients); exactly 1 on a perfect sentence.';
COMMENT ON COLUMN sentence_scores.quality_accuracy IS '(1.0192 sta - 0.0869 string_substitutions - 0.3553) / 0.6639 (Bangalore, Rambow & Whittaker 2000, published coefficients); exactly 1 on a perfect sentence.';
COMMENT ON COLUMN sentence_scores.fluency_z IS 'Mean over annotators of the fluency z-scores (judgement_z); NULL when not judged.';
COMMENT ON COLUMN sentence_scores.adequacy_z IS 'Mean over annotators of the adequacy z-scores (judgement_z); NULL when not judged.';
COMMENT ON COLUMN sentence_scores.configuration_id IS 'Short id of the configuration every score was computed with; its whole text: configurations.configuration (join on configuration_id).';
COMMENT ON COLUMN sentence_scores.team IS 'Team that submitted the run.';
COMMENT ON COLUMN sentence_scores.run IS 'Run name within the team.';
COMMENT ON COLUMN sentence_scores.corpus IS 'Reference corpus the submission is scored against (corpora.corpus).';
COMMENT ON COLUMN sentence_scores.string_insertions IS 'String accuracy (Bangalore, Rambow & Whittaker 2000): insertions I between the words of output and reference (case-folded, punctuation kept).';
COMMENT ON COLUMN sentence_scores.string_deletions IS 'String accuracy (Bangalore, Rambow & Whittaker 2000): deletions D.';
COMMENT ON COLUMN sentence_scores.string_substitutions IS 'String accuracy (Bangalore, Rambow & Whittaker 2000): substitutions S (also the S of understandability and quality accuracy).';
COMMENT ON COLUMN sentence_scores.string_moves IS 'String accuracy (Bangalore, Rambow & Whittaker 2000): moves M (a deletion and an insertion of the same word), most moves among minimum-cost alignments.';
COMMENT ON COLUMN sentence_scores.string_reference_length IS 'String accuracy (Bangalore, Rambow & Whittaker 2000): reference words R, punctuation included.';
COMMENT ON COLUMN sentence_scores.tree_insertions IS 'Tree accuracy (Bangalore, Rambow & Whittaker 2000): insertions summed over the treelets of the whole reference tree.';
COMMENT ON COLUMN sentence_scores.tree_deletions IS 'Tree accuracy (Bangalore, Rambow & Whittaker 2000): deletions summed over treelets (a reference word the output does not realise, in each treelet it belongs to).';
COMMENT ON COLUMN sentence_scores.tree_substitutions IS 'Tree accuracy (Bangalore, Rambow & Whittaker 2000): substitutions summed over treelets.';
COMMENT ON COLUMN sentence_scores.tree_moves IS 'Tree accuracy (Bangalore, Rambow & Whittaker 2000): moves summed over treelets.';
COMMENT ON COLUMN sentence_scores.tree_reference_length IS 'Tree accuracy (Bangalore, Rambow & Whittaker 2000): denominator R, the number of reference words (configuration R:reference).';
COMMENT ON COLUMN sentence_scores.lemma_ssa IS 'Lemma-key variant of simple string accuracy (evalhouse, not Bangalore, Rambow & Whittaker (2000)): 1 - (I + D + S) / R on the case-folded lemma keys of the alignment, punctuation removed.';
COMMENT ON COLUMN sentence_scores.lemma_gsa IS 'Lemma-key variant of generation string accuracy (evalhouse): moves credited, on the keys of lemma_ssa.';
COMMENT ON COLUMN sentence_scores.lemma_sta IS 'Lemma-key variant of simple tree accuracy (evalhouse): counts summed over the treelets of the punctuation-stripped reference tree plus one insertion per output word realising no reference word, over the stripped reference length.';
COMMENT ON COLUMN sentence_scores.lemma_gta IS 'Lemma-key variant of generation tree accuracy (evalhouse): as lemma_sta, moves credited.';
COMMENT ON COLUMN sentence_scores.lemma_string_insertions IS 'Lemma-key string accuracy: insertions I (keys without punctuation).';
COMMENT ON COLUMN sentence_scores.lemma_string_deletions IS 'Lemma-key string accuracy: deletions D.';
COMMENT ON COLUMN sentence_scores.lemma_string_substitutions IS 'Lemma-key string accuracy: substitutions S.';
COMMENT ON COLUMN sentence_scores.lemma_string_moves IS 'Lemma-key string accuracy: moves M.';
COMMENT ON COLUMN sentence_scores.lemma_string_reference_length IS 'Lemma-key string accuracy: reference words without punctuation R.';
COMMENT ON COLUMN sentence_scores.lemma_tree_insertions IS 'Lemma-key tree accuracy: insertions summed over the treelets of the stripped reference tree, plus one per output word realising no reference word.';
COMMENT ON COLUMN sentence_scores.lemma_tree_deletions IS 'Lemma-key tree accuracy: deletions summed over treelets.';
COMMENT ON COLUMN sentence_scores.lemma_tree_substitutions IS 'Lemma-key tree accuracy: substitutions summed over treelets.';
COMMENT ON COLUMN sentence_scores.lemma_tree_moves IS 'Lemma-key tree accuracy: moves summed over treelets.';
COMMENT ON COLUMN sentence_scores.lemma_tree_reference_length IS 'Lemma-key tree accuracy: denominator R, the words of the stripped reference tree.';
COMMENT ON COLUMN sentence_scores.bleu_hypothesis_length IS 'Lemma BLEU: non-punctuation output tokens (case-folded lemmas).';
COMMENT ON COLUMN sentence_scores.bleu_reference_length IS 'Lemma BLEU: non-punctuation reference words.';
COMMENT ON COLUMN sentence_scores.judgements IS 'Human judgements of this output sentence (all annotators and criteria).';
