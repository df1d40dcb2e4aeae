-- suspicious_subtrees_coverage: how widespread a suspicious form is (Shimorina, Parmentier & Gardent 2021, Tables 5-7,
-- footnote 10). A form is suspicious in a submission when it is selected in suspicious_subtrees: by
-- default (suspicious:non-null) when it occurs in at least one of the submission's failed sentences,
-- i.e. when it has a score; with suspicious:top-k when its rank is at most top_k.
-- coverage = submissions in which the form is suspicious / submissions mined in that view
--            (suspicious_subtree_submissions: every submission mined, also one with no suspicious form);
-- mss = mean suspicion score over the submissions in which it is suspicious.
-- Grain: view x form (forms suspicious in at least one submission).
-- Key: (view, form).
-- Columns: view, form, submissions, selected_in, coverage, mss, best_rank, configuration.
-- Upstream: suspicious_subtrees, suspicious_subtree_submissions (materialised by evalhouse analyze).
CREATE OR REPLACE VIEW suspicious_subtrees_coverage AS
WITH analysed AS (
    SELECT view, count(*) AS submissions
    FROM suspicious_subtree_submissions
    GROUP BY view
),
selected AS (
    SELECT view, form, count(*) AS selected_in, avg(score) AS mss, min(rank) AS best_rank,
           string_agg(DISTINCT configuration, ' ; ' ORDER BY configuration) AS configuration
    FROM suspicious_subtrees
    WHERE selected
    GROUP BY view, form
),
final AS (
    SELECT s.view, s.form, a.submissions, s.selected_in, s.selected_in / a.submissions AS coverage, s.mss,
           s.best_rank, s.configuration
    FROM selected AS s
    JOIN analysed AS a USING (view)
)
SELECT * FROM final;
COMMENT ON VIEW suspicious_subtrees_coverage IS 'Coverage (share of submissions in which a form is suspicious: by default, in which it occurs in a failed sentence) and mean suspicion score per view and form (Shimorina, Parmentier & Gardent 2021, Tables 5-7, footnote 10). Grain: view x form.';
COMMENT ON COLUMN suspicious_subtrees_coverage.view IS 'Mining view: dep, pos, pos-dep or lemma.';
COMMENT ON COLUMN suspicious_subtrees_coverage.form IS 'Canonical subtree, e.g. (conj (advmod advmod)) (suspicious_subtrees.form).';
COMMENT ON COLUMN suspicious_subtrees_coverage.submissions IS 'Submissions mined in this view (suspicious_subtree_submissions).';
COMMENT ON COLUMN suspicious_subtrees_coverage.selected_in IS 'Submissions in which the form is suspicious (suspicious_subtrees.selected).';
COMMENT ON COLUMN suspicious_subtrees_coverage.coverage IS 'selected_in / submissions (the paper''s coverage).';
COMMENT ON COLUMN suspicious_subtrees_coverage.mss IS 'Mean suspicion score over the submissions in which the form is suspicious (the paper''s MSS).';
COMMENT ON COLUMN suspicious_subtrees_coverage.best_rank IS 'Best rank of the form in any submission.';
COMMENT ON COLUMN suspicious_subtrees_coverage.configuration IS 'The distinct configurations of the rows summarised.';
