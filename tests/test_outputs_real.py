"""System outputs on real data (issue 3, "Real data"), read in place from ../shared/data.

* The ADAPT surface realiser's runs on UD v2.3 EWT test (``sr-outputs/adapt-ewt-test``): they ingest
  cleanly; a run and its ``_tokenized`` variant agree on DEA and lemma BLEU, and the few sentences
  where they differ are contractions the reference writes in full ("haven't" against "have not");
  the runs rank the same by DEA and by BLEU.
* The reference text of every treebank in ``ud/`` as an output scores DEA 1 and BLEU 1 (NLTK's value
  below four words), Chinese and Japanese included.
* A planted fault: every ``amod`` dependent moved, with its subtree, to the other side of its head.

Skipped loudly (``REAL DATA MISSING``) when ../shared/data is absent; run only these with
``python -m pytest -m realdata``.
"""

from __future__ import annotations

import csv
import re
from collections import defaultdict

import pytest

import evalhouse
from tests.conftest import shared, write
from tests.test_outputs_metrics import independent_dea, lines_output, nltk_bleu, reference_sentences

pytestmark = pytest.mark.realdata

CORPUS = "en_ewt-test"
ADAPT = "sr-outputs/adapt-ewt-test"
AUGMENTED = "augmented_and_ewt_test_set_13-Oct_12-07"
EWT_ONLY = "ewt_only_test_set_13-Oct_11-27"
MAJORITY = "majority_rules_test_12-Oct_17-06"
RUNS = [AUGMENTED, AUGMENTED + "_tokenized", EWT_ONLY, EWT_ONLY + "_tokenized", MAJORITY]


@pytest.fixture(scope="module")
def ewt(tmp_path_factory):
    """UD v2.3 EWT test and the five ADAPT runs (one manifest, one transaction)."""
    reference = shared("ud-v2.3", "en_ewt-ud-test.conllu")
    base = shared(*ADAPT.split("/"))
    tmp = tmp_path_factory.mktemp("adapt")
    manifest = tmp / "manifest.csv"
    with open(manifest, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["path", "team", "run"])
        for run in RUNS:
            w.writerow([str(base / run / "en_out.txt"), "adapt", run])
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([reference], corpus=CORPUS)
        summaries = wh.ingest_outputs(manifest=manifest, reference=CORPUS)
        yield wh, summaries, reference, tmp


def test_adapt_runs_ingest_cleanly(ewt):
    wh, summaries, _, _ = ewt
    assert sorted(s.run for s in summaries) == sorted(RUNS)
    for s in summaries:
        assert (s.format, s.sentences, s.given_sentences, s.missing_positions) == ("sr", 2077, 2077, ())
    assert wh.sql("select count(*), count(distinct run) from sentence_scores where team = 'adapt'").fetchone() == (
        5 * 2077,
        5,
    )
    assert wh.sql("select count(*) from sentence_scores where bleu is null or ssa is null").fetchone()[0] == 0
    assert wh.sql("select count(*) from output_tokens where lemma is null or lemma = ''").fetchone()[0] == 0
    methods = dict(wh.sql("select method, count(*) from alignments where team = 'adapt' group by 1").fetchall())
    print("\nalignment methods over the five runs:", methods)
    # nearly every output token is aligned
    assert methods.get("unaligned", 0) < 0.01 * sum(methods.values())


def _by_sentence(wh, run):
    return {
        p: (dea, b)
        for p, dea, b in wh.sql(
            f"select position, dea, bleu from sentence_scores where team = 'adapt' and run = '{run}'"
        ).fetchall()
    }


