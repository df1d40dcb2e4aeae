"""How output and reference words are compared (issue 15, parts 2, 3 and 5): one case folding for SQL and
Python (stored keys), missing lemmas, the lemma lexicon learned at ingest, the refusals, and SR files
keyed by sent_id.

Expected values are written out by hand beside each test (the keys by the Unicode definitions of
tests/test_text.py, the DEA by counting edges), never taken from evalhouse.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlglot
from sqlglot import exp
from typer.testing import CliRunner

import evalhouse
from evalhouse.analysis.text import KEY_SIGNATURE, word_key
from evalhouse.cli import app
from evalhouse.errors import InputError, OptionError, WarehouseError
from evalhouse.ingest.outputs import learn_lexicon
from evalhouse.warehouse import view_files
from tests.conftest import SAMPLE, write
from tests.test_outputs_ingest import conllu_output, sr
from tests.test_outputs_metrics import ingest_output, ingest_text, lines_output, tree

runner = CliRunner()


# --- one case folding: keys stored at ingest ---------------------------------------------------


def test_word_key_folds_the_lemma_or_the_form_where_the_lemma_is_missing():
    assert word_key("Straße", "Straßen") == "strasse"  # CaseFolding.txt: ß -> ss
    assert word_key("_", "STRASSE") == "strasse"  # missing lemma: the form
    assert word_key("", "Dog") == "dog"
    assert word_key(None, "Dog") == "dog"
    assert word_key("_", "_") == "_"  # an underscore word is itself
    assert word_key("e\u0301te\u0301", "x") == "\u00e9t\u00e9"  # NFC after folding
    assert KEY_SIGNATURE == "keys:lemma-else-form,fold:nfd-casefold-nfc"


@pytest.mark.slow
def test_no_view_folds_case_itself():
    """SQL compares keys folded in Python; DuckDB's lower() differs from fold() (tests/test_text.py)."""
    folding = [
        f.name
        for f in view_files()
        for statement in sqlglot.parse(f.text, read="duckdb")
        if statement is not None and (statement.find(exp.Lower) or statement.find(exp.Upper))
    ]
    assert folding == []


def test_only_analysis_text_folds_case():
    """fold() is the one case folding: no other module of the package calls str.casefold, and the scoring
    modules compare no lower()ed strings (the SR metrics lowercase on purpose: the shared task's script
    does; the aligner's ASCII fast path is fold()'s own)."""
    root = Path(evalhouse.__file__).resolve().parents[1]
    sources = [p for folder in ("analysis", "evalhouse", "loaders") for p in (root / folder).rglob("*.py")]
    assert len(sources) > 30
    casefold = sorted(
        str(p.relative_to(root))
        for p in sources
        if ".casefold(" in p.read_text(encoding="utf-8") and p.name != "text.py"
    )
    assert casefold == []
    scoring = [
        "analysis/alignment.py",
        "analysis/lexicon.py",
        "analysis/bleu.py",
        "analysis/accuracy.py",
        "analysis/baselines.py",
        "evalhouse/ingest/outputs.py",
        "loaders/treebank.py",
    ]
    lowered = {
        f: [
            line.strip()
            for line in (root / f).read_text(encoding="utf-8").splitlines()
            if ".lower(" in line and not line.strip().startswith("#")
        ]
        for f in scoring
    }
    assert {f: v for f, v in lowered.items() if v} == {
        "analysis/alignment.py": ["folded = chunk.lower() if chunk.isascii() else None"]
    }


def test_stored_keys_are_word_key_of_every_word(wh):
    wh.ingest_treebank([SAMPLE], corpus="sample")
    rows = wh.sql("""select e.dependent_key, e.head_key, d.lemma, d.form, h.lemma, h.form
                     from edges e join nodes d on d.corpus = e.corpus and d.position = e.position and d.id = e.dependent_id
                     left join nodes h on h.corpus = e.corpus and h.position = e.position and h.id = e.head_id""").fetchall()
    assert rows
    for dep_key, head_key, dep_lemma, dep_form, head_lemma, head_form in rows:
        assert dep_key == word_key(dep_lemma, dep_form)
        assert head_key == (None if head_form is None else word_key(head_lemma, head_form))


