"""Parse evaluation (issue 5): every number printed in seed 002 (Sampson & Babarczy 2003), EVALB's own
sample.rsl, the bracket loader's errors, properties of LA and GEIG (hypothesis), and view given/expect."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalhouse.analysis.leaf_ancestor import DEFAULT, STRICT, Scorer, cost_table, lineage_distance, lineages, word_score
from evalhouse.analysis.parse_eval import COLLINS, NO_PARAMS, base_label, compare, evalb_label, prepare
from evalhouse.loaders.brackets import Tree, parse_tree, read_trees, render
from evalhouse.errors import InputError
from evalhouse.ingest.parses import ingest_parses, resolve_params
from evalhouse.warehouse import view_files
from evalhouse.reports.evalb import evalb_report
from evalhouse.errors import WarehouseError
from tests.conftest import TEST_DATA, shared, write

SEED_GOLD = TEST_DATA / "seed002_gold.txt"
SEED_CAND = TEST_DATA / "seed002_candidate.txt"

# view -> grain (used by tests/test_views.py's grain checks too)
# the parse-evaluation views (sql/parses/) and their keys, as their headers declare them (SqlFile.key)
PARSE_VIEWS = {f.name: f.key for f in view_files() if f.folder == "parses"}
# grain columns that are NULL on one side of an unaligned word (never both)
NULLABLE_KEYS = {
    "dependency_word_pairs": ("gold_index", "system_index"),
    "dependency_label_confusion": ("gold_relation", "system_relation"),
}


def ingest_parse_examples(wh):
    """Seed 002's examples, and the Figure 1 tree of seed 000 scored against itself as a dependency run."""
    from evalhouse.ingest.dependency_runs import ingest_dependency_run

    ingest_seed002(wh)
    ingest_dependency_run(wh, TEST_DATA / "figure1.conllu", TEST_DATA / "figure1.conllu", "figure1", "self", "1")


def ingest_seed002(wh, cost=None):
    """Seed 002's examples (1)-(11): gold, and the candidate as team 'briscoe-carroll' run 'susanne'."""
    ingest_parses(wh, SEED_GOLD, "seed002", gold=True)
    ingest_parses(wh, SEED_CAND, "seed002", team="briscoe-carroll", run="susanne", params=NO_PARAMS, cost=cost)


# --- seed 002, to the printed digit ----------------------------------------------------------------

# Example (1), section 4: score, word, gold lineage : candidate lineage (leaf end first).
EXAMPLE_1 = """
0.917   two       N1 [ S : NP [ S
0.583   tax       [ N1 N1 S : NP S
0.583   revision  N1 ] N1 S : NP S
0.917   bills     N1 ] S : NP ] S
1.000   were      S : S
1.000   passed    S ] : S ]
"""

# Example (11), section 7 (11G with the front-matter correction: S before "and reduce").
EXAMPLE_11 = """
1.000   however         [ S : [ S
1.000   ,               S : S
1.000   the             [ NP S : [ NP S
1.000   jury            NP ] S : NP ] S
1.000   said            S : S
1.000   it              [ S S : [ S S
1.000   believes        S S : S S
0.667   these           NP [ S S S : [ NP S S
0.750   two             NP S S S : NP ] S S
0.667   offices         NP ] S S S : [ S S S
1.000   should          S S S : S S S
1.000   be              S S S : S S S
1.000   combined        S S S : S S S
1.000   to              [ VP S S S : [ VP S S S
0.800   achieve         VP S S S : [ VP VP S S S
0.923   greater         [ N1 VP S S S : [ N1 VP VP S S S
0.923   efficiency      N1 ] VP S S S : N1 ] VP VP S S S
0.769   and             [ S VP S S S : [ VP VP VP S S S
0.727   reduce          S VP S S S : VP VP VP S S S
0.800   the             [ NP S VP S S S : [ NP VP VP VP S S S
0.769   cost            NP S VP S S S : NP VP VP VP S S S
0.824   of              [ PP NP S VP S S S : [ PP NP VP VP VP S S S
0.824   administration  PP NP S VP S S S ] : PP NP VP VP VP S S S ]
"""

# (GEIG/unlabelled F, GEIG/labelled F, LA) of examples (1)-(11) as printed (section 4 for (1)).
TRIPLES = [
    ("0.800", "0.400", "0.833"),
    ("0.333", "0.333", "0.952"),
    ("1.0", "0.333", "0.262"),
    ("0.353", "0.353", "0.921"),
    ("0.500", "0.500", "0.942"),
    ("0.500", "0.500", "0.932"),
    ("0.917", "0.833", "0.589"),
    ("0.952", "0.667", "0.543"),
    ("0.909", "0.545", "0.531"),
    ("0.909", "0.727", "0.627"),
    ("0.762", "0.667", "0.889"),
]


