"""The reference scored against itself is perfect, on every treebank in ../shared/data (issues 15 and 36).

Each reference sentence is realised in every tokenisation a realiser can produce, and must come back
as itself:

(a) its syntactic words separated by spaces ("ir a o ar a emissora" for "ir ao ar a emissora");
(b) its ``# text``;
(c) its ``# text`` lower-cased;
(d) its surface tokens (multiword tokens and the words outside them) as the text writes them, with a
    space before and after every punctuation mark (a token whose words all have relation punct, or
    whose characters are all Unicode punctuation): "GoogleOS ?", "full - fledged";
(e) its surface tokens separated by spaces: its words with the multiword tokens contracted.

Each treebank is used as it is and with **generated contractions** (:func:`contract`): every run of
two or three words that the treebank writes glued together between word characters ("do" + "n't",
"I" + "'m", Japanese 連続 + で + ある) becomes a multiword token, as the current English-EWT writes
"I'm" and "don't". So surfaces repeat, and are also plain words, far more often than in the files.

After reference-guided tokenisation and alignment (with what ``ingest outputs`` uses: the lemma lexicon
learned from the treebank itself, the words' parts of speech and, for English, the English rules),
output word k must be linked to reference word k and carry its lemma. Through the warehouse the same
realisations must score DEA 1 on every sentence with an edge, SSA, GSA, STA and GTA 1 (seed 003's and
the lemma-key variant's) and lemma BLEU equal to NLTK's value for the identical pair (below 1 under
four words). A shuffled reference (syntactic words, or surface tokens, in a seeded random order) must
link every reference word exactly once.

Before issue 15 (aligner evalhouse-align:1), realisation (a) linked some word to another word on 476 of
1,200 pt_gsd sentences, 98 fr_gsd, 93 es_gsd, 39 en_gum, 24 en_ewt (current), 6 id_gsd and 97 of the
CoNLL 2018 fr_gsd gold. Issue 36 found four failures left on held-out UD v2.3 and v2.7 files (ja_gsd
連続|で|ある read as 連続|である, an en_ewt "I'm" twice with crossing links), which the hand-built and
generated cases of tests/test_alignment.py reproduce. All of these are zero now.

Skipped loudly (``REAL DATA MISSING``) when ../shared/data is absent.
"""

from __future__ import annotations

import csv
import random
import unicodedata
from functools import lru_cache
from pathlib import Path

import pytest

import evalhouse
from evalhouse.analysis import inflection
from evalhouse.analysis.alignment import ReferenceSentence, align, tokenise
from evalhouse.analysis.lexicon import LemmaLexicon
from tests.conftest import SHARED_DATA, shared, write
from tests.test_outputs_metrics import nltk_bleu, reference_sentences

pytestmark = pytest.mark.realdata

TREEBANKS = [
    "ud/UD_Chinese-GSD/zh_gsd-ud-test.conllu",
    "ud/UD_English-EWT/en_ewt-ud-test.conllu",
    "ud/UD_English-GUM/en_gum-ud-test.conllu",
    "ud/UD_French-GSD/fr_gsd-ud-test.conllu",
    "ud/UD_Indonesian-GSD/id_gsd-ud-test.conllu",
    "ud/UD_Japanese-GSD/ja_gsd-ud-test.conllu",
    "ud/UD_Korean-GSD/ko_gsd-ud-test.conllu",
    "ud/UD_Portuguese-GSD/pt_gsd-ud-test.conllu",
    "ud/UD_Russian-GSD/ru_gsd-ud-test.conllu",
    "ud/UD_Spanish-GSD/es_gsd-ud-test.conllu",
    "ud-v2.3/en_ewt-ud-test.conllu",
    "parsing/conll2018/gold/en_ewt.conllu",
    "parsing/conll2018/gold/fr_gsd.conllu",
    "parsing/conll2018/gold/zh_gsd.conllu",
]
REALISATIONS = "abcde"
VARIANTS = ("as-is", "contracted")


