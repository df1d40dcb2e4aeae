-- suspicious_subtrees_coverage: how widespread a suspicious form is (Shimorina et al. seed Tables 5-7).
-- A form is one of a submission's suspicious forms when it is selected in suspicious_subtrees (rank <=
-- top_k of that submission and view, top_k in configuration, default 10).
-- coverage = submissions in which the form is selected / submissions analysed in that view;
-- mss = mean suspicion score over the submissions in which it is selected.
-- Grain: view x form (forms selected in at least one submission).
-- Columns: view, form, submissions, selected_in, coverage, mss, best_rank, configuration.
-- Upstream: suspicious_subtrees (materialised by evalhouse analyze).
CREATE OR REPLACE VIEW suspicious_subtrees_coverage AS
WITH analysed AS (
    SELECT view, count(DISTINCT (team, run, corpus)) AS submissions
    FROM suspicious_subtrees
    GROUP BY view
),
selected AS (
    SELECT view, form, count(*) AS selected_in, avg(score) AS mss, min(rank) AS best_rank,
           string_agg(DISTINCT configuration, ' ; ' ORDER BY configuration) AS configuration
    FROM suspicious_subtrees
    WHERE selected
    GROUP BY view, form
)
SELECT s.view, s.form, a.submissions, s.selected_in, s.selected_in / a.submissions AS coverage, s.mss,
       s.best_rank, s.configuration
FROM selected AS s
JOIN analysed AS a USING (view);
COMMENT ON VIEW suspicious_subtrees_coverage IS 'Coverage (share of submissions where a form is among the top-k suspicious) and mean suspicion score per view and form (seed Tables 5-7). Grain: view x form.';
COMMENT ON COLUMN suspicious_subtrees_coverage.submissions IS 'Submissions mined in this view.';
COMMENT ON COLUMN suspicious_subtrees_coverage.selected_in IS 'Submissions in which the form is selected (rank <= top_k).';
COMMENT ON COLUMN suspicious_subtrees_coverage.coverage IS 'selected_in / submissions.';
COMMENT ON COLUMN suspicious_subtrees_coverage.mss IS 'Mean suspicion score over the submissions that select the form.';
COMMENT ON COLUMN suspicious_subtrees_coverage.best_rank IS 'Best rank of the form in any submission.';
COMMENT ON COLUMN suspicious_subtrees_coverage.configuration IS 'The distinct configurations of the rows summarised.';
COMMENT ON COLUMN suspicious_subtrees_coverage.view IS 'Mining view: dep, pos, pos-dep or lemma.';
COMMENT ON COLUMN suspicious_subtrees_coverage.form IS 'Canonical subtree, e.g. (conj (advmod advmod)).';