def _listing(text: str) -> list[tuple[str, str, str, str]]:
    rows = []
    for line in text.strip().splitlines():
        score, word, rest = line.split(None, 2)
        g, c = rest.split(" : ")
        rows.append((score, word, g.strip(), c.strip()))
    return rows


def _paper_digits(printed: str, value: float) -> bool:
    decimals = len(printed.split(".")[1])
    return f"{value:.{decimals}f}" == printed


@pytest.mark.slow
@pytest.mark.parametrize("position, listing", [(1, EXAMPLE_1), (11, EXAMPLE_11)], ids=["example1", "example11"])
def test_word_scores_and_lineages_as_printed(wh, position, listing):
    ingest_seed002(wh)
    rows = wh.sql(
        "SELECT score, word, gold_lineage, candidate_lineage FROM la_words WHERE position = $p ORDER BY word_index",
        {"p": position},
    ).fetchall()
    expected = _listing(listing)
    assert [(w, g, c) for _, w, g, c in rows] == [(w, g, c) for _, w, g, c in expected]
    for (score, *_), (printed, word, *_) in zip(rows, expected):
        assert f"{score:.3f}" == printed, word


def test_revision_worked_calculation():
    # section 4: replacing either N1 by NP costs 0.5, deleting the boundary and the other N1 cost 1 each
    gold, cand = ("N1", "]", "N1", "S"), ("NP", "S")
    assert lineage_distance(gold, cand, DEFAULT) == 2.5
    assert word_score(gold, cand) == 1 - 2.5 / 6


@pytest.mark.slow
@pytest.mark.parametrize("position", range(1, 12))
def test_triples_of_examples_1_to_11(wh, position):
    ingest_seed002(wh)
    uf, lf = wh.sql(
        "SELECT unlabelled_f, labelled_f FROM geig_sentences WHERE position = $p", {"p": position}
    ).fetchone()
    la = wh.sql("SELECT la FROM la_sentences WHERE position = $p", {"p": position}).fetchone()[0]
    printed = TRIPLES[position - 1]
    assert (_paper_digits(printed[0], uf), _paper_digits(printed[1], lf), _paper_digits(printed[2], la)) == (
        True,
    ) * 3, (printed, (uf, lf, la))


def test_boundary_markers_distinguish_the_papers_two_trees():
    # section 2: without markers, [P [Q a b ] [Q c ] ] and [P [Q a b c ] ] would both give Q P
    one, two = parse_tree("[P [Q a b ] [Q c ] ]"), parse_tree("[P [Q a b c ] ]")
    # a: highest node beginning with a is P; b: highest ending with b is the first Q; c: begins the
    # second Q and ends P (rules (i) and (ii) applied by hand)
    assert lineages(one.nodes, 3) == [("Q", "[", "P"), ("Q", "]", "P"), ("[", "Q", "P", "]")]
    assert lineages(two.nodes, 3) == [("Q", "[", "P"), ("Q", "P"), ("Q", "P", "]")]


def test_uncorrected_journal_version_of_11G_does_not_give_the_printed_listing():
    gold = parse_tree(SEED_GOLD.read_text().splitlines()[10].replace("[S and reduce", "[VP and reduce"))
    cand = parse_tree(SEED_CAND.read_text().splitlines()[10])
    g, c = lineages(gold.nodes, len(gold)), lineages(cand.nodes, len(cand))
    assert " ".join(g[17]) == "[ VP VP S S S"  # not the printed "[ S VP S S S"
    assert f"{word_score(g[17], c[17]):.3f}" != "0.769"


# --- EVALB's sample ------------------------------------------------------------------------------


@pytest.mark.realdata
def test_evalb_report_equals_sample_rsl_byte_for_byte():
    # sample.rsl was written by the older EVALB: its layout is `layout="1997"` (the default is the C
    # release's, tested against the program itself in tests/test_evalb_c.py)
    d = shared("constituency", "evalb")
    report = evalb_report(d / "sample.gld", d / "sample.tst", resolve_params(str(d / "sample.prm")), layout="1997")
    assert report == (d / "sample.rsl").read_text(encoding="utf-8")