GERMAN = tree(
    "g1",
    """
1 Die der 2 det
2 Straße Straße 4 nsubj
3 ist sein 4 cop
4 lang lang 0 root
""",
)


def test_dea_compares_folded_keys_not_lower(wh, tmp_path):
    """A CoNLL-U output lemmatised in capitals: "STRASSE" is the lemma "Straße" under Unicode case folding,
    but DuckDB's lower() gives "strasse" and "straße". Both edges with Straße must be found."""
    ingest_text(wh, tmp_path, "de", GERMAN)
    forms = [["DIE", "STRASSE", "IST", "LANG"]]
    ingest_output(wh, tmp_path, "de", conllu_output(forms, [["DER", "STRASSE", "SEIN", "LANG"]]), fmt="conllu")
    assert wh.sql("select list(lemma_key order by token) from output_tokens").fetchone()[0] == [
        "der",
        "strasse",
        "sein",
        "lang",
    ]
    assert wh.sql("select edges, matched_edges, dea, bleu from sentence_scores").fetchone() == (3, 3, 1.0, 1.0)
    # what lower() would have compared: no match for the two edges of Straße
    assert wh.sql("select lower('STRASSE') = lower('Straße')").fetchone()[0] is False


GERMAN_PARTIAL = tree(
    "g2",
    """
1 Die der 2 det
2 Straße _ 4 nsubj
3 ist sein 4 cop
4 lang lang 0 root
""",
)


def test_alignment_dea_and_bleu_fold_case_the_same_way(wh, tmp_path):
    """One case folding everywhere: a plain-text output in capitals is aligned by fold() ("STRASSE" is a
    casefold link to "Straße", which lower() would not give), and DEA and lemma BLEU then compare the
    same folded keys, here with the lemma of "Straße" missing, so its key is its folded form. By hand:
    3 edges, all found (DEA 1); 4 identical tokens (BLEU 1)."""
    ingest_text(wh, tmp_path, "de2", GERMAN_PARTIAL)
    ingest_output(wh, tmp_path, "de2", lines_output(["DIE STRASSE IST LANG"]), fmt="lines")
    assert wh.sql("""select list(a.method order by o.token), list(o.lemma_key order by o.token)
                     from output_tokens o join alignments a on a.team = o.team and a.run = o.run
                     and a.corpus = o.corpus and a.position = o.position and a.from_index = o.token""").fetchone() == (
        ["casefold"] * 4,
        ["der", "strasse", "sein", "lang"],
    )
    assert wh.sql("select list(dependent_key order by dependent) from edges").fetchone()[0] == [
        "der",
        "strasse",
        "sein",
        "lang",
    ]
    assert wh.sql("select edges, matched_edges, dea, bleu from sentence_scores").fetchone() == (3, 3, 1.0, 1.0)
    # the folding SQL would have done instead
    assert wh.sql("select lower('STRASSE') = lower('Straße')").fetchone()[0] is False


# --- missing lemmas ------------------------------------------------------------------------------

# "The dog barks ." with the lemmas of "The" and "barks" missing, as in UD Portuguese-GSD v2.3
PARTIAL = tree(
    "p1",
    """
1 The _ 2 det
2 dog dog 3 nsubj
3 barks _ 0 root
4 . . 3 punct
""",
) + tree(
    "p2",
    """
1 Cats cat 2 nsubj
2 sleep _ 0 root
""",
)


