-- submission_scores: corpus-level figures of each submission.
-- Grain: team x run x corpus. Key: (team, run, corpus).
-- Columns: team, run, corpus, sentences, missing_sentences, edges, matched_edges,
--   dea (pooled: matched_edges / edges), mean_dea (mean of sentence DEA over sentences with edges),
--   mean_bleu, mean_bleu_surface (means of sentence BLEU),
--   corpus_bleu (BLEU-4 from the summed lemma statistics with smoothing method 2: NLTK's corpus_bleu,
--   in which every sentence contributes at least 1 to each n-gram total),
--   mean_ssa, mean_gsa, mean_sta, mean_gta (Bangalore, Rambow & Whittaker 2000), mean_understandability_accuracy, mean_quality_accuracy,
--   mean_lemma_ssa, mean_lemma_gsa, mean_lemma_sta, mean_lemma_gta (the lemma-key variant),
--   mean_fluency_z, mean_adequacy_z, judged_sentences, configuration_id (the text: configurations).
-- Upstream: sentence_scores, sentence_statistics, submissions, configurations.
CREATE OR REPLACE VIEW submission_scores AS
WITH corpus_statistics AS (
    SELECT team, run, corpus,
           sum(bleu_hypothesis_length) AS h, sum(bleu_reference_length) AS r,
           sum(bleu_matches[1]) AS m1, sum(bleu_matches[2]) AS m2, sum(bleu_matches[3]) AS m3, sum(bleu_matches[4]) AS m4,
           sum(greatest(bleu_totals[1], 1)) AS t1, sum(greatest(bleu_totals[2], 1)) AS t2,
           sum(greatest(bleu_totals[3], 1)) AS t3, sum(greatest(bleu_totals[4], 1)) AS t4
    FROM sentence_statistics
    GROUP BY ALL
),
corpus_bleu AS (
    SELECT team, run, corpus,
           bleu_from_statistics(h, r, m1, m2, m3, m4, t1, t2, t3, t4) AS corpus_bleu
    FROM corpus_statistics
),
per_sentence AS (
    SELECT team, run, corpus,
           count(*) AS sentences,
           count(*) FILTER (WHERE missing) AS missing_sentences,
           CAST(sum(edges) AS BIGINT) AS edges,
           CAST(sum(matched_edges) AS BIGINT) AS matched_edges,
           sum(matched_edges) / nullif(sum(edges), 0) AS dea,
           avg(dea) AS mean_dea,
           avg(bleu) AS mean_bleu,
           avg(bleu_surface) AS mean_bleu_surface,
           avg(ssa) AS mean_ssa, avg(gsa) AS mean_gsa, avg(sta) AS mean_sta, avg(gta) AS mean_gta,
           avg(lemma_ssa) AS mean_lemma_ssa, avg(lemma_gsa) AS mean_lemma_gsa, avg(lemma_sta) AS mean_lemma_sta,
           avg(lemma_gta) AS mean_lemma_gta,
           avg(understandability_accuracy) AS mean_understandability_accuracy,
           avg(quality_accuracy) AS mean_quality_accuracy,
           avg(fluency_z) AS mean_fluency_z,
           avg(adequacy_z) AS mean_adequacy_z,
           count(*) FILTER (WHERE judgements > 0) AS judged_sentences
    FROM sentence_scores
    GROUP BY ALL
),
final AS (
    SELECT p.team, p.run, p.corpus, p.sentences, p.missing_sentences, p.edges, p.matched_edges, p.dea, p.mean_dea,
           p.mean_bleu, p.mean_bleu_surface, c.corpus_bleu,
           p.mean_ssa, p.mean_gsa, p.mean_sta, p.mean_gta, p.mean_understandability_accuracy,
           p.mean_quality_accuracy, p.mean_lemma_ssa, p.mean_lemma_gsa, p.mean_lemma_sta, p.mean_lemma_gta,
           p.mean_fluency_z, p.mean_adequacy_z, p.judged_sentences, k.configuration_id
    FROM per_sentence AS p
    JOIN corpus_bleu AS c USING (team, run, corpus)
    JOIN submissions AS s USING (team, run, corpus)
    LEFT JOIN configurations AS k ON k.configuration = s.configuration
)
SELECT * FROM final;
COMMENT ON VIEW submission_scores IS 'Corpus-level scores of each submission (pooled DEA, mean sentence scores, corpus BLEU). Grain: team x run x corpus.';
COMMENT ON COLUMN submission_scores.dea IS 'Pooled DEA: matched edges / edges over the whole corpus.';
COMMENT ON COLUMN submission_scores.mean_dea IS 'Mean of sentence DEA over sentences that have edges.';
COMMENT ON COLUMN submission_scores.mean_bleu IS 'Mean sentence BLEU (lemmas, punctuation removed, NLTK method 2).';
COMMENT ON COLUMN submission_scores.corpus_bleu IS 'Corpus BLEU-4 from summed lemma statistics with smoothing method 2 (equals NLTK corpus_bleu with method2).';
COMMENT ON COLUMN submission_scores.configuration_id IS 'Short id of the configuration the scores were computed with; its whole text: configurations.configuration (join on configuration_id).';
COMMENT ON COLUMN submission_scores.team IS 'Team that submitted the run.';
COMMENT ON COLUMN submission_scores.run IS 'Run name within the team.';
COMMENT ON COLUMN submission_scores.corpus IS 'Reference corpus the submission is scored against (corpora.corpus).';
COMMENT ON COLUMN submission_scores.sentences IS 'Reference sentences (every one is scored; a missing output as an empty one).';
COMMENT ON COLUMN submission_scores.missing_sentences IS 'Reference sentences with no output.';
COMMENT ON COLUMN submission_scores.edges IS 'Reference edges (non-root, punctuation removed) over the corpus.';
COMMENT ON COLUMN submission_scores.matched_edges IS 'Reference edges the output realises.';
COMMENT ON COLUMN submission_scores.mean_bleu_surface IS 'Mean sentence BLEU on surface tokens (forms, punctuation removed, NLTK method 2).';
COMMENT ON COLUMN submission_scores.mean_ssa IS 'Mean simple string accuracy (Bangalore, Rambow & Whittaker 2000: words, punctuation kept).';
COMMENT ON COLUMN submission_scores.mean_gsa IS 'Mean generation string accuracy (Bangalore, Rambow & Whittaker 2000).';
COMMENT ON COLUMN submission_scores.mean_sta IS 'Mean simple tree accuracy (Bangalore, Rambow & Whittaker 2000).';
COMMENT ON COLUMN submission_scores.mean_gta IS 'Mean generation tree accuracy (Bangalore, Rambow & Whittaker 2000).';
COMMENT ON COLUMN submission_scores.mean_lemma_ssa IS 'Mean lemma-key simple string accuracy (evalhouse variant: lemma keys, punctuation removed).';
COMMENT ON COLUMN submission_scores.mean_lemma_gsa IS 'Mean lemma-key generation string accuracy (evalhouse variant).';
COMMENT ON COLUMN submission_scores.mean_lemma_sta IS 'Mean lemma-key simple tree accuracy (evalhouse variant: stripped tree, unlinked output words as insertions).';
COMMENT ON COLUMN submission_scores.mean_lemma_gta IS 'Mean lemma-key generation tree accuracy (evalhouse variant).';
COMMENT ON COLUMN submission_scores.mean_understandability_accuracy IS 'Mean understandability accuracy (Bangalore et al. 2000, published coefficients).';
COMMENT ON COLUMN submission_scores.mean_quality_accuracy IS 'Mean quality accuracy (Bangalore et al. 2000, published coefficients).';
COMMENT ON COLUMN submission_scores.mean_fluency_z IS 'Mean over judged sentences of the sentence fluency z-score.';
COMMENT ON COLUMN submission_scores.mean_adequacy_z IS 'Mean over judged sentences of the sentence adequacy z-score.';
COMMENT ON COLUMN submission_scores.judged_sentences IS 'Sentences with at least one human judgement.';