@pytest.mark.realdata
def test_evalb_sample_statuses_and_totals_through_the_views(wh):
    d = shared("constituency", "evalb")
    ingest_parses(wh, d / "sample.gld", "s", gold=True, one_per_line=True)
    ingest_parses(
        wh,
        d / "sample.tst",
        "s",
        team="t",
        run="r",
        params=resolve_params(str(d / "sample.prm")),
        one_per_line=True,
        allow_mismatch=True,
    )
    status = dict(wh.sql("SELECT position, status FROM geig_sentences").fetchall())
    assert [p for p, s in sorted(status.items()) if s == "skip"] == [11, 14]
    assert [p for p, s in sorted(status.items()) if s == "error"] == [12, 13, 16, 17, 20]
    row = wh.sql(
        "SELECT matched_labelled, gold_brackets, test_brackets, words, correct_tags, no_crossing_sentences, "
        "crossing FROM parse_scores WHERE subset = 'all'"
    ).fetchone()
    # sample.rsl totals row: 86 98 95 ... 108 106; its Cross column prints 16 = sentences with no crossing,
    # while the crossing brackets themselves sum to 1 (sentence 6)
    assert row == (86, 98, 95, 108, 106, 16, 1)


# --- the loader ----------------------------------------------------------------------------------

PTB = """( (S (NP-SBJ-1 (DT The) (NN cat))
     (VP (VBD sat)
       (NP (-NONE- *-1)))
     (. .)) )
(ROOT (S (NP (DT the) (NN dog)) (VP (VBZ barks))))
"""


def test_ptb_multi_line_wrapper_traces_function_tags():
    trees = list(read_trees(iter(PTB.splitlines(keepends=True)), "x.mrg"))
    assert [t.line for t in trees] == [1, 5]
    t = trees[0]
    assert t.words == ["The", "cat", "sat", "*-1", "."] and t.pos == ["DT", "NN", "VBD", "-NONE-", "."]
    # the wrapper is a node labelled '' (C EVALB's bracket), the tree's root below it
    assert t.nodes == [("", -1, 0, 5), ("S", 0, 0, 5), ("NP-SBJ-1", 1, 0, 2), ("VP", 1, 2, 4), ("NP", 3, 3, 4)]
    p = prepare(t.words, t.pos, t.nodes, COLLINS)
    assert p.words == ["The", "cat", "sat"] and p.length == 4
    # EVALB's brackets: the wrapper counts; NP over the deleted trace spans no word (not counted)
    assert [(lab, s, e) for lab, s, e, _ in p.brackets(COLLINS)] == [
        ("", 0, 3),
        ("S", 0, 3),
        ("NP", 0, 2),
        ("VP", 2, 3),
        ("NP", 3, 3),
    ]
    # the leaf-ancestor tree: no unlabelled node, no bracket over no word
    assert p.nodes == [("S", -1, 0, 3), ("NP", 0, 0, 2), ("VP", 0, 2, 3)]
    assert render(t) == "( (S (NP-SBJ-1 (DT The) (NN cat)) (VP (VBD sat) (NP (-NONE- *-1))) (. .)))"
    assert render(trees[1]) == "(ROOT (S (NP (DT the) (NN dog)) (VP (VBZ barks))))"


@pytest.mark.parametrize(
    "label, cut",
    [
        ("NP-SBJ-1", "NP"),
        ("NP=2", "NP"),
        ("-NONE-", ""),
        ("-LRB-", ""),
        ("PRP$", "PRP$"),
        ("S", "S"),
        ("", ""),
        ("X-", "X"),
    ],
)
def test_evalb_label_cuts_at_the_first_hyphen_or_equals_sign(label, cut):
    # evalb.c's modify_label: a nonterminal's label ends at its first - or =, wherever it is
    assert evalb_label(label) == cut


def test_unlabelled_node_below_a_labelled_one_is_refused(tmp_path, wh):
    path = write(tmp_path, "bad.mrg", "( (S (NP (DT a)) ( (VP (VB b)))) )\n")
    with pytest.raises(InputError, match="without a label below a labelled one") as err:
        ingest_parses(wh, path, "c", gold=True)
    assert err.value.line == 1
    # a double wrapper is two unlabelled brackets, as C EVALB reads it
    t = parse_tree("( ( (S (DT a)) ) )")
    assert [lab for lab, *_ in t.nodes] == ["", "", "S"]


def test_the_wrappers_bracket_can_be_deleted(tmp_path, wh):
    # DELETE_LABEL of the empty label (`--delete-label ''`) drops the wrapper's bracket, and says so
    gold = write(tmp_path, "g.mrg", "( (S (NP (DT a)) (VP (VB b))) )\n")
    test = write(tmp_path, "t.mrg", "( (S (NP (DT a) (VB b))) )\n")
    ingest_parses(wh, gold, "c", gold=True)
    ingest_parses(wh, test, "c", team="t", run="counted")
    ingest_parses(wh, test, "c", team="t", run="deleted", params=resolve_params("collins", delete_labels=[""]))
    rows = dict(
        (r[0], r[1:])
        for r in wh.sql(
            "SELECT run, gold_brackets, test_brackets, matched_labelled, config FROM parse_scores WHERE subset = 'all'"
        ).fetchall()
    )
    assert rows["counted"][:3] == (4, 3, 2) and rows["deleted"][:3] == (3, 2, 1)
    assert "delete:(unlabelled) '' ," in rows["deleted"][3] and "(unlabelled)" not in rows["counted"][3]


