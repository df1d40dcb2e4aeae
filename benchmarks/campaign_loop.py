"""The peer of issue 18's campaign row: a straightforward per-sentence Python loop computing the scores
evalhouse's warehouse gives, kept in memory, written once as JSON.

    $ python benchmarks/campaign_loop.py REFERENCE.conllu CAMPAIGN_DIR OUT.json

It reads the reference CoNLL-U and each ``CAMPAIGN_DIR/<team>/<run>/<file>`` (SR format: ``# sent_id = N``
and ``# text = ...``) with a few lines of Python, tokenises and aligns each output sentence with the same
functions as ``ingest outputs`` (:func:`evalhouse.analysis.alignment.tokenise` and ``align``, with the
lemma lexicon ``ingest outputs`` learns when the reference is the only corpus of its language: the
reference's own form-lemma pairs, :class:`evalhouse.analysis.lexicon.LemmaLexicon`, and the inflection
rules of the language its UD file name gives) and counts edits with the same
:func:`evalhouse.analysis.accuracy.edit_counts` and ``tree_counts``: the string and tree accuracies of seed
003 on the words of the output and of the reference (case-folded, punctuation kept, the whole tree, a
reference word realised by the same word aligned to it). Words are compared by the keys of issue 15: :func:`evalhouse.analysis.text.fold` of the lemma, or of the form where the lemma is
``_``; a linked output word takes its reference word's key. DEA (triples and
multiset matching in dictionaries), the punctuation-stripped reference tree and sentence BLEU (n-gram
Counters, NLTK method 2) are its own code, so the comparison in ``tests/test_bench_campaign.py`` checks the
warehouse against an independent computation.

It also computes what ``ingest outputs`` stores beside those when every reference sentence has a ``# text``:
the SR shared-task scores of each run (:func:`evalhouse.analysis.sr_metrics.sr_statistics` and ``sr_scores``
on the output texts, as the SR script scores them) and sacreBLEU's corpus BLEU and chrF (``sacrebleu``'s own
``BLEU`` and ``CHRF`` with their defaults, the references given once and cached by sacrebleu, as the
warehouse also prepares them once). Until 2026-11-24 the loop left these out: they are about a third of
the warehouse's scoring time (BENCHMARKS.md has the figures before and after). The SR numbers come from
the same ``sr_metrics`` functions on both sides, so their comparison checks storage and SQL, not the
metric itself (tests/test_sr_metrics.py checks that against NLTK).

Output: ``{"sentences": [[team, run, position, edges, matched, dea, bleu, bleu_surface, ssa, gsa, sta, gta,
understandability, quality], ...], "relations": [[team, run, relation, edges, matched], ...],
"submissions": [[team, run, sentences, edges, matched, dea, mean_dea, mean_bleu, mean_bleu_surface,
corpus_bleu, mean_ssa, mean_gsa, mean_sta, mean_gta], ...], "pooled": [[relation, submissions, edges,
matched, accuracy, mean_submission_accuracy], ...], "sr": [[team, run, bleu, nist, dist, dist_words], ...],
"sacrebleu": [[team, run, metric, score], ...]}``.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections import Counter
from pathlib import Path

from sacrebleu.metrics import BLEU, CHRF

from evalhouse.analysis import accuracy, alignment, inflection, sr_metrics
from evalhouse.analysis.lexicon import LemmaLexicon
from evalhouse.analysis.text import fold
from evalhouse.loaders.treebank import corpus_name_for


def key(lemma: str | None, form: str) -> str:
    """The word key DEA, lemma BLEU and the accuracies compare (README, "How an output word gets its lemma")."""
    return fold(form if lemma in (None, "_", "") else lemma)


class Reference:
    """One reference sentence: the words for the aligner and the punctuation-stripped tree."""

    __slots__ = ("sentence", "keys", "all_keys", "heads", "ids", "edges", "text", "tree")

    def __init__(self, ids, forms, lemmas, deprels, heads, spaces, multiword, text=None, upos=None):
        self.text = text  # the sentence's # text, or None
        self.sentence = alignment.ReferenceSentence(ids, forms, lemmas, deprels, spaces, multiword=multiword, upos=upos)
        place = {i: p for p, i in enumerate(ids, start=1)}
        self.tree = [place[h] if h else 0 for h in heads]  # the whole tree, for seed 003's tree accuracy
        punct = [d == "punct" or d.startswith("punct:") for d in deprels]
        where = {i: k for k, i in enumerate(ids)}
        kept = [k for k in range(len(ids)) if not punct[k]]
        rank = {k: r for r, k in enumerate(kept, start=1)}
        self.ids = [ids[k] for k in kept]
        self.all_keys = {i: key(lemma, form) for i, lemma, form in zip(ids, lemmas, forms)}
        self.keys = [self.all_keys[ids[k]] for k in kept]
        self.heads, self.edges = [], []
        for r, k in enumerate(kept, start=1):
            h = heads[k]
            while h and punct[where[h]]:
                h = heads[where[h]]
            head = rank[where[h]] if h else 0
            self.heads.append(head)
            if head:  # (head key, dependent key, distance, relation)
                self.edges.append((self.keys[head - 1], self.keys[r - 1], r - head, deprels[k].split(":")[0]))


def read_reference(path) -> list[Reference]:
    out, rows, mwt, text = [], [], [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if rows:
                    out.append(
                        Reference(
                            [r[0] for r in rows],
                            [r[1] for r in rows],
                            [r[2] for r in rows],
                            [r[3] for r in rows],
                            [r[4] for r in rows],
                            [r[5] for r in rows],
                            mwt,
                            text,
                            [r[6] for r in rows],
                        )
                    )
                rows, mwt, text = [], [], None
            elif line.startswith("# text = "):
                text = line[len("# text = ") :]
            elif not line.startswith("#"):
                c = line.split("\t")
                space = "SpaceAfter=No" not in c[9].split("|")
                if "-" in c[0]:
                    first, last = c[0].split("-")
                    mwt.append((int(first), int(last), c[1], space))
                elif "." not in c[0]:
                    rows.append((int(c[0]), c[1], c[2], c[7], int(c[6]), space, c[3]))
    return out


def read_outputs(path) -> dict[int, str]:
    """sent_id (a reference position) -> text of an SR-format file."""
    texts, key = {}, None
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line.startswith("# sent_id = "):
                key = int(line[len("# sent_id = ") :])
            elif line.startswith("# text = "):
                texts[key] = line[len("# text = ") :]
    return texts


def bleu_counts(hyp, ref):
    """(hypothesis length, reference length, clipped matches and totals of orders 1-4)."""
    matches, totals = [], []
    for n in range(1, 5):
        h = Counter(tuple(hyp[i : i + n]) for i in range(len(hyp) - n + 1))
        r = Counter(tuple(ref[i : i + n]) for i in range(len(ref) - n + 1))
        matches.append(sum(min(c, r[g]) for g, c in h.items()))
        totals.append(max(len(hyp) - n + 1, 0))
    return len(hyp), len(ref), matches, totals


def bleu(h, r, m, t):
    """BLEU-4 with NLTK's smoothing method 2 (add one to orders 2-4; every total at least 1)."""
    if m[0] == 0:
        return 0.0
    bp = 1.0 if h > r else math.exp(1 - r / h)
    return bp * math.exp(
        0.25 * math.log(m[0] / max(t[0], 1)) + sum(0.25 * math.log((m[n] + 1) / (max(t[n], 1) + 1)) for n in (1, 2, 3))
    )