@pytest.mark.parametrize("run", [AUGMENTED, EWT_ONLY])
def test_tokenised_variant_scores_the_same(ewt, run):
    wh, *_ = ewt
    means = {r: m for r, *m in wh.sql("select run, mean_dea, mean_bleu from submission_scores").fetchall()}
    detok, tok = means[run], means[run + "_tokenized"]
    print(
        f"\n{run}: mean DEA {detok[0]:.4f} / tokenised {tok[0]:.4f}; mean BLEU {detok[1]:.4f} / tokenised {tok[1]:.4f}"
    )
    assert abs(detok[0] - tok[0]) < 0.005
    assert abs(detok[1] - tok[1]) < 0.005
    a, b = _by_sentence(wh, run), _by_sentence(wh, run + "_tokenized")
    differ = sorted(p for p in a if a[p][0] != b[p][0] or abs(a[p][1] - b[p][1]) > 1e-12)
    print(f"  {len(differ)} of 2077 sentences differ: {differ}")
    assert len(differ) < 0.02 * 2077
    # every difference is a negation the output contracts differently from the reference ("haven't" /
    # reference "have not", "cannot" / "can't", "can't" / "cannot"): reference-guided tokenisation cannot
    # split a token into words the reference does not write that way, so the lemma "not" is lost
    texts = dict(wh.sql(f"select position, text from output_sentences where run = '{run}'").fetchall())
    reference = {k: s["text"].lower() for k, s in enumerate(reference_sentences(ewt[2]), start=1)}
    negated = {
        p
        for (p,) in wh.sql(
            f"select distinct position from nodes where corpus = '{CORPUS}' and lemma = 'not'"
        ).fetchall()
    }
    for p in differ:
        contractions = re.findall(r"\w*n't|cannot", texts[p], flags=re.I)
        assert p in negated and contractions, (p, texts[p])
        assert any(not re.search(rf"(?<!\w){re.escape(c.lower())}(?!\w)", reference[p]) for c in contractions), (
            p,
            texts[p],
            reference[p],
        )


def test_runs_rank_the_same_by_dea_and_bleu(ewt):
    wh, *_ = ewt
    rows = wh.sql("""select run, mean_dea, dea, mean_bleu, corpus_bleu from submission_scores
                     where team = 'adapt' order by mean_dea desc, run""").fetchall()
    print("\nrun, mean DEA, pooled DEA, mean BLEU, corpus BLEU")
    for r in rows:
        print("  ", r[0], *(f"{v:.4f}" for v in r[1:]))
    runs = {r[0]: r[1:] for r in rows}
    # majority_rules differs from ewt_only only by the spaces before ":)" (5 sentences): the same tokens,
    # so exactly the same scores, sentence by sentence
    assert _by_sentence(wh, MAJORITY) == _by_sentence(wh, EWT_ONLY)
    # the three runs: augmented > ewt_only = majority_rules, by mean DEA, pooled DEA, mean and corpus BLEU
    for k in range(4):
        assert runs[AUGMENTED][k] > runs[EWT_ONLY][k]
        assert runs[EWT_ONLY][k] == pytest.approx(runs[MAJORITY][k], abs=1e-12)
    # (ties compared to 12 digits: the means are sums in a different order)
    by_dea = sorted([AUGMENTED, EWT_ONLY, MAJORITY], key=lambda r: (-round(runs[r][0], 12), r))
    by_bleu = sorted([AUGMENTED, EWT_ONLY, MAJORITY], key=lambda r: (-round(runs[r][2], 12), r))
    assert by_dea == [AUGMENTED, EWT_ONLY, MAJORITY]
    assert by_dea == by_bleu


# --- the reference text of every treebank as an output ---------------------------------------

TREEBANKS = [
    "UD_Chinese-GSD/zh_gsd-ud-test.conllu",
    "UD_English-EWT/en_ewt-ud-test.conllu",
    "UD_English-GUM/en_gum-ud-test.conllu",
    "UD_French-GSD/fr_gsd-ud-test.conllu",
    "UD_Indonesian-GSD/id_gsd-ud-test.conllu",
    "UD_Japanese-GSD/ja_gsd-ud-test.conllu",
    "UD_Korean-GSD/ko_gsd-ud-test.conllu",
    "UD_Portuguese-GSD/pt_gsd-ud-test.conllu",
    "UD_Russian-GSD/ru_gsd-ud-test.conllu",
    "UD_Spanish-GSD/es_gsd-ud-test.conllu",
]
FIRST = 10**6  # sentences per treebank: all of them (about 9 s for the ten files)
# fr_gsd sentences 58, 70, 165 ("des" both a plain word and the multiword token de+les) and 188 (the
# word "6 20 30" contains spaces) once failed here; hand-made reproductions are in test_outputs_ingest.py
# (test_multiword_surface_that_is_also_a_plain_word, test_reference_word_with_spaces).