@pytest.mark.slow
def test_missing_lemmas_are_counted_and_said_in_the_summary(tmp_path):
    db = str(tmp_path / "w.duckdb")
    r = runner.invoke(
        app, ["--db", db, "ingest", "treebank", str(write(tmp_path, "p.conllu", PARTIAL)), "--corpus", "p"]
    )
    assert r.exit_code == 0, r.output
    assert (
        "3 of 6 words (50.0%) have no lemma (LEMMA _): DEA and lemma BLEU compare them by their "
        "case-folded form" in r.output
    )
    with evalhouse.connect(db, read_only=True) as wh:
        assert wh.sql("select words, missing_lemmas from corpora").fetchone() == (6, 3)
        # the keys: folded lemma, or folded form where the lemma is missing
        assert wh.sql(
            "select list(dependent_key order by position, dependent), list(head_key order by position, "
            "dependent) from edges"
        ).fetchone() == (["the", "dog", "barks", "cat", "sleep"], ["dog", "barks", None, "sleep", None])
    r = runner.invoke(
        app,
        [
            "--db",
            db,
            "ingest",
            "outputs",
            str(write(tmp_path, "o.txt", "The dog barks .\nCats sleep\n")),
            "--reference",
            "p",
            "--team",
            "t",
            "--run",
            "r",
            "--format",
            "lines",
        ],
    )
    assert r.exit_code == 0, r.output
    assert (
        "reference p: 3 of 6 words have no lemma; DEA and lemma BLEU compare them by their case-folded form" in r.output
    )


@pytest.mark.slow
def test_a_missing_lemma_never_matches_by_itself(wh, tmp_path):
    """Before: every `_`-`_` pair matched, so the reversed "barks dog the" kept both edges of p1 (its
    stripped lemmas were _ dog _) and scored DEA 1."""
    ingest_text(wh, tmp_path, "p", PARTIAL)
    ingest_output(wh, tmp_path, "p", lines_output(["The dog barks .", "Cats sleep"]), run="same", fmt="lines")
    ingest_output(wh, tmp_path, "p", lines_output(["barks dog the", "sleep cats"]), run="reversed", fmt="lines")
    ingest_output(wh, tmp_path, "p", lines_output(["the dog bark", "cat sleeps"]), run="inflected", fmt="lines")
    got = {
        r: (e, m, d)
        for r, e, m, d in wh.sql(
            "select run, sum(edges), sum(matched_edges), avg(bleu) from sentence_scores group by run"
        ).fetchall()
    }
    assert got["same"][:2] == (3, 3)
    assert got["reversed"][:2] == (3, 0)  # det (dog, the, -1) and nsubj (barks, dog, -1): the wrong side now
    # an output word linked to a reference word takes its key, as it takes its lemma ("the" takes "The"'s
    # key, "the"; "cat" the lemma of "Cats"). "bark" and "sleeps" are linked to nothing: nothing says they
    # are forms of "barks" and "sleep", whose lemmas are missing (before issue 36 a shared prefix linked
    # them; a prefix is no evidence), so only det (dog, the) is found
    assert got["inflected"][:2] == (3, 1)
    keys = wh.sql("""select list(lemma_key order by position, token), list(lemma order by position, token)
                     from output_tokens where run = 'inflected'""").fetchone()
    assert keys == (["the", "dog", "bark", "cat", "sleeps"], ["_", "dog", "bark", "cat", "sleeps"])
    # an unlinked word keys by itself: "barked" against nothing left
    ingest_output(wh, tmp_path, "p", lines_output(["The dog barks barked .", "Cats sleep"]), run="extra", fmt="lines")
    assert wh.sql(
        "select list(lemma_key order by token) from output_tokens where run = 'extra' and position = 1"
    ).fetchone()[0] == ["the", "dog", "barks", "barked", "."]


def test_no_lemma_at_all_or_a_generation_input_is_refused(wh, tmp_path):
    ingest_text(wh, tmp_path, "ref", PARTIAL)
    no_lemmas = PARTIAL.replace("\tdog\tX", "\t_\tX").replace("\tcat\tX", "\t_\tX").replace("\t.\tPUNCT", "\t_\tPUNCT")
    assert "\tdog\tX" not in no_lemmas
    ingest_text(wh, tmp_path, "bare", no_lemmas)
    with pytest.raises(WarehouseError, match="reference corpus 'bare' has no lemmas \\(LEMMA is _ for all 6 words\\)"):
        ingest_output(wh, tmp_path, "bare", lines_output(["The dog barks .", "Cats sleep"]), fmt="lines")
    # a generation input (lemmas in FORM, shuffled), registered with input_of
    inputs = tree("i1", "1 dog dog 3 nsubj\n2 the the 1 det\n3 bark bark 0 root\n4 . . 3 punct") + tree(
        "i2", "1 sleep sleep 0 root\n2 cat cat 1 nsubj"
    )
    wh.ingest_treebank([write(tmp_path, "in.conllu", inputs)], corpus="ref-input", input_of="ref")
    with pytest.raises(
        WarehouseError, match="corpus 'ref-input' is the generation input of 'ref'.*score outputs against 'ref'"
    ):
        ingest_output(wh, tmp_path, "ref-input", lines_output(["the dog barks .", "cats sleep"]), fmt="lines")
    assert wh.sql("select count(*) from submissions").fetchone()[0] == 0


