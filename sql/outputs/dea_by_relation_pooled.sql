-- dea_by_relation_pooled: dependency edge accuracy per base relation pooled over every submission in
-- the warehouse, as in Table 4 of seed 000 (filter dea_by_relation for a subset).
-- Grain: relation. Key: relation.
-- Columns: relation, submissions, corpora, edges, matched, accuracy (pooled: matched / edges),
--          mean_submission_accuracy (unweighted mean of the submissions' accuracies).
-- Upstream: dea_by_relation.
CREATE OR REPLACE VIEW dea_by_relation_pooled AS
SELECT relation,
       count(*) AS submissions,
       count(DISTINCT corpus) AS corpora,
       CAST(sum(edges) AS BIGINT) AS edges,
       CAST(sum(matched) AS BIGINT) AS matched,
       sum(matched) / sum(edges) AS accuracy,
       avg(accuracy) AS mean_submission_accuracy
FROM dea_by_relation
GROUP BY relation;
COMMENT ON VIEW dea_by_relation_pooled IS 'Dependency edge accuracy per base relation pooled over all submissions (seed 000 Table 4). Grain: relation.';
COMMENT ON COLUMN dea_by_relation_pooled.submissions IS 'Submission x corpus pairs with at least one edge of this relation.';
COMMENT ON COLUMN dea_by_relation_pooled.accuracy IS 'Pooled: all matched edges / all edges of this relation.';
COMMENT ON COLUMN dea_by_relation_pooled.mean_submission_accuracy IS 'Unweighted mean of the per-submission accuracies.';
COMMENT ON COLUMN dea_by_relation_pooled.relation IS 'Base relation of the reference edges (the part before '':'').';
COMMENT ON COLUMN dea_by_relation_pooled.corpora IS 'Corpora with at least one submission that has edges of this relation.';
COMMENT ON COLUMN dea_by_relation_pooled.edges IS 'Reference edges of this relation, summed over all submissions (an edge counts once per submission).';
COMMENT ON COLUMN dea_by_relation_pooled.matched IS 'Of those, the edges the submissions'' outputs realise.';
