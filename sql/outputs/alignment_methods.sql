-- alignment_methods: how each submission's output tokens were linked to the reference words, method by
-- method (analysis/alignment.py), so a user sees how much of a score rests on weaker links (the lemma
-- lexicon, the inflection rules of the language) or on none (unaligned: the token keeps its own form as
-- lemma). The methods are those of the aligner (evalhouse-align:3) and any other the warehouse stores
-- (fuzzy: a common prefix, in submissions scored before evalhouse-align:3).
-- Grain: team x run x corpus x method (every method, 0 when unused). Key: (team, run, corpus, method).
-- Columns: team, run, corpus, method, tokens (output tokens linked by the method), words (those that
--   are not punctuation: the words DEA, lemma BLEU and the accuracies count), token_share, word_share
--   (of all the submission's tokens / words; NULL when it has none).
-- Upstream: submissions, output_tokens, alignments.
CREATE OR REPLACE VIEW alignment_methods AS
WITH methods AS (
    SELECT method
    FROM (VALUES ('multiword'), ('exact'), ('casefold'), ('lemma'), ('lexicon'), ('inflection'), ('contraction'),
                 ('unaligned')) AS m(method)
    UNION
    SELECT DISTINCT method FROM alignments WHERE pair = 'output-reference'
),
linked AS (
    SELECT o.team, o.run, o.corpus, a.method, o.punct
    FROM output_tokens AS o
    JOIN alignments AS a
      ON a.pair = 'output-reference' AND a.corpus = o.corpus AND a.team = o.team AND a.run = o.run
     AND a.position = o.position AND a.from_index = o.token
),
counts AS (
    SELECT team, run, corpus, method, count(*) AS tokens, count(*) FILTER (WHERE NOT punct) AS words
    FROM linked
    GROUP BY team, run, corpus, method
),
totals AS (
    SELECT team, run, corpus, count(*) AS tokens, count(*) FILTER (WHERE NOT punct) AS words
    FROM output_tokens
    GROUP BY team, run, corpus
),
final AS (
    SELECT s.team, s.run, s.corpus, m.method,
           coalesce(c.tokens, 0) AS tokens,
           coalesce(c.words, 0) AS words,
           coalesce(c.tokens, 0) / nullif(t.tokens, 0) AS token_share,
           coalesce(c.words, 0) / nullif(t.words, 0) AS word_share
    FROM submissions AS s
    CROSS JOIN methods AS m
    LEFT JOIN totals AS t ON t.team = s.team AND t.run = s.run AND t.corpus = s.corpus
    LEFT JOIN counts AS c ON c.team = s.team AND c.run = s.run AND c.corpus = s.corpus AND c.method = m.method
)
SELECT * FROM final;
COMMENT ON VIEW alignment_methods IS 'Share of each submission''s output tokens and words linked to the reference by each alignment method (multiword, exact, casefold, lemma, lexicon, inflection, contraction, unaligned; and fuzzy where a warehouse stores links made before evalhouse-align:3). Grain: team x run x corpus x method.';
COMMENT ON COLUMN alignment_methods.team IS 'Team of the submission.';
COMMENT ON COLUMN alignment_methods.run IS 'Run of the submission.';
COMMENT ON COLUMN alignment_methods.corpus IS 'Reference corpus.';
COMMENT ON COLUMN alignment_methods.method IS 'Link method (alignments.method): multiword, exact, casefold, lemma, lexicon, inflection, contraction or unaligned, the strongest that applies (analysis/alignment.py); fuzzy (a common prefix) in links stored before evalhouse-align:3.';
COMMENT ON COLUMN alignment_methods.tokens IS 'Output tokens linked by this method (punctuation included).';
COMMENT ON COLUMN alignment_methods.words IS 'Output words linked by this method: tokens that are not punctuation, the ones DEA, lemma BLEU and the accuracies count.';
COMMENT ON COLUMN alignment_methods.token_share IS 'tokens / all output tokens of the submission; NULL when it has none.';
COMMENT ON COLUMN alignment_methods.word_share IS 'words / all output words (non-punctuation tokens) of the submission; NULL when it has none.';
