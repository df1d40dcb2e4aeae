-- bleu_from_statistics: BLEU-4 from a hypothesis' (or a corpus') sufficient statistics, the one
-- definition every view uses (sentence_scores, submission_scores, sr_sentence_scores, sr_submission_scores).
-- Formula: BP * exp(sum_n 1/4 ln p_n), BP = 1 if h > r else exp(1 - r / h) (Papineni et al. 2002), with
-- NLTK's smoothing method 2 (Lin and Och 2004): p_1 = m1 / t1, p_n = (m_n + 1) / (t_n + 1) for n > 1;
-- a total below 1 counts as 1 (NLTK); 0 when no unigram matches.
-- Arguments: h (hypothesis length), r (reference length), m1..m4 (clipped n-gram matches),
--   t1..t4 (hypothesis n-grams). For a corpus pass the sums over its sentences (NLTK corpus_bleu, every
--   sentence counting at least 1 in each total).
-- Kernels: evalhouse.analysis.bleu.bleu_from_statistics computes the same in numpy (the bootstrap's
--   loop); tests/test_bleu_macro.py checks them equal.
CREATE OR REPLACE MACRO bleu_from_statistics(h, r, m1, m2, m3, m4, t1, t2, t3, t4) AS
    CASE WHEN m1 = 0 THEN 0.0
         ELSE (CASE WHEN h > r THEN 1.0 ELSE exp(1 - r / h) END)
              * exp(0.25 * ln(m1 / greatest(t1, 1))
                    + 0.25 * ln((m2 + 1) / (greatest(t2, 1) + 1))
                    + 0.25 * ln((m3 + 1) / (greatest(t3, 1) + 1))
                    + 0.25 * ln((m4 + 1) / (greatest(t4, 1) + 1)))
    END;

COMMENT ON MACRO bleu_from_statistics IS 'BLEU-4 (NLTK smoothing method 2) from sufficient statistics: bleu_from_statistics(hypothesis_length, reference_length, m1, m2, m3, m4, t1, t2, t3, t4), matches and hypothesis n-gram totals per order; sums of them give corpus BLEU.';