def test_nul_byte_in_a_bracketed_file(tmp_path, wh):
    path = write(tmp_path, "bad.mrg", b"(S (DT a))\n(S (DT \x00b))\n")
    with pytest.raises(InputError) as err:
        ingest_parses(wh, path, "c", gold=True)
    assert str(err.value) == f"{path}:2: binary file: NUL byte (this is not a bracketed-parse text file)"
    with pytest.raises(InputError) as err:
        evalb_report(path, path)
    assert str(err.value) == f"{path}:2: binary file: NUL byte (this is not a bracketed-parse text file)"


@pytest.mark.parametrize(
    "label, base",
    [("NP-SBJ-1", "NP"), ("NP=2", "NP"), ("-NONE-", "-NONE-"), ("-LRB-", "-LRB-"), ("PRP$", "PRP$"), ("S", "S")],
)
def test_base_label(label, base):  # the leaf-ancestor symbol of a label
    assert base_label(label) == base


@pytest.mark.parametrize(
    "text, line, problem",
    [
        ("(S (NP (DT the) (NN dog))\n", 1, "never closed"),
        ("(S (DT the)))\n", 1, "never opened"),
        ("(S (NP (DT the) dog))\n", 1, "beside constituents"),
        ("(S\n (NP ))\n", 2, "has no words"),
        ("(S (DT the dog))\n", 1, "second word"),
        ("the (S (DT dog))\n", 1, "expected a tree starting with '(' or '['"),
        ("[S a [NP b ] ] ]\n", 1, "never opened"),
        ("[S a [ NP b ] ]\n", 1, "followed by its label"),
        ("(S (A (B (C x))))\n\n[S a\n", 3, "never closed"),
    ],
)
def test_bad_brackets_name_file_line_problem(tmp_path, wh, text, line, problem):
    path = write(tmp_path, "bad.mrg", text)
    with pytest.raises(InputError) as err:
        ingest_parses(wh, path, "c", gold=True)
    assert err.value.line == line and problem in err.value.problem
    assert str(err.value).startswith(f"{path}:{line}: ")
    assert wh.sql("SELECT count(*) FROM parse_runs").fetchone()[0] == 0


def test_candidate_errors_leave_the_warehouse_unchanged(tmp_path, wh):
    gold = write(tmp_path, "g.mrg", "(S (A (P this)) (B (Q is)))\n(S (A (P a)) (B (Q test)))\n")
    ingest_parses(wh, gold, "c", gold=True)
    before = {
        t: wh.sql(f"SELECT count(*) FROM {t}").fetchone()[0]
        for t in ("parse_runs", "parse_sentences", "parse_leaves", "constituents", "geig_counts", "la_word_scores")
    }
    cases = [
        ("(S (A (P this)) (B (Q is)))\n", "1 sentences, but the gold parses"),
        ("(S (A (P this)) (B (Q is)))\n(S (A (P a)) (B (Q pest)))\n", "word mismatch at word 2 (test|pest)"),
        ("(S (A (P this)) (B (Q is)))\n(S (A (P a)) (B (Q test) (R x)))\n", "length mismatch (2|3)"),
    ]
    for text, problem in cases:
        with pytest.raises(InputError, match=problem.replace("(", r"\(").replace(")", r"\)").replace("|", r"\|")):
            ingest_parses(wh, write(tmp_path, "t.mrg", text), "c", team="t", run="r")
    after = {t: wh.sql(f"SELECT count(*) FROM {t}").fetchone()[0] for t in before}
    assert after == before
    # with --allow-mismatch the sentence gets EVALB's error status instead
    ingest_parses(wh, write(tmp_path, "t.mrg", cases[1][0]), "c", team="t", run="r", allow_mismatch=True)
    assert wh.sql("SELECT position, status, message FROM geig_sentences ORDER BY position").fetchall() == [
        (1, "ok", None),
        (2, "error", "word mismatch at word 2 (test|pest)"),
    ]


def test_refusals(tmp_path, wh):
    gold = write(tmp_path, "g.mrg", "(S (P x))\n")
    with pytest.raises(WarehouseError, match="no gold parses"):
        ingest_parses(wh, gold, "c", team="t", run="r")
    ingest_parses(wh, gold, "c", gold=True)
    with pytest.raises(WarehouseError, match="already in"):
        ingest_parses(wh, gold, "c", gold=True)
    ingest_parses(wh, gold, "c", gold=True, replace=True)
    ingest_parses(wh, gold, "c", team="t", run="r")
    with pytest.raises(WarehouseError, match="already in"):
        ingest_parses(wh, gold, "c", team="t", run="r")
    ingest_parses(wh, gold, "c", team="t", run="r", replace=True)
    with pytest.raises(WarehouseError, match="candidate runs are scored against"):
        ingest_parses(wh, gold, "c", gold=True, replace=True)
    with pytest.raises(ValueError):
        ingest_parses(wh, gold, "c", gold=True, team="t", run="r")
    assert wh.sql("SELECT count(*) FROM parse_runs").fetchone()[0] == 2
    assert wh.sql("SELECT count(*) FROM geig_counts").fetchone()[0] == 1


