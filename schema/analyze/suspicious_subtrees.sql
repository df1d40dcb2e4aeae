-- suspicious_subtrees: tree error mining (Narayan & Gardent 2011; Shimorina, Parmentier & Gardent 2021, section 3.4,
-- Tables 5-7 and footnote 10), materialised by `evalhouse analyze`. Failures are the lowest-scoring
-- share of a submission's sentences (default: bottom 25% by sentence BLEU); forms are subtrees of the
-- stripped reference tree in four views (dep, pos, pos-dep, lemma), by default not headed by the root
-- and one (the largest) per set of sentences it occurs in; counts are sentences. By default
-- (suspicious:non-null) the forms of the failed trees are scored, and each is suspicious; every
-- suspicious form is stored, whatever `keep` is (coverage counts them all). With suspicious:top-k
-- every form that occurs is scored, the top_k best are suspicious, and the others are stored up to
-- rank `keep` (0 = all). The configuration says which.
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
    configuration  VARCHAR NOT NULL,
    size           INTEGER NOT NULL,
    represents     VARCHAR[] NOT NULL
);
COMMENT ON TABLE suspicious_subtrees IS 'Suspicion score and rank of reference subtrees (forms) per submission and view (Narayan & Gardent 2011; Shimorina, Parmentier & Gardent 2021, Tables 5-7). Grain: team x run x corpus x view x form.';
COMMENT ON COLUMN suspicious_subtrees.team IS 'Team of the submission.';
COMMENT ON COLUMN suspicious_subtrees.run IS 'Run of the submission.';
COMMENT ON COLUMN suspicious_subtrees.corpus IS 'Reference corpus of the submission.';
COMMENT ON COLUMN suspicious_subtrees.view IS 'Mining view: dep (relations), pos (UPOS), pos-dep (UPOS~relation) or lemma.';
COMMENT ON COLUMN suspicious_subtrees.form IS 'Canonical unordered subtree, e.g. (conj (advmod advmod)) or (VERB~conj (ADV~advmod)).';
COMMENT ON COLUMN suspicious_subtrees.c_f IS 'Sentences containing the form.';
COMMENT ON COLUMN suspicious_subtrees.c_f_fail IS 'Failure sentences containing the form (> 0 for every form scored under suspicious:non-null).';
COMMENT ON COLUMN suspicious_subtrees.c_notf IS 'Sentences not containing the form.';
COMMENT ON COLUMN suspicious_subtrees.c_notf_pass IS 'Success sentences not containing the form.';
COMMENT ON COLUMN suspicious_subtrees.score IS 'Suspicion score (form named in configuration; default Narayan & Gardent).';
COMMENT ON COLUMN suspicious_subtrees.rank IS '1 = most suspicious among the forms scored; ties by more sentences, then form text.';
COMMENT ON COLUMN suspicious_subtrees.selected IS 'Suspicious in this submission, counted by suspicious_subtrees_coverage: it occurs in a failed sentence (suspicious:non-null, footnote 10, the default) or rank <= top_k (suspicious:top-k).';
COMMENT ON COLUMN suspicious_subtrees.configuration IS 'Failure metric and share, tie rule, mining settings (root, representatives, suspicious, score, max_size), keep, evalhouse version.';
COMMENT ON COLUMN suspicious_subtrees.size IS 'Nodes of the form (2 to max_size).';
COMMENT ON COLUMN suspicious_subtrees.represents IS 'The other forms of the corpus that occur in exactly the same sentences, for which this one (the largest) stands (representatives:largest); empty when none.';