def accuracies(c):
    if c.reference_length <= 0:
        return None, None
    simple = 1 - (c.insertions + c.deletions + c.substitutions) / c.reference_length
    general = 1 - (c.insertions + c.deletions - c.moves + c.substitutions) / c.reference_length
    return simple, general


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def learn_lexicon(refs: list[Reference]) -> LemmaLexicon:
    """The lexicon of the reference alone: its (form, lemma) pairs with a lemma, counted."""
    pairs = Counter(
        (form, lemma) for r in refs for form, lemma in zip(r.sentence.forms, r.sentence.lemmas) if lemma != "_"
    )
    return LemmaLexicon.from_pairs([(f, lemma, n) for (f, lemma), n in pairs.items()], corpora=["reference"])


def score_texts(refs: list[Reference], texts: dict[int, str], team: str, run: str, result: dict, prepared=None) -> None:
    """The SR scores and sacreBLEU's BLEU and chrF of one run (missing sentences count as empty outputs);
    ``prepared``: (SR reference, sacrebleu BLEU, sacrebleu CHRF) built once for the reference."""
    if prepared is None:
        return
    sr_reference, bleu_metric, chrf_metric = prepared
    hyps = [texts.get(pos) for pos in range(1, len(refs) + 1)]
    sr = sr_metrics.sr_scores(sr_metrics.sr_statistics(hyps, sr_reference))
    result["sr"].append([team, run, sr["bleu"], sr["nist"], sr["dist"], sr["dist_words"]])
    given = [h or "" for h in hyps]
    result["sacrebleu"] += [
        [team, run, "bleu", bleu_metric.corpus_score(given, None).score],
        [team, run, "chrf", chrf_metric.corpus_score(given, None).score],
    ]