def test_prm_and_cost_table_errors(tmp_path):
    from evalhouse.loaders.evalb_prm import read_cost_table, read_prm

    with pytest.raises(InputError, match="unknown EVALB parameter 'LABELLED'") as err:
        read_prm(write(tmp_path, "p.prm", "# c\nDELETE_LABEL TOP\nLABELLED 1\n"))
    assert err.value.line == 3
    with pytest.raises(InputError, match="outside"):
        read_cost_table(write(tmp_path, "c.tsv", "NP N1 0.5\nNP S 2.5\n"))
    table = read_cost_table(write(tmp_path, "c.tsv", "# gold cand cost\nNP\tN1\t0.5\n"))
    assert table("NP", "N1") == 0.5 and table("N1", "NP") == 2.0 and not table.symmetric


def test_every_score_records_its_configuration(wh):
    ingest_seed002(wh, cost=STRICT)
    prm, cost, config, version = wh.sql(
        "SELECT evalb_params, la_cost, config, evalhouse_version FROM parse_runs WHERE role = 'candidate'"
    ).fetchone()
    assert '"source": "none"' in prm and cost == '{"name": "strict"}'
    assert "la-cost:strict" in config and "prm:none" in config and config.startswith(f"evalhouse:{version}")
    assert wh.sql("SELECT DISTINCT config FROM parse_scores").fetchall() == [(config,)]


def test_asymmetric_cost_table_makes_la_asymmetric():
    table = cost_table([("NP", "N1", 0.5)])
    gold, cand = parse_tree("[S [NP a b ] c ]"), parse_tree("[S [N1 a b ] c ]")
    forward = Scorer(table)(lineages(gold.nodes, 3)[0], lineages(cand.nodes, 3)[0])[1]
    backward = Scorer(table)(lineages(cand.nodes, 3)[0], lineages(gold.nodes, 3)[0])[1]
    # lineage of a: NP [ S against N1 [ S (3 + 3 symbols); NP->N1 costs 0.5, N1->NP is unlisted (2)
    assert forward == 1 - 0.5 / 6 and backward == 1 - 2 / 6


# --- properties ----------------------------------------------------------------------------------

LABELS = ["S", "NP", "N1", "VP", "PP", "T"]


def random_tree(seed: int, n: int, labels=LABELS) -> Tree:
    """A random tree over n words w0..w(n-1) in square notation (unary chains included)."""
    rng = random.Random(seed)

    def build(words: list[str]) -> str:
        label = rng.choice(labels)
        if len(words) == 1 or rng.random() < 0.25:
            inner = " ".join(words) if len(words) < 3 or rng.random() < 0.5 else None
            if inner is not None:
                return f"[{label} {inner} ]"
        cuts = (
            sorted(rng.sample(range(1, len(words)), k=min(len(words) - 1, rng.randint(1, 3)))) if len(words) > 1 else []
        )
        parts, prev = [], 0
        for c in cuts + [len(words)]:
            chunk = words[prev:c]
            parts.append(chunk[0] if len(chunk) == 1 and rng.random() < 0.5 else build(chunk))
            prev = c
        return f"[{label} {' '.join(parts)} ]"

    return parse_tree(build([f"w{i}" for i in range(n)]))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 15))
def test_identical_parses_score_one_on_every_metric(seed, n):
    t = random_tree(seed, n)
    p = prepare(t.words, t.pos, t.nodes, NO_PARAMS)
    c = compare(p, p, NO_PARAMS)
    assert c.status == 0 and c.matched_labelled == c.gold_brackets == c.test_brackets and c.crossing == 0
    ls = lineages(p.nodes, n)
    assert all(word_score(a, a) == 1.0 for a in ls)
    assert all(lineage_distance(a, a) == 0.0 for a in ls)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32), st.integers(1, 15), st.sampled_from(["default", "strict"]))