def test_every_treebank_is_tested():
    """A treebank added to ../shared/data must be added to TREEBANKS."""
    shared("ud")
    found = {
        str(p.relative_to(SHARED_DATA))
        for pattern in ("ud/*/*.conllu", "ud-v2.3/*.conllu", "parsing/conll2018/gold/*.conllu")
        for p in SHARED_DATA.glob(pattern)
    }
    assert found == set(TREEBANKS)


def language(treebank: str) -> str:
    return Path(treebank).name.split("_")[0].split("-")[0]


def _glued(form: str, following: str) -> bool:
    return (
        bool(form)
        and bool(following)
        and unicodedata.category(form[-1])[0] in "LMN"
        and (unicodedata.category(following[0])[0] in "LMN" or following[0] in "'\u2019")
    )


def contract(text: str) -> str:
    """The CoNLL-U ``text`` with generated contractions: in each sentence, every run of two or three words
    outside the multiword tokens, written without a space between a word character and a word character
    (or an apostrophe), becomes a multiword token; its space after is its last word's."""
    out = []
    for block in text.split("\n\n"):
        lines = block.split("\n")
        words = [
            (k, line.split("\t"))
            for k, line in enumerate(lines)
            if line and not line.startswith("#") and line.split("\t")[0].isdigit()
        ]
        inside = set()
        for line in lines:
            cols = line.split("\t")
            if len(cols) == 10 and "-" in cols[0]:
                a, b = map(int, cols[0].split("-"))
                inside.update(range(a, b + 1))
        ranges, k = {}, 0
        while k < len(words) - 1:
            run = [k]
            while len(run) < 3 and run[-1] + 1 < len(words):
                last, nxt = words[run[-1]][1], words[run[-1] + 1][1]
                if (
                    int(last[0]) in inside
                    or int(nxt[0]) in inside
                    or int(nxt[0]) != int(last[0]) + 1
                    or "SpaceAfter=No" not in last[9].split("|")
                    or not _glued(last[1], nxt[1])
                ):
                    break
                run.append(run[-1] + 1)
            if len(run) > 1:
                ranges[words[run[0]][0]] = [words[r] for r in run]
                k = run[-1] + 1
            else:
                k += 1
        new = []
        for k, line in enumerate(lines):
            if k in ranges:
                members = ranges[k]
                first, last = members[0][1][0], members[-1][1][0]
                misc = "SpaceAfter=No" if "SpaceAfter=No" in members[-1][1][9].split("|") else "_"
                new.append("\t".join([f"{first}-{last}", "".join(m[1][1] for m in members)] + ["_"] * 7 + [misc]))
            cols = line.split("\t")
            if len(cols) == 10 and cols[0].isdigit() and any(cols[0] == m[1][0] for r in ranges.values() for m in r):
                cols[9] = "|".join(f for f in cols[9].split("|") if f != "SpaceAfter=No") or "_"
                line = "\t".join(cols)
            new.append(line)
        out.append("\n".join(new))
    return "\n\n".join(out)


@lru_cache(maxsize=None)
def conllu(treebank: str, variant: str) -> str:
    text = shared(*treebank.split("/")).read_text(encoding="utf-8")
    return contract(text) if variant == "contracted" else text


@lru_cache(maxsize=None)
def treebank_sentences(treebank: str, variant: str) -> list[dict]:
    """Sentences of :func:`reference_sentences`, with each word's UPOS."""
    text = conllu(treebank, variant)
    sentences = reference_sentences_of(text)
    for s, tags in zip(sentences, upos_of(text)):
        s["upos"] = tags
    return sentences


def reference_sentences_of(text: str) -> list[dict]:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".conllu", encoding="utf-8", delete=False) as f:
        f.write(text)
    try:
        return reference_sentences(f.name)
    finally:
        Path(f.name).unlink()


