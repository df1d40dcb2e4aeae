-- relation_entropy: word-order entropy H(d) of each base dependency relation per corpus
-- (Shimorina et al. 2021, section 3.1), on the punctuation-stripped trees; subtypes pooled.
-- Grain: corpus x relation. Columns: corpus, relation, left_count, right_count, dependencies, entropy.
-- Key: (corpus, relation).
-- Upstream: relation_entropy_by_level.
CREATE OR REPLACE VIEW relation_entropy AS
SELECT corpus, relation, left_count, right_count, dependencies, entropy
FROM relation_entropy_by_level
WHERE level = 'base';

COMMENT ON VIEW relation_entropy IS 'Head-direction entropy H(d) of each base relation per corpus, on punctuation-stripped trees (Shimorina et al. 2021). Grain: corpus x relation.';
COMMENT ON COLUMN relation_entropy.relation IS 'Base dependency relation (deprel before the first colon).';
COMMENT ON COLUMN relation_entropy.entropy IS 'H(d) in bits, 0 (fixed order) to 1 (free order); 0 log 0 = 0.';
COMMENT ON COLUMN relation_entropy.corpus IS 'Corpus name (corpora.corpus).';
COMMENT ON COLUMN relation_entropy.left_count IS 'Edges of this relation whose dependent precedes its head.';
COMMENT ON COLUMN relation_entropy.right_count IS 'Edges of this relation whose dependent follows its head.';
COMMENT ON COLUMN relation_entropy.dependencies IS 'Non-root edges of this relation (left_count + right_count).';
