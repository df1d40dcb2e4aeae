-- apt_human_correlation: system-level Pearson and Spearman correlation between APT and human
-- accuracy over the judged pronouns (Guillou & Hardmeier 2018, Tables 1 and 2). Per system, APT is
-- computed with each configuration's cases and weights over the pronouns people judged, and human
-- accuracy is the share of those judged correct (unjudgeable ones count in the denominator, as the
-- paper's "proportion of pronouns marked as correctly translated"). Spearman = Pearson of average ranks.
-- Grain: corpus x config.
-- Upstream: pronoun_cases, apt_case_weights.
CREATE OR REPLACE VIEW apt_human_correlation AS
WITH judged AS (
    SELECT p.corpus, p.config, p.team, p.run, p.apt_case, p.judgement, w.used, w.weight
    FROM pronoun_cases p JOIN apt_case_weights w USING (corpus, config, apt_case)
    WHERE p.judgement IS NOT NULL
),
systems AS (
    SELECT corpus, config, team, run,
           sum(weight) FILTER (WHERE used) / nullif(count(*) FILTER (WHERE used), 0) AS apt,
           count(*) FILTER (WHERE judgement = 'correct') / count(*) AS human_accuracy
    FROM judged
    GROUP BY corpus, config, team, run
),
ranked AS (
    SELECT *,
           rank() OVER (PARTITION BY corpus, config ORDER BY apt)
             + (count(*) OVER (PARTITION BY corpus, config, apt) - 1) / 2.0 AS apt_rank,
           rank() OVER (PARTITION BY corpus, config ORDER BY human_accuracy)
             + (count(*) OVER (PARTITION BY corpus, config, human_accuracy) - 1) / 2.0 AS human_rank
    FROM systems
    WHERE apt IS NOT NULL
),
final AS (
    SELECT corpus, config, count(*) AS systems,
           corr(apt, human_accuracy) AS pearson,
           corr(apt_rank, human_rank) AS spearman
    FROM ranked
    GROUP BY corpus, config
)
SELECT * FROM final;

COMMENT ON VIEW apt_human_correlation IS 'System-level Pearson and Spearman correlation between APT (over the judged pronouns, configuration weights) and human accuracy (Guillou & Hardmeier 2018, Table 2). Grain: corpus x config.';
COMMENT ON COLUMN apt_human_correlation.systems IS 'Systems with judged pronouns in the cases used.';
COMMENT ON COLUMN apt_human_correlation.pearson IS 'Pearson correlation of per-system APT and human accuracy (NULL with fewer than 2 systems or no variance).';
COMMENT ON COLUMN apt_human_correlation.spearman IS 'Spearman correlation: Pearson of average ranks (ties share the mean rank).';