def test_la_is_symmetric_for_symmetric_costs_and_in_unit_interval(seed_a, seed_b, n, cost_name):
    cost = DEFAULT if cost_name == "default" else STRICT
    a, b = random_tree(seed_a, n), random_tree(seed_b, n)
    la, lb = lineages(a.nodes, n), lineages(b.nodes, n)
    for x, y in zip(la, lb):
        s = word_score(x, y, cost)
        assert s == pytest.approx(word_score(y, x, cost), abs=1e-12)
        assert 0.0 <= s <= 1.0
        # the weighted distance never exceeds plain Levenshtein with substitution cost 2
        assert lineage_distance(x, y, cost) <= lineage_distance(x, y, STRICT)
    # GEIG F is symmetric too; matched never exceeds either side
    pa, pb = prepare(a.words, a.pos, a.nodes, NO_PARAMS), prepare(b.words, b.pos, b.nodes, NO_PARAMS)
    ab, ba = compare(pa, pb, NO_PARAMS), compare(pb, pa, NO_PARAMS)
    assert ab.matched_labelled == ba.matched_labelled <= min(ab.gold_brackets, ab.test_brackets)
    assert ab.matched_labelled <= ab.matched_unlabelled


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32), st.integers(1, 8))
def test_lineages_determine_the_tree(seed_a, seed_b, n):
    a, b = random_tree(seed_a, n, ["A", "B"]), random_tree(seed_b, n, ["A", "B"])
    same_lineages = lineages(a.nodes, n) == lineages(b.nodes, n)
    same_tree = sorted((lab, s, e) for lab, _, s, e in a.nodes) == sorted((lab, s, e) for lab, _, s, e in b.nodes)
    assert same_lineages == same_tree


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 15))
def test_render_round_trip(seed, n):
    t = random_tree(seed, n)
    again = parse_tree(render(t))
    assert (again.words, again.nodes) == (t.words, t.nodes)


# --- views: given / expect -----------------------------------------------------------------------


def _run_row(wh, corpus="v", team="t", run="r", cutoff=40):
    wh.sql(
        "INSERT INTO parse_runs VALUES ($c, $t, $r, 'candidate', 'f', 'x', 0, 0, 0, false, $cut, true, "
        "'{}', '{}', 'cfg', '0', now())",
        {"c": corpus, "t": team, "r": run, "cut": cutoff},
    )


def _geig(wh, position, status, length, words, g, t, ml, mu, cross, tags, corpus="v"):
    wh.sql(
        "INSERT INTO geig_counts VALUES ($c, 't', 'r', $p, $s, NULL, $len, $w, $g, $t, $ml, $mu, $x, $tags)",
        {
            "c": corpus,
            "p": position,
            "s": status,
            "len": length,
            "w": words,
            "g": g,
            "t": t,
            "ml": ml,
            "mu": mu,
            "x": cross,
            "tags": tags,
        },
    )


def _la(wh, position, scores, corpus="v"):
    for i, s in enumerate(scores, start=1):
        wh.sql(
            "INSERT INTO la_word_scores VALUES ($c, 't', 'r', $p, $i, 'w', 'A', 'A', 0, $s)",
            {"c": corpus, "p": position, "i": i, "s": s},
        )


def test_geig_sentences_given_expect(wh):
    _run_row(wh)
    _geig(wh, 1, 0, 5, 5, 3, 2, 1, 2, 1, 4)  # P 1/2, R 1/3, F 2/5; unlabelled P 1, R 2/3, F 4/5
    _geig(wh, 2, 0, 1, 1, 0, 0, 0, 0, 0, 1)  # nothing to bracket on either side: 1, 1, 1
    _geig(wh, 3, 0, 2, 2, 1, 0, 0, 0, 0, 2)  # no candidate bracket: 0
    _geig(wh, 4, 1, 3, 3, 0, 0, 0, 0, 0, 0)  # error: NULL ratios
    rows = wh.sql(
        "SELECT position, status, labelled_precision, labelled_recall, labelled_f, unlabelled_precision, "
        "unlabelled_recall, unlabelled_f, labelled_complete_match, tagging_accuracy FROM geig_sentences "
        "ORDER BY position"
    ).fetchall()
    assert rows == [
        (1, "ok", 0.5, 1 / 3, 0.4, 1.0, 2 / 3, 0.8, False, 0.8),
        (2, "ok", 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, True, 1.0),
        (3, "ok", 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, 1.0),
        (4, "error", None, None, None, None, None, None, None, None),
    ]


