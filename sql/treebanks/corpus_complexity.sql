-- corpus_complexity: Table 2 of Shimorina et al. (2021): per corpus, the mean and sample standard
-- deviation (ddof = 1) of each sentence_complexity metric, and the share of non-projective sentences.
-- Grain: corpus. Key: corpus.
-- Columns: corpus, sentences, <metric>_mean and <metric>_sd for depth, length,
--          mean_dependency_distance, mean_flux_size, mean_flux_weight, mean_arity;
--          nonprojective_pct (percent of sentences with a projectivity value).
-- Upstream: sentence_complexity.
CREATE OR REPLACE VIEW corpus_complexity AS
WITH final AS (
    SELECT corpus,
           count(*) AS sentences,
           avg(depth) AS depth_mean,
           stddev_samp(depth) AS depth_sd,
           avg(length) AS length_mean,
           stddev_samp(length) AS length_sd,
           avg(mean_dependency_distance) AS mean_dependency_distance_mean,
           stddev_samp(mean_dependency_distance) AS mean_dependency_distance_sd,
           avg(mean_flux_size) AS mean_flux_size_mean,
           stddev_samp(mean_flux_size) AS mean_flux_size_sd,
           avg(mean_flux_weight) AS mean_flux_weight_mean,
           stddev_samp(mean_flux_weight) AS mean_flux_weight_sd,
           avg(mean_arity) AS mean_arity_mean,
           stddev_samp(mean_arity) AS mean_arity_sd,
           100.0 * count(*) FILTER (WHERE NOT projective) / count(projective) AS nonprojective_pct
    FROM sentence_complexity
    GROUP BY corpus
)
SELECT * FROM final;

COMMENT ON VIEW corpus_complexity IS 'Per-corpus means and sample standard deviations (ddof = 1) of the sentence complexity metrics, and the percentage of non-projective sentences (Shimorina et al. 2021, Table 2). Grain: corpus.';
COMMENT ON COLUMN corpus_complexity.sentences IS 'Number of sentences in the corpus.';
COMMENT ON COLUMN corpus_complexity.depth_sd IS 'Sample standard deviation (ddof = 1) of tree depth; every *_sd column is ddof = 1.';
COMMENT ON COLUMN corpus_complexity.nonprojective_pct IS 'Percentage (0-100) of sentences whose stripped tree is not projective.';
COMMENT ON COLUMN corpus_complexity.corpus IS 'Corpus name (corpora.corpus).';
COMMENT ON COLUMN corpus_complexity.depth_mean IS 'Mean tree depth (root = 0) over the sentences.';
COMMENT ON COLUMN corpus_complexity.length_mean IS 'Mean sentence length in words, punctuation removed.';
COMMENT ON COLUMN corpus_complexity.length_sd IS 'Sample standard deviation (ddof = 1) of sentence length.';
COMMENT ON COLUMN corpus_complexity.mean_dependency_distance_mean IS 'Mean over sentences of the mean dependency distance |dependent - head|.';
COMMENT ON COLUMN corpus_complexity.mean_dependency_distance_sd IS 'Sample standard deviation of the sentences'' mean dependency distance.';
COMMENT ON COLUMN corpus_complexity.mean_flux_size_mean IS 'Mean over sentences of the mean flux size.';
COMMENT ON COLUMN corpus_complexity.mean_flux_size_sd IS 'Sample standard deviation of the sentences'' mean flux size.';
COMMENT ON COLUMN corpus_complexity.mean_flux_weight_mean IS 'Mean over sentences of the mean flux weight (maximum matching).';
COMMENT ON COLUMN corpus_complexity.mean_flux_weight_sd IS 'Sample standard deviation of the sentences'' mean flux weight.';
COMMENT ON COLUMN corpus_complexity.mean_arity_mean IS 'Mean over sentences of the mean arity (edges / words).';
COMMENT ON COLUMN corpus_complexity.mean_arity_sd IS 'Sample standard deviation of the sentences'' mean arity.';