def upos_of(text: str) -> list[list[str]]:
    """The UPOS of the syntactic words of each sentence of a CoNLL-U text."""
    out, cur = [], []
    for line in text.split("\n"):
        if not line.strip():
            if cur:
                out.append(cur)
            cur = []
        elif not line.startswith("#"):
            cols = line.split("\t")
            if cols[0].isdigit():
                cur.append(cols[3])
    if cur:
        out.append(cur)
    return out


def reference(s: dict) -> ReferenceSentence:
    w = s["words"]
    return ReferenceSentence(
        [x[0] for x in w],
        [x[1] for x in w],
        [x[2] for x in w],
        [x[4] for x in w],
        [x[5] for x in w],
        multiword=list(s["mwt"]),
        upos=s.get("upos"),
    )


def surface_tokens(s: dict) -> list[tuple[str, bool, bool]]:
    """(form, space after, punctuation) of each surface token: multiword tokens and the words outside."""
    mwt = {a: (b, form, space) for a, b, form, space in s["mwt"]}
    deprel = {w[0]: w[4].split(":")[0] for w in s["words"]}
    out, skip = [], 0
    for wid, form, _, _, _, space in s["words"]:
        if wid <= skip:
            continue
        ids = [wid]
        if wid in mwt:
            skip, form, space = mwt[wid]
            ids = [i for i in range(wid, skip + 1) if i in deprel]
        punct = all(deprel[i] == "punct" for i in ids) or all(unicodedata.category(c)[0] == "P" for c in form)
        out.append((form, space, punct))
    return out


def realise(s: dict, kind: str) -> str:
    if kind == "a":
        return " ".join(w[1] for w in s["words"])
    if kind == "b":
        return s["text"]
    if kind == "c":
        return s["text"].lower()
    tokens = surface_tokens(s)
    if kind == "e":
        return " ".join(t[0] for t in tokens)
    text = ""
    for k, (form, space, punct) in enumerate(tokens):
        after = k + 1 < len(tokens) and tokens[k + 1][2]
        text += form + (" " if space or punct or after else "")
    return text.strip()


def _lexicon(sentences: list[dict]) -> LemmaLexicon:
    """The lexicon ingest learns when the treebank is the only corpus of its language."""
    return LemmaLexicon.from_pairs(((w[1], w[2], 1) for s in sentences for w in s["words"]), corpora=["self"])


def _case(treebank: str, variant: str):
    sentences = treebank_sentences(treebank, variant)
    return sentences, _lexicon(sentences), inflection.for_language(language(treebank))


def _ids(treebank: str) -> str:
    return treebank.split("/")[-1].split(".")[0]


CASES = [(t, v) for t in TREEBANKS for v in VARIANTS]


def test_generated_contractions():
    """ "do" + "n't" glued in UD v2.3 EWT become the multiword token "don't"; Japanese runs of two or three
    glued words become tokens; a treebank that glues words only to punctuation (Russian) gets none."""

    def tokens(treebank, variant):
        return [m for s in treebank_sentences(treebank, variant) for m in s["mwt"]]

    ewt = tokens("ud-v2.3/en_ewt-ud-test.conllu", "contracted")
    assert tokens("ud-v2.3/en_ewt-ud-test.conllu", "as-is") == [] and len(ewt) > 300
    assert sum(m[2].lower() == "don't" for m in ewt) > 20 and all(m[1] - m[0] <= 2 for m in ewt)
    assert len(tokens("ud/UD_Japanese-GSD/ja_gsd-ud-test.conllu", "contracted")) > 1000
    assert tokens("ud/UD_Russian-GSD/ru_gsd-ud-test.conllu", "contracted") == []


