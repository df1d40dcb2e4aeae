"""Missing lemmas and generation inputs on real data (issue 15, part 3), read in place from ../shared/data.

* UD v2.3 en_ewt test with the lemmas of a seeded half of its words blanked (``_``) in a temporary copy:
  a random-order baseline scores about its DEA on the intact treebank. When ``_`` matched ``_`` (the
  keys before issue 15), the same baseline output would score several times higher; that value is
  computed here independently from the stored tokens, to show what the test guards against.
* The current UD Portuguese-GSD test, which itself lacks 5,869 of its 31,477 lemmas: the count is stored
  and the random baseline is not inflated.
* The SR'19 shallow-track inputs (``sr19/T1-test``, lemmas in FORM and LEMMA ``_``): registered as the
  input of their reference they cannot be scored against, nor can those without any lemma.

Skipped loudly (``REAL DATA MISSING``) when ../shared/data is absent.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

import evalhouse
from evalhouse.errors import WarehouseError
from evalhouse.ingest.baselines import run_baseline
from evalhouse.analysis.text import word_key
from tests.conftest import shared, write
from tests.treebank_snapshots import REAL_TREEBANKS
from tests.test_outputs_metrics import independent_dea

pytestmark = pytest.mark.realdata


def blank_lemmas(text: str, share: float, seed: int) -> tuple[str, int]:
    """The treebank with the LEMMA of a random ``share`` of its words replaced by ``_``."""
    rng = random.Random(seed)
    lines, blanked = [], 0
    for line in text.split("\n"):
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit() and cols[2] != "_" and rng.random() < share:
            cols[2] = "_"
            blanked += 1
        lines.append("\t".join(cols))
    return "\n".join(lines), blanked


def old_dea(wh, team: str, run: str, corpus: str) -> float:
    """Pooled DEA with the keys before issue 15 (lemmas lower-cased, ``_`` equal to ``_``), computed from
    the stored tokens and edges by tests/test_outputs_metrics.independent_dea."""
    edges = wh.sql(
        """select position, dependent, head, head_lemma, dependent_lemma, distance from edges
                      where corpus = $c and head > 0""",
        {"c": corpus},
    ).fetchall()
    tokens = wh.sql(
        """select position, stripped_position, lemma from output_tokens
                       where team = $t and run = $r and corpus = $c and stripped_position is not null""",
        {"t": team, "r": run, "c": corpus},
    ).fetchall()
    matched = independent_dea(edges, tokens)
    return sum(matched.values()) / len(matched)


def test_blanked_lemmas_do_not_inflate_a_random_baseline(tmp_path):
    source = shared("ud-v2.3", "en_ewt-ud-test.conllu")
    text, blanked = blank_lemmas(source.read_text(encoding="utf-8"), 0.5, seed=15)
    copy = write(tmp_path, "en_ewt-ud-test.conllu", text)
    with evalhouse.connect(":memory:") as wh:
        [intact] = wh.ingest_treebank([source], corpus="intact")
        [half] = wh.ingest_treebank([copy], corpus="blanked")
        assert intact.missing_lemmas == 0 and half.missing_lemmas == blanked > 10_000
        assert wh.sql("select missing_lemmas from corpora where corpus = 'blanked'").fetchone()[0] == blanked
        dea = {}
        for corpus in ("intact", "blanked"):
            run_baseline(wh, "random", corpus, seed=1)
            run_baseline(wh, "lr", corpus)
            dea.update(
                {
                    (corpus, r): d
                    for r, d in wh.sql(
                        "select run, dea from submission_scores where corpus = $c", {"c": corpus}
                    ).fetchall()
                }
            )
        before = old_dea(wh, "baseline", "random", "blanked")
    print(
        f"\nrandom baseline DEA: intact {dea['intact', 'random']:.4f}, half the lemmas blanked "
        f"{dea['blanked', 'random']:.4f} (with _ matching _: {before:.4f}); lr: intact {dea['intact', 'lr']:.4f}, "
        f"blanked {dea['blanked', 'lr']:.4f}"
    )
    # the same word order scores about the same whether the lemmas are there or not
    assert abs(dea["blanked", "random"] - dea["intact", "random"]) < 0.01
    assert dea["blanked", "random"] < 0.12
    assert abs(dea["blanked", "lr"] - dea["intact", "lr"]) < 0.03
    # what the test guards against: _ matching _ made the random order look several times better
    assert before > 3 * dea["blanked", "random"]


def test_a_treebank_with_missing_lemmas(tmp_path):
    """UD Portuguese-GSD (current test split) has words without a lemma: counted, and they do not match."""
    path = shared("ud", "UD_Portuguese-GSD", "pt_gsd-ud-test.conllu")
    missing = sum(
        1
        for line in path.read_text(encoding="utf-8").split("\n")
        if len(cols := line.split("\t")) == 10 and cols[0].isdigit() and cols[2] == "_" and cols[1] != "_"
    )
    with evalhouse.connect(":memory:") as wh:
        [summary] = wh.ingest_treebank([path])
        assert summary.missing_lemmas == missing > 1000
        run_baseline(wh, "random", summary.corpus, seed=1)
        dea = wh.sql("select dea from submission_scores").fetchone()[0]
        before = old_dea(wh, "baseline", "random", summary.corpus)
    print(
        f"\npt_gsd: {missing:,} words without a lemma; random baseline DEA {dea:.4f} (with _ matching _: {before:.4f})"
    )
    assert dea < 0.12 and before > 2 * dea


@pytest.mark.parametrize("rel", REAL_TREEBANKS)
def test_keys_and_missing_lemmas_of_every_real_treebank(rel):
    """The streaming loader's keys and missing-lemma count against an independent computation from the
    file: missing = words with LEMMA _ and FORM not _; each edge's keys = word_key(lemma, form) of its
    dependent and head node (read from the file, joined on the stored node ids)."""
    path = shared(*rel.split("/"))
    words: dict[tuple[int, int], tuple[str, str]] = {}
    missing, position = 0, 0
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        rows = [line.split("\t") for line in block.split("\n") if line and not line.startswith("#")]
        if not rows:
            continue
        position += 1
        for cols in rows:
            if cols[0].isdigit():
                words[position, int(cols[0])] = (cols[2], cols[1])
                missing += cols[2] == "_" and cols[1] != "_"
    with evalhouse.connect(":memory:") as wh:
        [s] = wh.ingest_treebank([path], corpus="c")
        assert s.missing_lemmas == missing
        assert wh.sql("select missing_lemmas from corpora").fetchone()[0] == missing
        rows = wh.sql("select position, dependent_id, head_id, dependent_key, head_key from edges").fetchall()
    assert len(rows) > 1000
    wrong = [
        r
        for r in rows
        if r[3] != word_key(*words[r[0], r[1]]) or r[4] != (None if r[2] == 0 else word_key(*words[r[0], r[2]]))
    ]
    assert wrong[:5] == []


@pytest.fixture(scope="module")
def sr19(tmp_path_factory):
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([shared("ud-v2.3", "en_ewt-ud-test.conllu")], corpus="en_ewt-test")
        [t1] = wh.ingest_treebank(
            [shared("sr19", "T1-test", "en_ewt-ud-test.conllu")], corpus="en_ewt-test-t1", input_of="en_ewt-test"
        )
        others = wh.ingest_treebank([shared("sr19", "T1-test", f"{t}-ud-test.conllu") for t in ("fr_gsd", "zh_gsd")])
        yield wh, t1, others


def test_sr19_shallow_inputs_have_no_lemmas(sr19):
    _, t1, others = sr19
    for s in [t1, *others]:
        assert s.missing_lemmas == s.words > 0, s.corpus
        assert "outputs cannot be scored against this corpus" in s.missing_lemmas_note


def test_scoring_against_an_sr19_input_is_refused(sr19, tmp_path):
    wh, _, others = sr19
    run = shared("sr-outputs", "adapt-ewt-test", "augmented_and_ewt_test_set_13-Oct_12-07", "en_out.txt")
    with pytest.raises(WarehouseError, match="'en_ewt-test-t1' is the generation input of 'en_ewt-test'"):
        wh.ingest_outputs(run, reference="en_ewt-test-t1", team="adapt", run="1")
    for s in others:  # fr_gsd-test, zh_gsd-test: ingested without `input_of`, refused for having no lemma
        language = s.corpus.split("-")[0]
        template = shared("sr19", "output-templates", f"{language}.txt")
        with pytest.raises(WarehouseError, match=f"reference corpus '{s.corpus}' has no lemmas"):
            wh.ingest_outputs(template, reference=s.corpus, team="template", run="1")
    assert wh.sql("select count(*) from submissions").fetchone()[0] == 0
    # against the reference it encodes, the run is scored, and the input taught the lexicon nothing
    [summary] = wh.ingest_outputs(run, reference="en_ewt-test", team="adapt", run="1", sacrebleu=False)
    assert "lexicon:corpora=en_ewt-test," in summary.configuration


def test_lexicon_links_inflections_of_the_real_runs(tmp_path):
    """The ADAPT augmented run with and without the lexicon (learned from the reference alone here):
    fewer unaligned tokens, the new links mostly forms of be, have and do, and cop and aux recover."""
    run = shared("sr-outputs", "adapt-ewt-test", "augmented_and_ewt_test_set_13-Oct_12-07", "en_out.txt")
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([shared("ud-v2.3", "en_ewt-ud-test.conllu")], corpus="en_ewt-test")
        wh.ingest_outputs(run, reference="en_ewt-test", team="adapt", run="lexicon", sacrebleu=False)
        wh.ingest_outputs(run, reference="en_ewt-test", team="adapt", run="none", sacrebleu=False, lexicon=False)
        methods = defaultdict(dict)
        for r, m, tokens in wh.sql("select run, method, tokens from alignment_methods").fetchall():
            methods[r][m] = tokens
        lemmas = dict(
            wh.sql("""select o.lemma, count(*) from output_tokens o join alignments a on a.team = o.team
                                and a.run = o.run and a.corpus = o.corpus and a.position = o.position
                                and a.from_index = o.token where a.method = 'lexicon' group by 1""").fetchall()
        )
        relations = {
            (r, rel): acc
            for r, rel, acc in wh.sql(
                "select run, relation, accuracy from dea_by_relation where relation in ('cop', 'aux')"
            ).fetchall()
        }
        both = wh.sql("""select count(*) from sentence_scores a join sentence_scores b using (position)
                         where a.run = 'none' and b.run = 'lexicon' and b.dea < a.dea""").fetchone()[0]
    print(
        f"\nunaligned {methods['none']['unaligned']} -> {methods['lexicon']['unaligned']}; lexicon links "
        f"{methods['lexicon']['lexicon']} (be/have/do {sum(lemmas.get(x, 0) for x in ('be', 'have', 'do'))}); "
        f"cop {relations['none', 'cop']:.3f} -> {relations['lexicon', 'cop']:.3f}, "
        f"aux {relations['none', 'aux']:.3f} -> {relations['lexicon', 'aux']:.3f}; {both} sentences lose DEA"
    )
    assert methods["none"]["lexicon"] == 0
    assert methods["lexicon"]["unaligned"] < methods["none"]["unaligned"] / 3
    assert sum(lemmas.get(x, 0) for x in ("be", "have", "do")) > 0.6 * methods["lexicon"]["lexicon"]
    assert relations["lexicon", "cop"] > relations["none", "cop"] + 0.05
    assert relations["lexicon", "aux"] > relations["none", "aux"] + 0.03
