-- dea_by_relation: dependency edge accuracy per submission and base relation (Shimorina, Parmentier & Gardent 2021, section 5.4).
-- Grain: team x run x corpus x relation. Key: (team, run, corpus, relation).
-- Columns: team, run, corpus, relation, edges (reference edges with this relation), matched,
--          accuracy = matched / edges.
-- Upstream: dea_edges.
CREATE OR REPLACE VIEW dea_by_relation AS
SELECT team, run, corpus, relation,
       count(*) AS edges,
       count(*) FILTER (WHERE matched) AS matched,
       count(*) FILTER (WHERE matched) / count(*) AS accuracy
FROM dea_edges
GROUP BY team, run, corpus, relation;
COMMENT ON VIEW dea_by_relation IS 'Dependency edge accuracy per submission and base relation. Grain: team x run x corpus x relation.';
COMMENT ON COLUMN dea_by_relation.edges IS 'Reference edges with this relation (over all sentences of the corpus).';
COMMENT ON COLUMN dea_by_relation.matched IS 'Of those, edges the output realises.';
COMMENT ON COLUMN dea_by_relation.accuracy IS 'matched / edges.';
COMMENT ON COLUMN dea_by_relation.team IS 'Team that submitted the run.';
COMMENT ON COLUMN dea_by_relation.run IS 'Run name within the team.';
COMMENT ON COLUMN dea_by_relation.corpus IS 'Reference corpus the submission is scored against (corpora.corpus).';
COMMENT ON COLUMN dea_by_relation.relation IS 'Base relation of the reference edges (the part before '':'').';
