-- judgement_z: human scores standardised per annotator (Shimorina, Parmentier & Gardent 2021, section 3.2: "calculated on the set
-- of all raw scores by the given annotator using each annotator's mean and standard deviation").
-- Choice: the set is one annotator's scores for one criterion (fluency and adequacy are separate
-- scales), over every team, run and corpus; the standard deviation is the sample one (n - 1).
-- An annotator with a single score, or with all scores equal, gets NULL z.
-- Intermediate: a building block of sentence_scores, which a user reads instead (evalhouse views lists it apart).
-- Grain: team x run x corpus x position x annotator x criterion (one row per judgement).
-- Key: (team, run, corpus, position, annotator, criterion).
-- Columns: team, run, corpus, position, sent_id (the reference sentence's), annotator, criterion, score,
--          annotator_mean, annotator_sd, annotator_judgements, z.
-- Upstream: judgements, sentences.
CREATE OR REPLACE VIEW judgement_z AS
WITH annotator AS (
    SELECT annotator, criterion,
           avg(score) AS annotator_mean,
           stddev_samp(score) AS annotator_sd,
           count(*) AS annotator_judgements
    FROM judgements
    GROUP BY annotator, criterion
),
final AS (
    SELECT j.team, j.run, j.corpus, j.position, s.sent_id, j.annotator, j.criterion, j.score,
           a.annotator_mean, a.annotator_sd, a.annotator_judgements,
           CASE WHEN a.annotator_sd > 0 THEN (j.score - a.annotator_mean) / a.annotator_sd END AS z
    FROM judgements AS j
    JOIN annotator AS a USING (annotator, criterion)
    JOIN sentences AS s ON s.corpus = j.corpus AND s.position = j.position
)
SELECT * FROM final;
COMMENT ON VIEW judgement_z IS 'Human scores as z-scores per annotator and criterion (Shimorina, Parmentier & Gardent 2021, section 3.2). Grain: one row per judgement.';
COMMENT ON COLUMN judgement_z.annotator_mean IS 'Mean of all this annotator''s scores for this criterion.';
COMMENT ON COLUMN judgement_z.annotator_sd IS 'Sample standard deviation (n - 1) of those scores.';
COMMENT ON COLUMN judgement_z.z IS '(score - annotator_mean) / annotator_sd; NULL when the sd is 0 or undefined.';
COMMENT ON COLUMN judgement_z.team IS 'Team that submitted the run.';
COMMENT ON COLUMN judgement_z.run IS 'Run name within the team.';
COMMENT ON COLUMN judgement_z.corpus IS 'Reference corpus the submission is scored against (corpora.corpus).';
COMMENT ON COLUMN judgement_z.position IS '1-based position of the sentence (or segment) in its corpus.';
COMMENT ON COLUMN judgement_z.sent_id IS 'sent_id of the reference sentence judged.';
COMMENT ON COLUMN judgement_z.annotator IS 'Annotator identifier, as given in the judgements file.';
COMMENT ON COLUMN judgement_z.criterion IS 'What was judged (e.g. fluency, adequacy); z-scores are per annotator and criterion.';
COMMENT ON COLUMN judgement_z.score IS 'The raw score as given.';
COMMENT ON COLUMN judgement_z.annotator_judgements IS 'Scores of this annotator for this criterion (the sample behind mean and sd).';
