-- parse_runs: one row per ingested file of constituency parses: the gold parses of a corpus, or a
-- candidate run (team, run) scored against them, with the configuration every score was computed under.
-- Grain: corpus x team x run (team and run are NULL for the gold parses; role says which).
CREATE TABLE IF NOT EXISTS parse_runs (
    corpus            VARCHAR NOT NULL,
    team              VARCHAR,
    run               VARCHAR,
    role              VARCHAR NOT NULL,
    source_file       VARCHAR NOT NULL,
    sha256            VARCHAR NOT NULL,
    sentences         INTEGER NOT NULL,
    leaves            BIGINT NOT NULL,
    constituents      BIGINT NOT NULL,
    one_per_line      BOOLEAN NOT NULL,
    cutoff_len        INTEGER,
    labeled           BOOLEAN,
    evalb_params      VARCHAR,
    la_cost           VARCHAR,
    config            VARCHAR,
    evalhouse_version VARCHAR NOT NULL,
    ingested_at       TIMESTAMP WITH TIME ZONE NOT NULL
);
COMMENT ON TABLE parse_runs IS 'Ingested constituency-parse files: the gold parses of a corpus (team, run NULL) and candidate runs, with the scoring configuration. Grain: corpus x team x run.';
COMMENT ON COLUMN parse_runs.team IS 'Team of a candidate run; NULL for the gold parses.';
COMMENT ON COLUMN parse_runs.run IS 'Run name of a candidate run; NULL for the gold parses.';
COMMENT ON COLUMN parse_runs.role IS 'gold or candidate.';
COMMENT ON COLUMN parse_runs.source_file IS 'Path of the bracketed file as given.';
COMMENT ON COLUMN parse_runs.sha256 IS 'SHA-256 of the source file as read.';
COMMENT ON COLUMN parse_runs.one_per_line IS 'True when each line was one sentence (EVALB convention: an empty line is an empty parse); false when trees end where their brackets balance.';
COMMENT ON COLUMN parse_runs.cutoff_len IS 'EVALB CUTOFF_LEN of the run (parse_scores reports the subset len<=cutoff_len); NULL for gold.';
COMMENT ON COLUMN parse_runs.labeled IS 'EVALB LABELED setting (which matches the evalb report prints); both kinds are always stored. NULL for gold.';
COMMENT ON COLUMN parse_runs.evalb_params IS 'JSON: the bracket rules (rules: evalb-2006, C EVALB''s current release) and the EVALB parameters applied (deleted labels, label and word equivalences, quote labels, cutoff, MAX_ERROR, source .prm). NULL for gold.';
COMMENT ON COLUMN parse_runs.la_cost IS 'JSON: the leaf-ancestor label-cost function (default, strict, or a table with its rows). NULL for gold.';
COMMENT ON COLUMN parse_runs.config IS 'One-line signature of the scoring configuration (evalhouse version, bracket rules, prm, deleted labels, equivalences, cutoff, cost function, lineage symbols).';
COMMENT ON COLUMN parse_runs.evalhouse_version IS 'evalhouse version that ingested and scored the run.';
