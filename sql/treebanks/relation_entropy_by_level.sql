-- relation_entropy_by_level: word-order entropy of dependency relations per corpus, at two levels of
-- detail at once (Shimorina et al. 2021, section 3.1):
-- H(d) = -p(L) log2 p(L) - p(R) log2 p(R), p(L) the share of d-dependents on the left of their head,
-- 0 log 0 = 0, on the punctuation-stripped trees (non-root edges only).
-- Intermediate: a building block of relation_entropy, relation_entropy_subtyped, which a user reads instead (evalhouse views lists it apart).
-- Grain: corpus x level x relation; level 'base' groups by the base relation (nsubj),
-- level 'subtyped' by the full deprel (nsubj:pass).
-- Key: (corpus, level, relation).
-- Columns: corpus, level, relation, left_count, right_count, dependencies, entropy.
-- Upstream: edges. Read through relation_entropy and relation_entropy_subtyped.
CREATE OR REPLACE VIEW relation_entropy_by_level AS
WITH counts AS (
    SELECT corpus,
           CASE WHEN grouping(relation) = 0 THEN 'base' ELSE 'subtyped' END AS level,
           coalesce(relation, deprel) AS relation,
           count(*) FILTER (WHERE distance < 0) AS left_count,
           count(*) FILTER (WHERE distance > 0) AS right_count,
           count(*) AS dependencies
    FROM edges
    WHERE head > 0
    GROUP BY GROUPING SETS ((corpus, relation), (corpus, deprel))
), final AS (
    SELECT corpus, level, relation, left_count, right_count, dependencies,
           (CASE WHEN left_count = 0 THEN 0.0 ELSE -(left_count / dependencies) * log2(left_count / dependencies) END
          + CASE WHEN right_count = 0 THEN 0.0 ELSE -(right_count / dependencies) * log2(right_count / dependencies) END
           )::DOUBLE AS entropy
    FROM counts
)
SELECT * FROM final;

COMMENT ON VIEW relation_entropy_by_level IS 'Head-direction entropy H(d) per corpus of base relations (level base) and full deprels (level subtyped), on punctuation-stripped trees. Grain: corpus x level x relation.';
COMMENT ON COLUMN relation_entropy_by_level.level IS 'base: relation before the first colon; subtyped: full deprel.';
COMMENT ON COLUMN relation_entropy_by_level.left_count IS 'Dependents on the left of their head (head-final).';
COMMENT ON COLUMN relation_entropy_by_level.right_count IS 'Dependents on the right of their head (head-initial).';
COMMENT ON COLUMN relation_entropy_by_level.dependencies IS 'left_count + right_count.';
COMMENT ON COLUMN relation_entropy_by_level.entropy IS 'H(d) in bits, 0 (fixed order) to 1 (free order); 0 log 0 = 0.';
COMMENT ON COLUMN relation_entropy_by_level.corpus IS 'Corpus name (corpora.corpus).';
COMMENT ON COLUMN relation_entropy_by_level.relation IS 'The base relation (level base) or the full deprel with its subtype (level subtyped).';
