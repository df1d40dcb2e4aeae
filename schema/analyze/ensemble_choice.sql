-- ensemble_choice: the relation-DEA ensemble (Shimorina et al. 2021 section 6): for each input
-- sentence, the submission whose mean DEA-per-relation over the sentence's reference edges is
-- highest (ties: pooled DEA, then team and run), materialised by `evalhouse analyze`.
-- Grain: corpus x position.
CREATE TABLE IF NOT EXISTS ensemble_choice (
    corpus         VARCHAR NOT NULL,
    position       INTEGER NOT NULL,
    team           VARCHAR NOT NULL,
    run            VARCHAR NOT NULL,
    expected_dea   DOUBLE,
    configuration  VARCHAR NOT NULL
);
COMMENT ON TABLE ensemble_choice IS 'Which submission the relation-DEA ensemble picks for each sentence. Grain: corpus x position.';
COMMENT ON COLUMN ensemble_choice.expected_dea IS 'Mean over the sentence''s edges of the chosen submission''s DEA for the edge''s relation (NULL: no edge, best single run chosen).';
COMMENT ON COLUMN ensemble_choice.configuration IS 'Submissions pooled, selection rule and evalhouse version.';
