-- judgement_correlation_summary: mean and median Pearson r and Spearman rho of each accuracy (Bangalore, Rambow & Whittaker 2000:
-- ssa, gsa, sta, gta, understandability_accuracy, quality_accuracy) with each human judgement z-score
-- (fluency_z, adequacy_z) over submissions, per corpus, per team and over all submissions.
-- Grain: scope x scope_value x metric x judgement; scope is 'corpus', 'team' or 'all' (scope_value
-- the corpus, the team, or 'all').
-- Key: (scope, scope_value, metric, judgement).
-- Columns: scope, scope_value, metric, judgement, submissions, mean_r, median_r, mean_rho, median_rho,
--          significant_share_r, significant_share_rho (shares of submissions whose Holm-adjusted test
--          is significant), configuration.
-- Upstream: judgement_correlations (materialised by evalhouse analyze; empty without human judgements).
CREATE OR REPLACE VIEW judgement_correlation_summary AS
WITH scoped AS (
    SELECT 'corpus' AS scope, corpus AS scope_value, * FROM judgement_correlations
    UNION ALL
    SELECT 'team', team, * FROM judgement_correlations
    UNION ALL
    SELECT 'all', 'all', * FROM judgement_correlations
),
-- medians from ranks, as in correlation_summary (one definition for every engine): the middle rank
-- (odd n) or the two middle ranks (even n) satisfy 2k in (n, n + 1, n + 2)
ranked_r AS (
    SELECT scope, scope_value, metric, judgement, r AS value,
           row_number() OVER (PARTITION BY scope, scope_value, metric, judgement ORDER BY r) AS k,
           count(*) OVER (PARTITION BY scope, scope_value, metric, judgement) AS n
    FROM scoped
),
ranked_rho AS (
    SELECT scope, scope_value, metric, judgement, rho AS value,
           row_number() OVER (PARTITION BY scope, scope_value, metric, judgement ORDER BY rho) AS k,
           count(*) OVER (PARTITION BY scope, scope_value, metric, judgement) AS n
    FROM scoped
),
medians_r AS (
    SELECT scope, scope_value, metric, judgement, avg(value) AS median_r
    FROM ranked_r
    WHERE 2 * k IN (n, n + 1, n + 2)
    GROUP BY scope, scope_value, metric, judgement
),
medians_rho AS (
    SELECT scope, scope_value, metric, judgement, avg(value) AS median_rho
    FROM ranked_rho
    WHERE 2 * k IN (n, n + 1, n + 2)
    GROUP BY scope, scope_value, metric, judgement
),
summaries AS (
    SELECT scope, scope_value, metric, judgement,
           count(*) AS submissions,
           avg(r) AS mean_r,
           avg(rho) AS mean_rho,
           avg(CASE WHEN significant_r THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END) AS significant_share_r,
           avg(CASE WHEN significant_rho THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END) AS significant_share_rho,
           string_agg(DISTINCT configuration, ' ; ' ORDER BY configuration) AS configuration
    FROM scoped
    GROUP BY scope, scope_value, metric, judgement
),
final AS (
    SELECT s.scope, s.scope_value, s.metric, s.judgement, s.submissions, s.mean_r, mr.median_r, s.mean_rho,
           mh.median_rho, s.significant_share_r, s.significant_share_rho, s.configuration
    FROM summaries AS s
    JOIN medians_r AS mr
        ON mr.scope = s.scope AND mr.scope_value = s.scope_value AND mr.metric = s.metric
           AND mr.judgement = s.judgement
    JOIN medians_rho AS mh
        ON mh.scope = s.scope AND mh.scope_value = s.scope_value AND mh.metric = s.metric
           AND mh.judgement = s.judgement
)
SELECT * FROM final;
COMMENT ON VIEW judgement_correlation_summary IS 'Mean and median Pearson r and Spearman rho of each accuracy of Bangalore, Rambow & Whittaker (2000) with each human judgement over submissions, per corpus, per team and over all. Grain: scope x scope_value x metric x judgement.';
COMMENT ON COLUMN judgement_correlation_summary.scope IS 'corpus, team or all.';
COMMENT ON COLUMN judgement_correlation_summary.scope_value IS 'The corpus or team name; all for scope all.';
COMMENT ON COLUMN judgement_correlation_summary.metric IS 'ssa, gsa, sta, gta, understandability_accuracy or quality_accuracy.';
COMMENT ON COLUMN judgement_correlation_summary.judgement IS 'fluency_z or adequacy_z.';
COMMENT ON COLUMN judgement_correlation_summary.submissions IS 'Submissions with a correlation for this pair (those with human judgements).';
COMMENT ON COLUMN judgement_correlation_summary.mean_r IS 'Mean Pearson r over the submissions.';
COMMENT ON COLUMN judgement_correlation_summary.median_r IS 'Median Pearson r over the submissions.';
COMMENT ON COLUMN judgement_correlation_summary.mean_rho IS 'Mean Spearman rho over the submissions.';
COMMENT ON COLUMN judgement_correlation_summary.median_rho IS 'Median Spearman rho over the submissions.';
COMMENT ON COLUMN judgement_correlation_summary.significant_share_r IS 'Share of the submissions where r is significant after Holm (p_r_holm < alpha).';
COMMENT ON COLUMN judgement_correlation_summary.significant_share_rho IS 'Share of the submissions where rho is significant after Holm (p_rho_holm < alpha).';
COMMENT ON COLUMN judgement_correlation_summary.configuration IS 'The distinct configurations of the rows summarised.';
