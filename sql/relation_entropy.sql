-- relation_entropy: word-order entropy of each base dependency relation in each corpus
-- (Shimorina et al. 2021, section 3.1): H(d) = -p(L) log2 p(L) - p(R) log2 p(R), where p(L) is the share
-- of d-dependents on the left of their head. Computed on the punctuation-stripped trees.
-- Grain: corpus x relation (base relation, the part before ':'; see relation_entropy_subtyped
-- for full deprels). Columns: corpus, relation, left_count, right_count, dependencies, entropy.
-- Upstream: edges.
CREATE OR REPLACE VIEW relation_entropy AS
WITH counts AS (
    SELECT corpus, relation,
           count(*) FILTER (WHERE distance < 0) AS left_count,
           count(*) FILTER (WHERE distance > 0) AS right_count,
           count(*) AS dependencies
    FROM edges
    WHERE head > 0
    GROUP BY corpus, relation
), final AS (
    SELECT corpus, relation, left_count, right_count, dependencies,
           (CASE WHEN left_count = 0 THEN 0.0 ELSE -(left_count / dependencies) * log2(left_count / dependencies) END
          + CASE WHEN right_count = 0 THEN 0.0 ELSE -(right_count / dependencies) * log2(right_count / dependencies) END
           )::DOUBLE AS entropy
    FROM counts
)
SELECT * FROM final;

COMMENT ON VIEW relation_entropy IS 'Head-direction entropy H(d) of each base relation per corpus, on punctuation-stripped trees (Shimorina et al. 2021). Grain: corpus x relation.';
COMMENT ON COLUMN relation_entropy.relation IS 'Base dependency relation (deprel before the first colon).';
COMMENT ON COLUMN relation_entropy.left_count IS 'Dependents on the left of their head (head-final).';
COMMENT ON COLUMN relation_entropy.right_count IS 'Dependents on the right of their head (head-initial).';
COMMENT ON COLUMN relation_entropy.dependencies IS 'left_count + right_count.';
COMMENT ON COLUMN relation_entropy.entropy IS 'H(d) in bits, 0 (fixed order) to 1 (free order); 0 log 0 = 0.';