def test_parse_scores_given_expect(wh):
    _run_row(wh, cutoff=3)
    _geig(wh, 1, 0, 5, 5, 3, 2, 1, 2, 1, 4)
    _geig(wh, 2, 0, 2, 2, 1, 1, 1, 1, 3, 1)
    _geig(wh, 3, 2, 2, 2, 0, 0, 0, 0, 0, 0)
    _la(wh, 1, [1.0, 0.5, 0.5, 1.0, 0.5])  # sentence LA 0.7
    _la(wh, 2, [1.0, 0.0])  # sentence LA 0.5
    rows = {
        r[0]: r[1:]
        for r in wh.sql(
            "SELECT subset, sentences, error_sentences, skip_sentences, valid_sentences, labelled_precision, labelled_recall, "
            "labelled_f, unlabelled_f, labelled_complete_match, average_crossing, no_crossing, two_or_less_crossing, "
            "tagging_accuracy, la_sentence_mean, la_word_mean FROM parse_scores"
        ).fetchall()
    }
    # all: matched 2 of gold 4, test 3 -> P 2/3, R 1/2, F 4/7; unlabelled 3 of 4/3 -> 6/7
    assert rows["all"] == pytest.approx(
        (3, 0, 1, 2, 2 / 3, 1 / 2, 4 / 7, 6 / 7, 1 / 2, 2.0, 0.0, 1 / 2, 5 / 7, 0.6, 4.5 / 7)
    )
    # len<=3: sentences 2 and 3 only
    assert rows["len<=3"] == pytest.approx((2, 0, 1, 1, 1.0, 1.0, 1.0, 1.0, 1.0, 3.0, 0.0, 0.0, 0.5, 0.5, 0.5))


def test_metric_deciles_given_expect(wh):
    # 10 sentences: LA falls with position (LA decile = position), labelled F rises with position
    # (decile 11 - position), unlabelled F ties at 1 everywhere: average rank (1 + 10) / 2 = 5.5 for all,
    # decile ceil(10 * 5.5 / 10) = 6 (issue 16; before, ties were ordered by position: decile = position)
    _run_row(wh)
    for p in range(1, 11):
        _geig(wh, p, 0, 3, 3, 10, 10, p - 1, 10, 0, 3)
        _la(wh, p, [1 - p / 100])
    ranks = {(m, p): d for m, p, d in wh.sql("SELECT metric, position, decile FROM parse_metric_ranks").fetchall()}
    assert [ranks[("la", p)] for p in range(1, 11)] == list(range(1, 11))
    assert [ranks[("labelled_f", p)] for p in range(1, 11)] == list(range(10, 0, -1))
    assert [ranks[("unlabelled_f", p)] for p in range(1, 11)] == [6] * 10
    # the tied metric carries no order into the cross-tabulation: all ten sentences in one row
    cells = wh.sql(
        "SELECT decile_b, sentences FROM metric_deciles WHERE metric_a = 'unlabelled_f' AND decile_a = 6 "
        "AND metric_b = 'la' ORDER BY decile_b"
    ).fetchall()
    assert cells == [(d, 1) for d in range(1, 11)]
    cells = wh.sql(
        "SELECT decile_b, sentences FROM metric_deciles WHERE metric_a = 'labelled_f' AND decile_a = 10 "
        "AND metric_b = 'la' ORDER BY decile_b"
    ).fetchall()
    assert cells == [(1, 1)] + [(d, 0) for d in range(2, 11)]
    assert wh.sql("SELECT count(*), sum(sentences) FROM metric_deciles").fetchone() == (600, 60)