def score_run(
    refs: list[Reference],
    texts: dict[int, str],
    team: str,
    run: str,
    result: dict,
    lexicon: LemmaLexicon | None = None,
    rules=None,
) -> None:
    sentences, relations = [], {}
    corpus = [0, 0, [0] * 4, [0] * 4]
    for pos, ref in enumerate(refs, start=1):
        text = texts.get(pos)
        toks = (
            []
            if text is None
            else alignment.align(
                alignment.tokenise(text, ref.sentence, rules), ref.sentence, lexicon=lexicon, rules=rules
            )
        )
        words = [t for t in toks if not t.punct]
        keys = [ref.all_keys[t.reference_id] if t.lemma_source == "reference" else key(t.lemma, t.form) for t in words]
        # DEA: each reference edge looked for among the stripped output positions, multiset semantics
        pairs, seen, matched = {}, Counter(), 0
        for head, dep, distance, relation in ref.edges:
            triple = (head, dep, distance)
            if triple not in pairs:
                pairs[triple] = sum(
                    1
                    for i, k in enumerate(keys)
                    if k == head and 0 <= i + distance < len(keys) and keys[i + distance] == dep
                )
            seen[triple] += 1
            hit = seen[triple] <= pairs[triple]
            matched += hit
            counts = relations.setdefault(relation, [0, 0])
            counts[0] += 1
            counts[1] += hit
        edges = len(ref.edges)
        lemma = bleu_counts(keys, ref.keys)
        surface = bleu_counts([t.form for t in toks], ref.sentence.forms)
        corpus[0] += lemma[0]
        corpus[1] += lemma[1]
        for n in range(4):
            corpus[2][n] += lemma[2][n]
            corpus[3][n] += max(lemma[3][n], 1)
        # seed 003: the words (folded, punctuation kept), the whole tree, a word realised by the same word
        forms = [fold(f) for f in ref.sentence.forms]
        said = [fold(t.form) for t in toks]
        string = accuracy.edit_counts(forms, said)
        at = {
            t.reference_id: n
            for n, (t, w) in enumerate(zip(toks, said))
            if t.reference_id is not None and w == forms[ref.sentence.position(t.reference_id)]
        }
        tree = accuracy.tree_counts(ref.tree, [at.get(i) for i in ref.sentence.ids])
        ssa, gsa = accuracies(string)
        sta, gta = accuracies(tree)
        ua = None if sta is None else 1 - (1.3147 * (1 - sta) + 0.1039 * string.substitutions) / 0.8689
        qa = None if sta is None else 1 - (1.0192 * (1 - sta) + 0.0869 * string.substitutions) / 0.6639
        sentences.append(
            [
                team,
                run,
                pos,
                edges,
                matched,
                matched / edges if edges else None,
                bleu(*lemma),
                bleu(*surface),
                ssa,
                gsa,
                sta,
                gta,
                ua,
                qa,
            ]
        )
    result["sentences"] += sentences
    result["relations"] += [[team, run, rel, e, m] for rel, (e, m) in sorted(relations.items())]
    edges = sum(s[3] for s in sentences)
    matched = sum(s[4] for s in sentences)
    result["submissions"].append(
        [team, run, len(sentences), edges, matched, matched / edges if edges else None]
        + [mean(s[k] for s in sentences) for k in (5, 6, 7)]
        + [bleu(*corpus)]
        + [mean(s[k] for s in sentences) for k in (8, 9, 10, 11)]
    )


def score_campaign(reference, directory) -> dict:
    refs = read_reference(reference)
    lexicon = learn_lexicon(refs)
    rules = inflection.for_language(corpus_name_for(reference).language)  # what the warehouse infers
    # the reference texts prepared once for every run, as the warehouse prepares them once per reference
    prepared = None
    if all(r.text is not None for r in refs):
        texts = [[r.text for r in refs]]
        prepared = (sr_metrics.sr_reference(texts[0]), BLEU(references=texts), CHRF(references=texts))
    result = {"sentences": [], "relations": [], "submissions": [], "pooled": [], "sr": [], "sacrebleu": []}
    for team in sorted(os.listdir(directory)):
        for run in sorted(os.listdir(Path(directory, team))):
            for name in sorted(os.listdir(Path(directory, team, run))):
                texts = read_outputs(Path(directory, team, run, name))
                score_run(refs, texts, team, run, result, lexicon, rules)
                score_texts(refs, texts, team, run, result, prepared)
    pooled: dict[str, list] = {}
    for _, _, rel, e, m in result["relations"]:
        p = pooled.setdefault(rel, [0, 0, 0, []])
        p[0] += 1
        p[1] += e
        p[2] += m
        p[3].append(m / e)
    result["pooled"] = [[rel, n, e, m, m / e, sum(a) / len(a)] for rel, (n, e, m, a) in sorted(pooled.items())]
    return result


if __name__ == "__main__":
    out = score_campaign(sys.argv[1], sys.argv[2])
    Path(sys.argv[3]).write_text(json.dumps(out), encoding="utf-8")
    print(f"{len(out['submissions'])} submissions, {len(out['sentences'])} sentences")
