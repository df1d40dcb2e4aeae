-- stored_counts: how many rows each stored thing holds in each of its tables, as the last write that
-- touched the table committed them; `evalhouse check` compares the tables with it, so that a write torn
-- during COMMIT (DuckDB 1.5.6 can keep some of a killed transaction's rows and lose others) is found in
-- every table a write touches (evalhouse/stored.py, docs/crash-safety.md).
-- Grain: kind x table_name x key, plus one row per kind x table_name with key NULL (the table's total
-- rows of that kind, which also says that the table is counted). Key: (kind, table_name, key).
CREATE TABLE IF NOT EXISTS stored_counts (
    kind        VARCHAR NOT NULL,
    table_name  VARCHAR NOT NULL,
    key         VARCHAR[],
    rows        BIGINT NOT NULL
);
COMMENT ON TABLE stored_counts IS 'Rows each stored thing (corpus, submission, parse run, ...) holds in each of its tables, recorded by the write that last touched the table; evalhouse check compares the tables with it. Grain: kind x table_name x key.';
COMMENT ON COLUMN stored_counts.kind IS 'Kind of stored thing (corpus, submission, parse run, dependency run, translation corpus, analysis, ...; STORED in evalhouse/warehouse.py).';
COMMENT ON COLUMN stored_counts.table_name IS 'Base table holding rows of that kind.';
COMMENT ON COLUMN stored_counts.key IS 'The key of one thing of that kind, in the order of the kind''s key columns (e.g. [team, run, corpus]); NULL: the row of the table''s total.';
COMMENT ON COLUMN stored_counts.rows IS 'Rows of that thing (or, with key NULL, of that kind) in the table.';