@pytest.mark.parametrize("treebank, variant", CASES, ids=[f"{_ids(t)}-{v}" for t, v in CASES])
def test_reference_realised_as_itself_links_every_word_to_itself(treebank, variant):
    sentences, lexicon, rules = _case(treebank, variant)
    wrong: dict[str, list[int]] = {kind: [] for kind in REALISATIONS}
    for n, s in enumerate(sentences, start=1):
        ids = [w[0] for w in s["words"]]
        lemmas = [w[2] for w in s["words"]]
        for kind in REALISATIONS:
            ref = reference(s)
            out = align(tokenise(realise(s, kind), ref, rules), ref, lexicon=lexicon, rules=rules)
            if [t.reference_id for t in out] != ids or [t.lemma for t in out] != lemmas:
                wrong[kind].append(n)
    assert {k: v[:10] for k, v in wrong.items() if v} == {}


@pytest.mark.parametrize("treebank", TREEBANKS, ids=_ids)
def test_shuffled_reference_links_every_word_once(treebank):
    rng = random.Random(15)
    sentences, lexicon, rules = _case(treebank, "as-is")
    wrong: dict[str, list[int]] = {"words": [], "tokens": []}
    for n, s in enumerate(sentences, start=1):
        ids = [w[0] for w in s["words"]]
        for kind, pieces in (("words", [w[1] for w in s["words"]]), ("tokens", [t[0] for t in surface_tokens(s)])):
            rng.shuffle(pieces)
            ref = reference(s)
            out = align(tokenise(" ".join(pieces), ref, rules), ref, lexicon=lexicon, rules=rules)
            linked = [t.reference_id for t in out]
            if None in linked or sorted(linked) != ids:
                wrong[kind].append(n)
    assert {k: v[:10] for k, v in wrong.items() if v} == {}


@pytest.mark.parametrize("treebank, variant", CASES, ids=[f"{_ids(t)}-{v}" for t, v in CASES])
def test_realisations_score_one_through_the_warehouse(treebank, variant, tmp_path):
    """Every realisation, ingested as five runs in one transaction with the defaults: DEA 1 on every
    sentence with an edge; SSA, GSA, STA, GTA 1 and their lemma-key variants 1; lemma BLEU = NLTK's value
    for the identical pair (below 1 under four words)."""
    sentences = treebank_sentences(treebank, variant)
    path = write(tmp_path, Path(treebank).name, conllu(treebank, variant))  # the UD name gives the language
    manifest = tmp_path / "runs.csv"
    with open(manifest, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["path", "team", "run", "format"])
        for kind in REALISATIONS:
            out = tmp_path / f"{kind}.txt"
            out.write_text("".join(realise(s, kind) + "\n" for s in sentences), encoding="utf-8")
            writer.writerow([out, "reference", kind, "lines"])
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([path], corpus="ref", language=language(treebank))
        wh.ingest_outputs(manifest=manifest, reference="ref", sacrebleu=False)  # not under test here: 40% of the CPU
        rows = wh.sql("""select s.run, s.position, s.edges, s.dea, s.bleu,
                                [s.ssa, s.gsa, s.sta, s.gta, s.lemma_ssa, s.lemma_gsa, s.lemma_sta, s.lemma_gta],
                                list(lower(e.dependent_lemma) order by e.dependent)
                         from sentence_scores s join edges e on e.corpus = s.corpus and e.position = s.position
                         group by all""").fetchall()
        configuration = wh.sql("select any_value(configuration) from submissions").fetchone()[0]
    assert len(rows) == len(REALISATIONS) * len(sentences)
    assert ("inflection:en-regular" in configuration) == (language(treebank) == "en")
    identical: dict[int, float] = {}
    wrong: dict[str, list[int]] = {kind: [] for kind in REALISATIONS}
    for run, position, edges, dea, bleu, accuracies, lemmas in rows:
        if len(lemmas) not in identical:
            identical[len(lemmas)] = nltk_bleu(lemmas, lemmas)
        if (
            (edges and dea != 1)
            or abs(bleu - identical[len(lemmas)]) > 1e-12
            or any(a is not None and a != 1 for a in accuracies)
            or accuracies[0] is None
        ):
            wrong[run].append(position)
    assert {k: sorted(v)[:10] for k, v in wrong.items() if v} == {}