def _treebank_scores(path, tmp_path):
    blocks = path.read_text(encoding="utf-8").strip("\n").split("\n\n")[:FIRST]
    ref = write(tmp_path, "ref.conllu", "\n\n".join(blocks) + "\n\n")
    sentences = reference_sentences(ref)
    name = path.name.split("-")[0]
    out = write(tmp_path, "text.txt", lines_output([s["text"] for s in sentences]))
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([ref], corpus=name)
        wh.ingest_outputs(out, reference=name, team="reference", run="text", format="lines")
        rows = wh.sql("""select s.position, s.edges, s.dea, s.bleu, list(lower(e.dependent_lemma) order by e.dependent)
                         from sentence_scores s join edges e on e.corpus = s.corpus and e.position = s.position
                         group by all order by s.position""").fetchall()
    assert len(rows) == len(sentences) == min(FIRST, len(blocks))
    return name, rows


def _failures(rows):
    bad = set()
    for position, n_edges, dea, b, lemmas in rows:
        if n_edges and dea != 1:
            bad.add(position)
        if len(lemmas) >= 4 and b != 1:
            bad.add(position)
        if len(lemmas) < 4 and abs(b - nltk_bleu(lemmas, lemmas)) > 1e-12:
            bad.add(position)
    return bad


@pytest.mark.parametrize("treebank", TREEBANKS, ids=lambda t: t.split("/")[0])
def test_reference_text_as_output_scores_one(treebank, tmp_path):
    """# text of each sentence as the output: DEA 1 on every sentence with an edge, BLEU 1 from four
    non-punct words on and exactly NLTK's method-2 value (below 1) on shorter identical sentences."""
    name, rows = _treebank_scores(shared("ud", *treebank.split("/")), tmp_path)
    assert any(n for _, n, *_ in rows)
    assert _failures(rows) == set()
    short = [b for _, _, _, b, lemmas in rows if 0 < len(lemmas) < 4]
    assert all(b < 1 for b in short)


def test_french_reference_text_scores_one_everywhere(tmp_path):
    _, rows = _treebank_scores(shared("ud", "UD_French-GSD", "fr_gsd-ud-test.conllu"), tmp_path)
    assert _failures(rows) == set()


# --- the planted fault: amod on the wrong side of its head -----------------------------------


def flip_amod(words):
    """Linearise the tree head by head, each dependent's subtree kept together, every amod dependent
    (with its subtree) put on the other side of its head, next to it; other dependents keep their side
    and order (so a projective tree without amod comes out unchanged)."""
    deprel = {w[0]: w[4].split(":")[0] for w in words}
    children = defaultdict(list)
    for w in words:
        children[w[3]].append(w[0])

    def linearise(n):
        left = [c for c in children[n] if c < n]
        right = [c for c in children[n] if c > n]
        new_left = [c for c in left if deprel[c] != "amod"] + [c for c in right if deprel[c] == "amod"]
        new_right = [c for c in left if deprel[c] == "amod"] + [c for c in right if deprel[c] != "amod"]
        out = []
        for c in new_left:
            out += linearise(c)
        out.append(n)
        for c in new_right:
            out += linearise(c)
        return out

    order = []
    for root in children[0]:
        order += linearise(root)
    assert sorted(order) == [w[0] for w in words]
    return order


def test_flip_amod_by_hand():
    # the(1) big(2) dog(3) barked(4) ; amod big -> dog moves after dog
    words = [
        (1, "the", "the", 3, "det", True),
        (2, "big", "big", 3, "amod", True),
        (3, "dog", "dog", 4, "nsubj", True),
        (4, "barked", "bark", 0, "root", True),
    ]
    assert flip_amod(words) == [1, 3, 2, 4]
    # no amod: the order is kept
    assert flip_amod([w if w[0] != 2 else (2, "big", "big", 3, "det", True) for w in words]) == [1, 2, 3, 4]
    # an amod with its own dependent (very(1) big(2) dog(3)) moves as a block
    words = [
        (1, "very", "very", 2, "advmod", True),
        (2, "big", "big", 3, "amod", True),
        (3, "dog", "dog", 0, "root", True),
    ]
    assert flip_amod(words) == [3, 1, 2]


