-- metric_deciles: for every ordered pair of metrics over a candidate run, the cross-tabulation of
-- decile ranks that Sampson & Babarczy (2003, section 6) print (e.g. "LA deciles for GEIG/unlabelled 10th decile":
-- metric_a = 'unlabelled_f', decile_a = 10, metric_b = 'la', decile_b = 1..10). Every cell of the
-- 10 x 10 grid is present, zero counts included. Deciles come from average ranks: sentences with
-- equal scores on a metric share one decile (parse_metric_ranks), so a tie is never ordered the same
-- way on both axes.
-- Grain: corpus x team x run x metric_a x decile_a x metric_b x decile_b.
-- Key: (corpus, team, run, metric_a, decile_a, metric_b, decile_b).
-- Upstream: parse_metric_ranks.
CREATE OR REPLACE VIEW metric_deciles AS
WITH ranks AS (
    SELECT * FROM parse_metric_ranks
), deciles AS (
    -- a literal list rather than DuckDB's range(): it transpiles to every engine (docs/engines-and-bi.md)
    SELECT * FROM (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10)) AS d(decile)
), pairs AS (
    SELECT DISTINCT a.corpus, a.team, a.run, a.metric AS metric_a, b.metric AS metric_b
    FROM (SELECT DISTINCT corpus, team, run, metric FROM ranks) AS a
    JOIN (SELECT DISTINCT corpus, team, run, metric FROM ranks) AS b
      ON a.corpus = b.corpus AND a.team = b.team AND a.run = b.run AND a.metric <> b.metric
), grid AS (
    SELECT p.*, da.decile AS decile_a, db.decile AS decile_b
    FROM pairs AS p CROSS JOIN deciles AS da CROSS JOIN deciles AS db
), counts AS (
    SELECT a.corpus, a.team, a.run, a.metric AS metric_a, a.decile AS decile_a,
           b.metric AS metric_b, b.decile AS decile_b, count(*) AS sentences
    FROM ranks AS a
    JOIN ranks AS b
      ON a.corpus = b.corpus AND a.team = b.team AND a.run = b.run AND a.position = b.position
     AND a.metric <> b.metric
    GROUP BY ALL
), final AS (
    SELECT g.team, g.run, g.corpus, g.metric_a, g.decile_a, g.metric_b, g.decile_b,
           coalesce(c.sentences, 0)::INTEGER AS sentences
    FROM grid AS g
    LEFT JOIN counts AS c USING (corpus, team, run, metric_a, decile_a, metric_b, decile_b)
)
SELECT * FROM final;

COMMENT ON VIEW metric_deciles IS 'Cross-tabulation of decile ranks between two metrics over a run (Sampson & Babarczy 2003, section 6), zero cells included. Grain: corpus x team x run x metric_a x decile_a x metric_b x decile_b.';
COMMENT ON COLUMN metric_deciles.metric_a IS 'The metric whose decile selects the sentences (la, labelled_f, unlabelled_f).';
COMMENT ON COLUMN metric_deciles.decile_a IS 'Decile on metric_a (1 best, 10 worst).';
COMMENT ON COLUMN metric_deciles.metric_b IS 'The metric whose deciles are counted.';
COMMENT ON COLUMN metric_deciles.decile_b IS 'Decile on metric_b.';
COMMENT ON COLUMN metric_deciles.sentences IS 'Sentences in decile_a of metric_a and decile_b of metric_b.';
COMMENT ON COLUMN metric_deciles.team IS 'Team of the candidate run (parser).';
COMMENT ON COLUMN metric_deciles.run IS 'Run name within the team.';
COMMENT ON COLUMN metric_deciles.corpus IS 'Parse corpus (parse_runs.corpus): the gold parses and the runs scored against them.';
