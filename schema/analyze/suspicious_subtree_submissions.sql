-- suspicious_subtree_submissions: what tree error mining saw in each submission and view (Narayan &
-- Gardent 2011; Shimorina, Parmentier & Gardent 2021, section 3.4 and footnote 10), materialised by `evalhouse
-- analyze`: one row per submission mined, also when none of its forms is suspicious, so that
-- suspicious_subtrees_coverage divides by every submission mined.
-- Grain: team x run x corpus x view.
CREATE TABLE IF NOT EXISTS suspicious_subtree_submissions (
    team              VARCHAR NOT NULL,
    run               VARCHAR NOT NULL,
    corpus            VARCHAR NOT NULL,
    view              VARCHAR NOT NULL,
    sentences         INTEGER NOT NULL,
    failures          INTEGER NOT NULL,
    forms_enumerated  INTEGER NOT NULL,
    forms             INTEGER NOT NULL,
    forms_scored      INTEGER NOT NULL,
    suspicious        INTEGER NOT NULL,
    configuration     VARCHAR NOT NULL
);
COMMENT ON TABLE suspicious_subtree_submissions IS 'One row per submission and view mined by evalhouse analyze: sentences, failures, forms and suspicious forms (the denominator of coverage). Grain: team x run x corpus x view.';
COMMENT ON COLUMN suspicious_subtree_submissions.team IS 'Team of the submission.';
COMMENT ON COLUMN suspicious_subtree_submissions.run IS 'Run of the submission.';
COMMENT ON COLUMN suspicious_subtree_submissions.corpus IS 'Reference corpus of the submission.';
COMMENT ON COLUMN suspicious_subtree_submissions.view IS 'Mining view: dep, pos, pos-dep or lemma.';
COMMENT ON COLUMN suspicious_subtree_submissions.sentences IS 'Sentences that take part (those with a value of the failure metric).';
COMMENT ON COLUMN suspicious_subtree_submissions.failures IS 'Failed sentences: the lowest-scoring share (configuration).';
COMMENT ON COLUMN suspicious_subtree_submissions.forms_enumerated IS 'Distinct forms of the corpus in this view (root excluded or not, as configured) before one representative per occurrence set was kept.';
COMMENT ON COLUMN suspicious_subtree_submissions.forms IS 'Forms mined: forms_enumerated less those represented by a larger form with the same sentences (representatives:largest).';
COMMENT ON COLUMN suspicious_subtree_submissions.forms_scored IS 'Forms given a score: those occurring in a failed sentence (suspicious:non-null), or every form that occurs (suspicious:top-k).';
COMMENT ON COLUMN suspicious_subtree_submissions.suspicious IS 'Suspicious forms, all of them stored in suspicious_subtrees with selected = true.';
COMMENT ON COLUMN suspicious_subtree_submissions.configuration IS 'Failure metric and share, tie rule, mining settings (root, representatives, suspicious, score, max_size), keep, evalhouse version.';