def test_refusal_exits_3_on_the_command_line(tmp_path):
    db = str(tmp_path / "w.duckdb")
    bare = PARTIAL.replace("\tdog\tX", "\t_\tX").replace("\tcat\tX", "\t_\tX").replace("\t.\tPUNCT", "\t_\tPUNCT")
    assert (
        runner.invoke(
            app, ["--db", db, "ingest", "treebank", str(write(tmp_path, "b.conllu", bare)), "--corpus", "b", "-q"]
        ).exit_code
        == 0
    )
    r = runner.invoke(
        app,
        [
            "--db",
            db,
            "ingest",
            "outputs",
            str(write(tmp_path, "o.txt", "a\nb\n")),
            "--reference",
            "b",
            "--team",
            "t",
            "--run",
            "r",
        ],
    )
    assert r.exit_code == 3 and "has no lemmas" in r.output


# --- the lemma lexicon -----------------------------------------------------------------------------

REFERENCE = tree(
    "r1",
    """
1 They they 3 nsubj
2 were be 3 cop
3 happy happy 0 root
""",
)
TRAINING = tree(
    "t1",
    """
1 He he 3 nsubj
2 was be 3 cop
3 sad sad 0 root
""",
) + tree(
    "t2",
    """
1 Dogs dog 2 nsubj
2 ran run 0 root
""",
)


def test_lexicon_from_the_treebanks_of_the_language_links_inflections(wh, tmp_path):
    wh.ingest_treebank([write(tmp_path, "en_x-ud-test.conllu", REFERENCE)])  # en_x-test, language en
    wh.ingest_treebank([write(tmp_path, "en_x-ud-train.conllu", TRAINING)])  # en_x-train, language en
    wh.ingest_treebank(
        [write(tmp_path, "fr.conllu", tree("f1", "1 était être 0 root"))], corpus="fr_x-train", language="fr"
    )
    ingest_output(wh, tmp_path, "en_x-test", "They was happy\n", run="lexicon", fmt="lines")
    ingest_output(wh, tmp_path, "en_x-test", "They was happy\n", run="plain", fmt="lines", lexicon=False)
    rows = dict(
        wh.sql("""select o.run, list(a.method order by o.token) from output_tokens o join alignments a
                          on a.team = o.team and a.run = o.run and a.corpus = o.corpus and a.position = o.position
                          and a.from_index = o.token group by o.run""").fetchall()
    )
    assert rows == {"lexicon": ["exact", "lexicon", "exact"], "plain": ["exact", "unaligned", "exact"]}
    dea = dict(wh.sql("select run, dea from sentence_scores").fetchall())
    assert dea == {"lexicon": 1.0, "plain": 0.5}  # cop (happy, be, -1) needs "was" to carry the lemma be
    config = dict(wh.sql("select run, configuration from submissions").fetchall())
    # the lexicon: both English corpora (4 forms with a lemma pair each... counted below), not the French one
    assert (
        "|lexicon:corpora=en_x-test+en_x-train,forms=8,pairs=8,min-count=1,fold:nfd-casefold-nfc|" in config["lexicon"]
    )
    assert "|lexicon:none|" in config["plain"]
    assert "|" + KEY_SIGNATURE + "|" in config["lexicon"]
    methods = {
        (r, m): (t, s)
        for r, m, t, s in wh.sql("select run, method, words, word_share from alignment_methods").fetchall()
    }
    assert methods[("lexicon", "lexicon")] == (1, 1 / 3) and methods[("plain", "lexicon")] == (0, 0.0)


