-- relation_entropy_subtyped: word-order entropy H(d) of each full dependency relation (with subtypes,
-- e.g. nsubj:pass) per corpus, on the punctuation-stripped trees.
-- Grain: corpus x deprel. Columns: corpus, deprel, left_count, right_count, dependencies, entropy.
-- Key: (corpus, deprel).
-- Upstream: relation_entropy_by_level.
CREATE OR REPLACE VIEW relation_entropy_subtyped AS
SELECT corpus, relation AS deprel, left_count, right_count, dependencies, entropy
FROM relation_entropy_by_level
WHERE level = 'subtyped';

COMMENT ON VIEW relation_entropy_subtyped IS 'Head-direction entropy H(d) of each full dependency relation (with subtypes) per corpus, on punctuation-stripped trees. Grain: corpus x deprel.';
COMMENT ON COLUMN relation_entropy_subtyped.deprel IS 'Dependency relation with subtypes (nsubj:pass).';
COMMENT ON COLUMN relation_entropy_subtyped.entropy IS 'H(d) in bits, 0 (fixed order) to 1 (free order); 0 log 0 = 0.';
COMMENT ON COLUMN relation_entropy_subtyped.corpus IS 'Corpus name (corpora.corpus).';
COMMENT ON COLUMN relation_entropy_subtyped.left_count IS 'Edges of this deprel whose dependent precedes its head.';
COMMENT ON COLUMN relation_entropy_subtyped.right_count IS 'Edges of this deprel whose dependent follows its head.';
COMMENT ON COLUMN relation_entropy_subtyped.dependencies IS 'Non-root edges of this deprel (left_count + right_count).';
