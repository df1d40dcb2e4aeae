-- correlation_summary: mean and median Spearman rho of each metric pair over submissions, per corpus,
-- per team and over all submissions (Shimorina et al. 2021 Figure 2a is the median over all).
-- Grain: scope x scope_value x metric_a x metric_b; scope is 'corpus', 'team' or 'all' (scope_value
-- the corpus, the team, or 'all').
-- Key: (scope, scope_value, metric_a, metric_b).
-- Columns: scope, scope_value, metric_a, metric_b, submissions, mean_rho, median_rho,
--          significant_share (share of submissions whose Holm-adjusted test is significant), configuration.
-- Upstream: metric_correlations (materialised by evalhouse analyze).
CREATE OR REPLACE VIEW correlation_summary AS
WITH scoped AS (
    SELECT 'corpus' AS scope, corpus AS scope_value, * FROM metric_correlations
    UNION ALL
    SELECT 'team', team, * FROM metric_correlations
    UNION ALL
    SELECT 'all', 'all', * FROM metric_correlations
),
-- The median is taken from ranks rather than with median(): Trino has no exact median aggregate and
-- BigQuery only an analytic PERCENTILE_CONT, so this one definition runs on every engine. The
-- middle rank (odd n) or the two middle ranks (even n) satisfy 2k in (n, n + 1, n + 2).
ranked AS (
    SELECT scope, scope_value, metric_a, metric_b, rho,
           row_number() OVER (PARTITION BY scope, scope_value, metric_a, metric_b ORDER BY rho) AS k,
           count(*) OVER (PARTITION BY scope, scope_value, metric_a, metric_b) AS n
    FROM scoped
    WHERE rho IS NOT NULL
),
medians AS (
    SELECT scope, scope_value, metric_a, metric_b, avg(rho) AS median_rho
    FROM ranked
    WHERE 2 * k IN (n, n + 1, n + 2)
    GROUP BY scope, scope_value, metric_a, metric_b
),
summaries AS (
    SELECT scope, scope_value, metric_a, metric_b,
           count(*) AS submissions,
           avg(rho) AS mean_rho,
           avg(CASE WHEN significant THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END) AS significant_share,
           string_agg(DISTINCT configuration, ' ; ' ORDER BY configuration) AS configuration
    FROM scoped
    GROUP BY scope, scope_value, metric_a, metric_b
)
SELECT s.scope, s.scope_value, s.metric_a, s.metric_b, s.submissions, s.mean_rho, m.median_rho,
       s.significant_share, s.configuration
FROM summaries AS s
LEFT JOIN medians AS m
    ON m.scope = s.scope AND m.scope_value = s.scope_value AND m.metric_a = s.metric_a AND m.metric_b = s.metric_b;
COMMENT ON VIEW correlation_summary IS 'Mean and median Spearman rho per metric pair over submissions, per corpus, per team and over all. Grain: scope x scope_value x metric_a x metric_b.';
COMMENT ON COLUMN correlation_summary.scope IS 'corpus, team or all.';
COMMENT ON COLUMN correlation_summary.scope_value IS 'The corpus or team name; all for scope all.';
COMMENT ON COLUMN correlation_summary.submissions IS 'Submissions with a correlation for this pair.';
COMMENT ON COLUMN correlation_summary.median_rho IS 'Median rho over the submissions (Figure 2a).';
COMMENT ON COLUMN correlation_summary.significant_share IS 'Share of those submissions where the pair is significant after Holm.';
COMMENT ON COLUMN correlation_summary.configuration IS 'The distinct configurations of the rows summarised.';
COMMENT ON COLUMN correlation_summary.metric_a IS 'First sentence metric of the pair (metric_correlations order).';
COMMENT ON COLUMN correlation_summary.metric_b IS 'Second sentence metric of the pair.';
COMMENT ON COLUMN correlation_summary.mean_rho IS 'Mean Spearman rho over the submissions.';