def test_planted_amod_fault(ewt):
    wh, _, reference, tmp = ewt
    sentences = reference_sentences(reference)
    assert len(sentences) == 2077
    out, expected_tokens = [], []
    for position, s in enumerate(sentences, start=1):
        word = {w[0]: w for w in s["words"]}
        order = flip_amod(s["words"])
        out.append(" ".join(word[i][1] for i in order))
        # what the output realises: the reference words in the new order, punctuation stripped
        kept = [word[i][2] for i in order if word[i][4].split(":")[0] != "punct"]
        expected_tokens += [(position, k, lemma) for k, lemma in enumerate(kept, start=1)]
    path = write(tmp, "amod.txt", lines_output(out))
    wh.ingest_outputs(path, reference=CORPUS, team="planted", run="amod", format="lines")
    rows = wh.sql("""select relation, edges, matched, accuracy from dea_by_relation
                     where team = 'planted' order by accuracy, relation""").fetchall()
    print("\nlowest relations:", rows[:5])
    # the output tokens are the words written, with their reference lemmas
    tokens = wh.sql("""select position, stripped_position, lemma from output_tokens
                       where team = 'planted' and stripped_position is not null
                       order by position, stripped_position""").fetchall()
    assert tokens == expected_tokens
    # independent DEA from the reference edges and the words as written
    edges = wh.sql(f"""select position, dependent, head, head_lemma, dependent_lemma, distance, relation
                       from edges where corpus = '{CORPUS}' and head > 0""").fetchall()
    matched = independent_dea([e[:6] for e in edges], expected_tokens)
    per_relation = defaultdict(lambda: [0, 0])
    for position, dependent, *_, relation in edges:
        per_relation[relation][0] += 1
        per_relation[relation][1] += matched[(position, dependent)]
    assert {r: (n, m) for r, n, m, _ in rows} == {r: tuple(v) for r, v in per_relation.items()}
    for r, n, m, acc in rows:
        assert acc == m / n
    # amod is the lowest relation, far below every other
    assert rows[0][0] == "amod"
    amod = rows[0][3]
    assert amod < 0.1 and all(acc > amod + 0.3 for r, _, _, acc in rows[1:])


ACCURACY_COLUMNS = (
    "mean_ssa",
    "mean_gsa",
    "mean_sta",
    "mean_gta",
    "mean_understandability_accuracy",
    "mean_quality_accuracy",
    "mean_lemma_ssa",
    "mean_lemma_gsa",
    "mean_lemma_sta",
    "mean_lemma_gta",
)


def docs_table(heading: str, first_cell: str) -> dict[str, list[str]]:
    """Rows of the markdown table that follows ``heading`` in docs/system-outputs.md: first cell -> cells."""
    from tests.conftest import REPO

    text = (REPO / "docs" / "system-outputs.md").read_text(encoding="utf-8")
    rows, inside = {}, False
    for line in text[text.index(heading) :].splitlines():
        if line.startswith(f"| {first_cell} |"):
            inside = True
            continue
        if inside and line.startswith("|---"):
            continue
        if inside and not line.startswith("|"):
            break
        if inside:
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0]] = cells[1:]
    return rows


def test_accuracy_figures_of_the_docs(ewt):
    """docs/system-outputs.md, "String and tree accuracy": the mean accuracies of the five ADAPT runs with
    the default settings (seed 003's and the lemma-key variant's), to the printed digits."""
    wh, *_ = ewt
    got = {
        run: [f"{v:.4f}" for v in values]
        for run, *values in wh.sql(
            f"select run, {', '.join(ACCURACY_COLUMNS)} from submission_scores where team = 'adapt'"
        ).fetchall()
        if run in RUNS
    }
    assert docs_table("## String and tree accuracy", "run") == got
    # seed 003 counts punctuation and inflection, which the variant ignores: its string accuracy is lower
    assert all(float(v[0]) < float(v[6]) for v in got.values())
