-- configurations: the whole text of each scoring configuration of submissions, once, under a short id.
-- The score views (sentence_scores, submission_scores, sr_sentence_scores, sr_submission_scores) show
-- configuration_id instead of the text (about 1,000 characters, the same on every row of a submission);
-- join this view on configuration_id to read it. The text stays stored in submissions.configuration.
-- The id is the first 12 hexadecimal digits of the MD5 of the text: the same configuration has the same
-- id in every warehouse and on every engine (md5 of a text is in DuckDB, PostgreSQL, Spark, Trino and
-- BigQuery alike; PostgreSQL's sha256 takes bytes). It names a text; it is no protection against anyone.
-- Grain: configuration. Key: configuration_id.
-- Columns: configuration_id, configuration.
-- Upstream: submissions.
CREATE OR REPLACE VIEW configurations AS
WITH texts AS (
    SELECT DISTINCT configuration
    FROM submissions
    WHERE configuration IS NOT NULL
),
final AS (
    SELECT left(md5(configuration), 12) AS configuration_id, configuration
    FROM texts
)
SELECT * FROM final;
COMMENT ON VIEW configurations IS 'The whole text of each scoring configuration of submissions (submissions.configuration), once, under the short id the score views show (sentence_scores, submission_scores, sr_sentence_scores, sr_submission_scores: configuration_id). Grain: configuration.';
COMMENT ON COLUMN configurations.configuration_id IS 'First 12 hexadecimal digits of md5(configuration): the same text has the same id in every warehouse.';
COMMENT ON COLUMN configurations.configuration IS 'Signature of every score of the submissions scored with it: tokenisation, alignment, BLEU, edit distance, punctuation and case handling, evalhouse version (submissions.configuration).';
