-- parse_metric_ranks: each valid sentence of a candidate run ranked best-to-worst on each metric
-- (la, labelled_f, unlabelled_f), with its decile (Sampson & Babarczy 2003, section 6).
-- Intermediate: a building block of metric_deciles, which a user reads instead (evalhouse views lists it apart).
-- Grain: corpus x team x run x metric x position.
-- rank: 1 = best; equal scores ordered by position (a stable listing order only).
-- average_rank: the mean of the ranks a group of equal scores occupies (first + (tied - 1) / 2).
-- decile = ceil(10 * average_rank / n) for n ranked sentences: with n = 500 and no ties the n-th
-- decile is ranks 50(n-1)+1 .. 50n as in the paper. Sampson & Babarczy (2003) imposed "an arbitrary order" on equal
-- scores; ordering them by position on every metric put tied sentences in the same order on both
-- axes of metric_deciles and inflated agreement, so equal scores share one decile.
-- Key: (corpus, team, run, metric, position).
-- Upstream: geig_sentences, la_sentences.
CREATE OR REPLACE VIEW parse_metric_ranks AS
WITH scores AS (
    SELECT g.corpus, g.team, g.run, g.position, 'la' AS metric, l.la AS score
    FROM geig_sentences AS g JOIN la_sentences AS l USING (corpus, team, run, position)
    WHERE g.status = 'ok'
    UNION ALL
    SELECT corpus, team, run, position, 'labelled_f', labelled_f FROM geig_sentences WHERE status = 'ok'
    UNION ALL
    SELECT corpus, team, run, position, 'unlabelled_f', unlabelled_f FROM geig_sentences WHERE status = 'ok'
), ranked AS (
    SELECT *,
           row_number() OVER (PARTITION BY corpus, team, run, metric ORDER BY score DESC, position) AS rank,
           rank() OVER (PARTITION BY corpus, team, run, metric ORDER BY score DESC) AS first_rank,
           count(*) OVER (PARTITION BY corpus, team, run, metric, score) AS tied,
           count(*) OVER (PARTITION BY corpus, team, run, metric) AS n
    FROM scores
), averaged AS (
    SELECT *, first_rank + (tied - 1) / 2.0 AS average_rank
    FROM ranked
), final AS (
    SELECT team, run, corpus, metric, position, score, rank::INTEGER AS rank, n::INTEGER AS n,
           ceil(10 * average_rank / n)::INTEGER AS decile, average_rank::DOUBLE AS average_rank
    FROM averaged
)
SELECT * FROM final;

COMMENT ON VIEW parse_metric_ranks IS 'Rank and decile of every valid sentence of a run on la, labelled_f and unlabelled_f (best first; equal scores share their average rank and decile). Grain: corpus x team x run x metric x position.';
COMMENT ON COLUMN parse_metric_ranks.metric IS 'la, labelled_f or unlabelled_f.';
COMMENT ON COLUMN parse_metric_ranks.rank IS '1 = best score; equal scores ordered by position (listing order; deciles use average_rank).';
COMMENT ON COLUMN parse_metric_ranks.decile IS 'ceil(10 * average_rank / n): 1 = best tenth, 10 = worst tenth; equal scores share a decile.';
COMMENT ON COLUMN parse_metric_ranks.average_rank IS 'Mean rank of the group of equal scores the sentence belongs to (average ranks for ties).';
COMMENT ON COLUMN parse_metric_ranks.team IS 'Team of the candidate run (parser).';
COMMENT ON COLUMN parse_metric_ranks.run IS 'Run name within the team.';
COMMENT ON COLUMN parse_metric_ranks.corpus IS 'Parse corpus (parse_runs.corpus): the gold parses and the runs scored against them.';
COMMENT ON COLUMN parse_metric_ranks.position IS '1-based position of the sentence (or segment) in its corpus.';
COMMENT ON COLUMN parse_metric_ranks.score IS 'The sentence''s value of the metric (0-1).';
COMMENT ON COLUMN parse_metric_ranks.n IS 'Valid sentences of the run ranked on this metric.';
