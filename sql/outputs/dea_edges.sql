-- dea_edges: dependency edge accuracy (Shimorina et al. 2021, section 3.2) at its finest grain:
-- is each edge of the punctuation-stripped reference tree found in each submission's output?
-- An edge is the triple (head lemma, dependent lemma, signed distance dependent - head). It is found
-- when the punctuation-stripped output has the head lemma at some position i and the dependent lemma
-- at i + distance. Lemmas are compared by the keys stored at ingest (edges.head_key, dependent_key and
-- output_tokens.lemma_key, all from evalhouse.analysis.text.word_key): case-folded in Python, never by
-- SQL's lower(); where a lemma is missing (_) the key is the case-folded form. Multiset semantics: when a sentence has k
-- edges with the same triple and the output has m position pairs realising it, min(k, m) of them
-- are matched -- the first ones in reference order (by dependent position).
-- Grain: submission x reference edge (team, run, corpus, position, dependent); the root is not an edge.
-- Key: (team, run, corpus, position, dependent).
-- Columns: team, run, corpus, position, sent_id, dependent, head, relation, deprel, head_lemma,
--          dependent_lemma, distance, matched.
-- Upstream: submissions, edges, sentences, output_tokens.
CREATE OR REPLACE VIEW dea_edges AS
WITH submission_numbers AS (
    -- each submission as a number, so that the joins over every output word and edge compare integers,
    -- not team and run names (with the names and the key strings in the joins' keys, the view
    -- held 600 MB for 50 runs of en_ewt test; with numbers 220 MB, at half the CPU time)
    SELECT team, run, corpus, row_number() OVER (ORDER BY team, run, corpus) AS submission
    FROM submissions
),
reference_edges AS (
    -- which occurrence of its triple each edge is within its sentence, and the first dependent of the
    -- triple (which names the triple within its sentence, as (corpus, position, dependent) is the grain of
    -- edges): properties of the reference alone, so they are computed over edges and not over edges x
    -- submissions; only corpora that have submissions
    SELECT corpus, position, dependent, head, relation, deprel, head_lemma, dependent_lemma, distance,
           head_key, dependent_key,
           row_number() OVER triple AS occurrence,
           min(dependent) OVER triple AS triple_first
    FROM edges
    WHERE head > 0 AND corpus IN (SELECT corpus FROM submissions)
    WINDOW triple AS (PARTITION BY corpus, position, head_key, dependent_key, distance ORDER BY dependent)
),
output_words AS (
    SELECT n.submission, o.corpus, o.position, o.stripped_position, o.lemma_key
    FROM output_tokens AS o
    JOIN submission_numbers AS n USING (team, run, corpus)
    WHERE o.stripped_position IS NOT NULL
),
realised AS (
    -- how many position pairs of each submission's output realise each distinct triple (its first
    -- occurrence stands for it)
    SELECT h.submission, t.position, t.triple_first, count(*) AS pairs
    FROM reference_edges AS t
    JOIN output_words AS h
      ON h.corpus = t.corpus AND h.position = t.position AND h.lemma_key = t.head_key
    JOIN output_words AS d
      ON d.submission = h.submission AND d.position = t.position
     AND d.stripped_position = h.stripped_position + t.distance AND d.lemma_key = t.dependent_key
    WHERE t.occurrence = 1
    GROUP BY ALL
),
final AS (
    SELECT u.team, u.run, k.corpus, k.position, s.sent_id, k.dependent, k.head, k.relation, k.deprel,
           k.head_lemma, k.dependent_lemma, k.distance,
           coalesce(k.occurrence <= p.pairs, false) AS matched
    FROM reference_edges AS k
    JOIN submission_numbers AS u ON u.corpus = k.corpus
    JOIN sentences AS s ON s.corpus = k.corpus AND s.position = k.position
    LEFT JOIN realised AS p
      ON p.submission = u.submission AND p.position = k.position AND p.triple_first = k.triple_first
)
SELECT * FROM final;
COMMENT ON VIEW dea_edges IS 'Dependency edge accuracy per reference edge and submission: is the (head lemma, dependent lemma, signed distance) triple found in the punctuation-stripped output (Shimorina, Parmentier & Gardent 2021, section 3.2; multiset semantics). Grain: team x run x corpus x position x dependent.';
COMMENT ON COLUMN dea_edges.position IS '1-based position of the reference sentence in its corpus.';
COMMENT ON COLUMN dea_edges.sent_id IS 'sent_id of the reference sentence.';
COMMENT ON COLUMN dea_edges.dependent IS 'Stripped position of the dependent in the reference (edges.dependent).';
COMMENT ON COLUMN dea_edges.head IS 'Stripped position of the head in the reference.';
COMMENT ON COLUMN dea_edges.relation IS 'Base relation of the edge (deprel before the colon).';
COMMENT ON COLUMN dea_edges.distance IS 'Signed distance dependent - head in the stripped reference.';
COMMENT ON COLUMN dea_edges.matched IS 'True when the output realises this edge (head lemma at i, dependent lemma at i + distance), lemmas compared by their stored keys (case-folded lemma, or case-folded form where the lemma is _).';
COMMENT ON COLUMN dea_edges.team IS 'Team that submitted the run.';
COMMENT ON COLUMN dea_edges.run IS 'Run name within the team.';
COMMENT ON COLUMN dea_edges.corpus IS 'Reference corpus the submission is scored against (corpora.corpus).';
COMMENT ON COLUMN dea_edges.deprel IS 'Full dependency relation of the edge, with its subtype (e.g. obl:tmod).';
COMMENT ON COLUMN dea_edges.head_lemma IS 'Lemma of the head word in the reference.';
COMMENT ON COLUMN dea_edges.dependent_lemma IS 'Lemma of the dependent word in the reference.';
