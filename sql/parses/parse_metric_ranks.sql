-- parse_metric_ranks: each valid sentence of a candidate run ranked best-to-worst on each metric
-- (la, labelled_f, unlabelled_f), with its decile (seed 002, section 6).
-- Grain: corpus x team x run x metric x position.
-- rank: 1 = best; ties (equal scores) are ordered by position, the "arbitrary order" of seed 002
-- made deterministic. decile = ceil(10 * rank / n) for n ranked sentences, so with n = 500 the
-- n-th decile is ranks 50(n-1)+1 .. 50n as in the paper.
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
           count(*) OVER (PARTITION BY corpus, team, run, metric) AS n
    FROM scores
), final AS (
    SELECT team, run, corpus, metric, position, score, rank::INTEGER AS rank, n::INTEGER AS n,
           ceil(10 * rank / n)::INTEGER AS decile
    FROM ranked
)
SELECT * FROM final;

COMMENT ON VIEW parse_metric_ranks IS 'Rank and decile of every valid sentence of a run on la, labelled_f and unlabelled_f (best first; ties by position). Grain: corpus x team x run x metric x position.';
COMMENT ON COLUMN parse_metric_ranks.metric IS 'la, labelled_f or unlabelled_f.';
COMMENT ON COLUMN parse_metric_ranks.rank IS '1 = best score; equal scores ordered by position.';
COMMENT ON COLUMN parse_metric_ranks.decile IS 'ceil(10 * rank / n): 1 = best tenth, 10 = worst tenth.';