def test_parse_metric_ranks_average_ranks_for_ties(wh):
    # 10 sentences; labelled F 1.0 for sentences 1-4 (ranks 1-4, average 2.5 -> decile ceil(2.5) = 3),
    # then 0.9, 0.8, ... for sentences 5-10 (ranks 5-10, deciles 5-10). LA: distinct, best first.
    _run_row(wh)
    for p in range(1, 11):
        matched = 10 if p <= 4 else 14 - p  # labelled F = matched / 10 with gold = test = 10 brackets
        _geig(wh, p, 0, 3, 3, 10, 10, matched, matched, 0, 3)
        _la(wh, p, [1 - p / 100])
    rows = wh.sql(
        "SELECT position, rank, average_rank, decile FROM parse_metric_ranks WHERE metric = 'labelled_f' "
        "ORDER BY position"
    ).fetchall()
    assert [r[2] for r in rows] == [2.5] * 4 + [5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
    assert [r[3] for r in rows] == [3] * 4 + [5, 6, 7, 8, 9, 10]
    assert [r[1] for r in rows] == list(range(1, 11))  # rank keeps the listing order by position
    # LA deciles of the tied group: sentences 1-4 are LA deciles 1-4, one each, in labelled decile 3
    cells = wh.sql(
        "SELECT decile_b, sentences FROM metric_deciles WHERE metric_a = 'labelled_f' AND decile_a = 3 "
        "AND metric_b = 'la' AND sentences > 0 ORDER BY decile_b"
    ).fetchall()
    assert cells == [(1, 1), (2, 1), (3, 1), (4, 1)]


def test_metric_deciles_uses_the_papers_rank_ranges():
    # with 500 sentences the n-th decile is ranks 50(n-1)+1 .. 50n
    import math

    assert [math.ceil(10 * r / 500) for r in (1, 50, 51, 100, 451, 500)] == [1, 1, 2, 2, 10, 10]


@pytest.mark.slow
def test_seed002_views_have_their_grain(wh):
    ingest_parse_examples(wh)
    for view, keys in PARSE_VIEWS.items():
        cols = ", ".join(keys)
        assert wh.sql(f"SELECT count(*) FROM {view}").fetchone()[0] > 0
        assert wh.sql(f"SELECT {cols}, count(*) FROM {view} GROUP BY ALL HAVING count(*) > 1").fetchall() == []


# --- the CLI -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_cli_ingest_parses_and_evalb(tmp_path):
    from typer.testing import CliRunner

    from evalhouse.cli import app

    runner = CliRunner()
    db = str(tmp_path / "w.duckdb")
    r = runner.invoke(app, ["--db", db, "ingest", "parses", str(SEED_GOLD), "--corpus", "seed", "--gold"])
    assert r.exit_code == 0 and "seed (gold): 11 sentences" in r.output, r.output
    r = runner.invoke(
        app,
        [
            "--db",
            db,
            "ingest",
            "parses",
            str(SEED_CAND),
            "--corpus",
            "seed",
            "--team",
            "bc",
            "--run",
            "1",
            "--prm",
            "none",
            "--cost",
            "default",
        ],
    )
    assert r.exit_code == 0 and "11 ok, 0 error, 0 skip" in r.output and "la-cost:default" in r.output, r.output
    r = runner.invoke(
        app, ["--db", db, "sql", "select round(la, 3) from la_sentences where position = 1", "--format", "csv"]
    )
    assert r.output.splitlines()[1] == "0.833"
    # refused: exists (3); bad input (1); usage (2)
    r = runner.invoke(app, ["--db", db, "ingest", "parses", str(SEED_GOLD), "--corpus", "seed", "--gold"])
    assert r.exit_code == 3 and "already in" in r.output
    bad = write(tmp_path, "bad.txt", "[S a [NP b ]\n")
    r = runner.invoke(app, ["--db", db, "ingest", "parses", str(bad), "--corpus", "x", "--gold"])
    assert r.exit_code == 1 and f"{bad}:1: '[S' is never closed" in r.output
    r = runner.invoke(app, ["--db", db, "ingest", "parses", str(SEED_GOLD), "--corpus", "x"])
    assert r.exit_code == 2 and "--gold or both --team and --run" in r.output
    r = runner.invoke(
        app,
        [
            "--db",
            db,
            "ingest",
            "parses",
            str(SEED_CAND),
            "--corpus",
            "seed",
            "--team",
            "a",
            "--run",
            "b",
            "--cost",
            "nonsense",
        ],
    )
    assert r.exit_code == 2 and "valid: default, strict" in r.output
    r = runner.invoke(
        app,
        [
            "--db",
            db,
            "ingest",
            "parses",
            str(SEED_CAND),
            "--corpus",
            "seed",
            "--team",
            "a",
            "--run",
            "b",
            "--eq-label",
            "ADVP",
        ],
    )
    assert r.exit_code == 2 and "A=B" in r.output


@pytest.mark.realdata
def test_cli_evalb_prints_sample_rsl(tmp_path):
    from typer.testing import CliRunner

    from evalhouse.cli import app

    d = shared("constituency", "evalb")
    r = CliRunner().invoke(
        app, ["evalb", str(d / "sample.gld"), str(d / "sample.tst"), "--prm", str(d / "sample.prm"), "--layout", "1997"]
    )
    assert r.exit_code == 0
    assert r.stdout == (d / "sample.rsl").read_text(encoding="utf-8")
    # EVALB's messages about the five error sentences, with file and line, on stderr
    assert [line.split(": sentence ")[0] for line in r.stderr.splitlines()] == [
        f"evalhouse: note: {d / 'sample.tst'}:{n}" for n in (12, 13, 16, 17, 20)
    ]


def test_evalb_unlabelled_mode(tmp_path):
    # LABELED 0: sentence 2 of EVALB's sample (C for A over "a test") matches all 4 brackets unlabelled
    gold = write(tmp_path, "g", "(S (A (P this)) (B (Q is) (A (R a) (T test))))\n")
    test = write(tmp_path, "t", "(S (A (P this)) (B (Q is) (C (R a) (T test))))\n")
    prm = write(tmp_path, "p.prm", "LABELED 0\n")
    row = evalb_report(gold, test, resolve_params(str(prm))).splitlines()[3]
    assert row.split() == ["1", "4", "0", "100.00", "100.00", "4", "4", "4", "0", "4", "4", "100.00"]
    row = evalb_report(gold, test, resolve_params("none")).splitlines()[3]
    assert row.split()[3:6] == ["75.00", "75.00", "3"]
