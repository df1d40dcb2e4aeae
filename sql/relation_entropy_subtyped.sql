-- relation_entropy_subtyped: word-order entropy of each full dependency relation (with subtypes) in each corpus
-- (Shimorina et al. 2021, section 3.1): H(d) = -p(L) log2 p(L) - p(R) log2 p(R), where p(L) is the share
-- of d-dependents on the left of their head. Computed on the punctuation-stripped trees.
-- Grain: corpus x deprel (full relation with subtypes, e.g. nsubj:pass; relation_entropy pools subtypes).
-- Upstream: edges.
CREATE OR REPLACE VIEW relation_entropy_subtyped AS
WITH counts AS (
    SELECT corpus, deprel,
           count(*) FILTER (WHERE distance < 0) AS left_count,
           count(*) FILTER (WHERE distance > 0) AS right_count,
           count(*) AS dependencies
    FROM edges
    WHERE head > 0
    GROUP BY corpus, deprel
), final AS (
    SELECT corpus, deprel, left_count, right_count, dependencies,
           (CASE WHEN left_count = 0 THEN 0.0 ELSE -(left_count / dependencies) * log2(left_count / dependencies) END
          + CASE WHEN right_count = 0 THEN 0.0 ELSE -(right_count / dependencies) * log2(right_count / dependencies) END
           )::DOUBLE AS entropy
    FROM counts
)
SELECT * FROM final;

COMMENT ON VIEW relation_entropy_subtyped IS 'Head-direction entropy H(d) of each full dependency relation (with subtypes) per corpus, on punctuation-stripped trees. Grain: corpus x deprel.';
COMMENT ON COLUMN relation_entropy_subtyped.deprel IS 'Dependency relation with subtypes (nsubj:pass).';
COMMENT ON COLUMN relation_entropy_subtyped.left_count IS 'Dependents on the left of their head (head-final).';
COMMENT ON COLUMN relation_entropy_subtyped.right_count IS 'Dependents on the right of their head (head-initial).';
COMMENT ON COLUMN relation_entropy_subtyped.dependencies IS 'left_count + right_count.';
COMMENT ON COLUMN relation_entropy_subtyped.entropy IS 'H(d) in bits, 0 (fixed order) to 1 (free order); 0 log 0 = 0.';
