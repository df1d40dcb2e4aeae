-- pronoun_lists: pronoun lists and equivalence classes per pronoun set (a language pair), loaded from
-- editable files (evalhouse/pronouns/<pair>.tsv by default; --pronouns FILE for your own).
-- Grain: one row per pronoun_set x role x class x pronoun x source_pronoun.
CREATE TABLE IF NOT EXISTS pronoun_lists (
    pronoun_set      VARCHAR NOT NULL,
    source_language  VARCHAR,
    target_language  VARCHAR,
    role             VARCHAR NOT NULL,
    pronoun          VARCHAR NOT NULL,
    class            VARCHAR,
    source_pronoun   VARCHAR,
    file             VARCHAR NOT NULL,
    line             INTEGER NOT NULL
);
COMMENT ON TABLE pronoun_lists IS 'Source and target pronoun lists and equivalence classes of a pronoun set (role source, target, identical or equivalent). Grain: pronoun_set x role x class x pronoun x source_pronoun.';
COMMENT ON COLUMN pronoun_lists.pronoun_set IS 'Name of the set (es-en, en-fr, or the name given with the file); translation_corpora.pronoun_set.';
COMMENT ON COLUMN pronoun_lists.source_language IS 'Source language of the set.';
COMMENT ON COLUMN pronoun_lists.target_language IS 'Target language of the set.';
COMMENT ON COLUMN pronoun_lists.role IS 'source: a source pronoun to evaluate; target: a target-language pronoun; identical: spellings of one pronoun (APT case 1); equivalent: pronouns given partial credit for each other (APT case 2).';
COMMENT ON COLUMN pronoun_lists.pronoun IS 'The pronoun (lower-cased word).';
COMMENT ON COLUMN pronoun_lists.class IS 'Class name for identical/equivalent rows (members of one class share it); NULL for source/target rows.';
COMMENT ON COLUMN pronoun_lists.source_pronoun IS 'For equivalent rows: the class applies only when translating this source pronoun; NULL = any source pronoun.';
COMMENT ON COLUMN pronoun_lists.file IS 'File the row was read from.';
COMMENT ON COLUMN pronoun_lists.line IS '1-based line in that file.';