def test_lexicon_leaves_out_generation_inputs_and_counts_min_count(wh, tmp_path):
    wh.ingest_treebank([write(tmp_path, "en_x-ud-test.conllu", REFERENCE)])
    # an input corpus whose LEMMA column does say was -> be: registered as an input, it teaches nothing
    wh.ingest_treebank(
        [write(tmp_path, "in.conllu", tree("i1", "1 happy happy 0 root\n2 was be 1 cop\n3 they they 1 nsubj"))],
        corpus="en_x-input",
        language="en",
        input_of="en_x-test",
    )
    lex = learn_lexicon(wh.con, "en_x-test")
    assert lex.corpora == ("en_x-test",) and lex.lemmas_of("was") == frozenset()
    assert lex.lemmas_of("WERE") == frozenset({"be"})
    wh.ingest_treebank([write(tmp_path, "en_x-ud-train.conllu", TRAINING)])
    assert learn_lexicon(wh.con, "en_x-test").lemmas_of("was") == frozenset({"be"})
    assert learn_lexicon(wh.con, "en_x-test", min_count=2).forms == 0  # every pair is seen once
    with pytest.raises(OptionError, match="lexicon_min_count"):
        ingest_output(wh, tmp_path, "en_x-test", "They was happy\n", fmt="lines", lexicon_min_count=0)


def test_reference_without_a_language_learns_from_itself_alone(wh, tmp_path):
    ingest_text(wh, tmp_path, "plain", REFERENCE)
    wh.ingest_treebank([write(tmp_path, "en_x-ud-train.conllu", TRAINING)])
    assert learn_lexicon(wh.con, "plain").corpora == ("plain",)


# --- --format sr: sent_ids or positions ------------------------------------------------------------

THREE = tree("a", "1 One one 0 root") + tree("b", "1 Two two 0 root") + tree("c", "1 Three three 0 root")


@pytest.mark.slow
def test_sr_format_accepts_reference_sent_ids(wh, tmp_path):
    ingest_text(wh, tmp_path, "three", THREE)
    ingest_output(wh, tmp_path, "three", sr({"c": "Three", "a": "One"}), run="ids", fmt="sr")
    ingest_output(wh, tmp_path, "three", sr({3: "Three", 1: "One"}), run="positions", fmt="sr")
    for run in ("ids", "positions"):
        assert wh.sql(
            f"select list(text order by position), list(missing order by position) from output_sentences "
            f"where run = '{run}'"
        ).fetchone() == (["One", None, "Three"], [False, True, False])
    with pytest.raises(
        InputError,
        match="mixed.txt:4: unknown sent_id '2': the file's sent_ids are reference sent_ids, and this is not one",
    ):
        ingest_output(wh, tmp_path, "three", sr({"a": "One", 2: "Two", "c": "Three"}), run="mixed", fmt="sr")
    with pytest.raises(InputError, match="unknown sent_id '9': the file's sent_ids are reference positions"):
        ingest_output(wh, tmp_path, "three", sr({1: "One", 9: "Two"}), run="beyond", fmt="sr")


def test_sr_format_refuses_sent_ids_that_read_both_ways(wh, tmp_path):
    swapped = tree("2", "1 One one 0 root") + tree("1", "1 Two two 0 root")
    ingest_text(wh, tmp_path, "swapped", swapped)
    with pytest.raises(
        InputError,
        match="sent_id '1' is ambiguous: it is the sent_id of reference sentence 2 and the "
        "position of reference sentence 1",
    ):
        ingest_output(wh, tmp_path, "swapped", sr({1: "Two", 2: "One"}), fmt="sr")
    # the same keys in the same places read the same both ways: accepted
    same = tree("1", "1 One one 0 root") + tree("2", "1 Two two 0 root")
    ingest_text(wh, tmp_path, "same", same)
    ingest_output(wh, tmp_path, "same", sr({1: "One", 2: "Two"}), fmt="sr")
