-- suspicious_subtrees: tree error mining (Narayan & Gardent 2011; Shimorina et al. seed section 3.4),
-- materialised by `evalhouse analyze`. Failures are the lowest-scoring share of a submission's
-- sentences (default: bottom 25% by sentence BLEU); forms are subtrees of the stripped reference tree
-- in four views (dep, pos, pos-dep, lemma); counts are sentences. Only the `keep` best-ranked forms of
-- each submission and view are stored (configuration says how many; 0 = all).
-- Grain: team x run x corpus x view x form.
CREATE TABLE IF NOT EXISTS suspicious_subtrees (
    team           VARCHAR NOT NULL,
    run            VARCHAR NOT NULL,
    corpus         VARCHAR NOT NULL,
    view           VARCHAR NOT NULL,
    form           VARCHAR NOT NULL,
    c_f            INTEGER NOT NULL,
    c_f_fail       INTEGER NOT NULL,
    c_notf         INTEGER NOT NULL,
    c_notf_pass    INTEGER NOT NULL,
    score          DOUBLE NOT NULL,
    rank           INTEGER NOT NULL,
    selected       BOOLEAN NOT NULL,
    configuration  VARCHAR NOT NULL
);
COMMENT ON TABLE suspicious_subtrees IS 'Suspicion score and rank of reference subtrees (forms) per submission and view (Narayan & Gardent 2011). Grain: team x run x corpus x view x form.';
COMMENT ON COLUMN suspicious_subtrees.form IS 'Canonical unordered subtree, e.g. (conj (advmod advmod)) or (VERB~conj (ADV~advmod)).';
COMMENT ON COLUMN suspicious_subtrees.c_f IS 'Sentences containing the form.';
COMMENT ON COLUMN suspicious_subtrees.c_f_fail IS 'Failure sentences containing the form.';
COMMENT ON COLUMN suspicious_subtrees.c_notf IS 'Sentences not containing the form.';
COMMENT ON COLUMN suspicious_subtrees.c_notf_pass IS 'Success sentences not containing the form.';
COMMENT ON COLUMN suspicious_subtrees.score IS 'Suspicion score (form named in configuration; default Narayan & Gardent).';
COMMENT ON COLUMN suspicious_subtrees.rank IS '1 = most suspicious; ties by more sentences, then form text.';
COMMENT ON COLUMN suspicious_subtrees.selected IS 'rank <= top_k: counted as one of the submission''s suspicious forms (coverage).';
COMMENT ON COLUMN suspicious_subtrees.configuration IS 'Failure metric and share, tie rule, maximum size, score form, top_k, keep, evalhouse version.';
