-- apt_human_correlation: system-level Pearson and Spearman correlation between APT and human
-- accuracy over the judged pronouns (Guillou & Hardmeier 2018, Tables 1 and 2). Per system, APT is
-- computed with each configuration's cases and weights over the pronouns people judged, and human
-- accuracy is the share of those judged correct (unjudgeable ones count in the denominator, as the
-- paper's "proportion of pronouns marked as correctly translated"). Spearman = Pearson of average ranks.
-- Grain: corpus x config.
-- Key: (corpus, config).
-- Upstream: pronoun_score_groups (APT over the judged pronouns).
CREATE OR REPLACE VIEW apt_human_correlation AS
WITH systems AS (
    SELECT corpus, config, team, run, apt, judged_correct / pronouns AS human_accuracy
    FROM pronoun_score_groups
    WHERE grouped_by = 'judged'
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
COMMENT ON COLUMN apt_human_correlation.corpus IS 'Translation corpus (translation_corpora.corpus).';
COMMENT ON COLUMN apt_human_correlation.config IS 'Name of the pronoun configuration (pronoun_configs.config).';
