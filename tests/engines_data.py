"""A small warehouse of real data for the engine tests (Spark, PostgreSQL) and the BI test.

Real inputs from ../shared/data: the first sentences of UD v2.3 en_ewt test with the ADAPT system's
SR'19 output for them, the first sentences of UD French-GSD, ten WSJ trees with two parsers' parses,
UDPipe-Future's fr_gsd parse scored against gold; plus the hand-written pronoun fixture of
tests/data/pronouns so that the pronoun views have rows too, and synthetic human judgements of the
first ADAPT run (there are no public ones) so that the judgement views have rows.
"""

from __future__ import annotations

from pathlib import Path

import evalhouse
from tests.conftest import shared
from tests.test_pronouns import ingest_fixture

SENTENCES = 300


def head_sentences(src: Path, dst: Path, n: int) -> Path:
    """The first ``n`` blank-line-separated blocks of a CoNLL-U or SR output file."""
    blocks, current = [], []
    with open(src, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                current.append(line)
            elif current:
                blocks.append("".join(current) + "\n")
                current = []
                if len(blocks) == n:
                    break
    if current and len(blocks) < n:
        blocks.append("".join(current) + "\n")
    dst.write_text("".join(blocks), encoding="utf-8")
    return dst


def build(db: Path, tmp: Path, sentences: int = SENTENCES) -> Path:
    ref = head_sentences(shared("ud-v2.3", "en_ewt-ud-test.conllu"), tmp / "en_ewt-ud-test.conllu", sentences)
    out_dir = shared("sr-outputs", "adapt-ewt-test", "ewt_only_test_set_13-Oct_11-27")
    out = head_sentences(out_dir / "en_out.txt", tmp / "en_out.txt", sentences)
    fr = head_sentences(
        shared("ud", "UD_French-GSD") / next(p.name for p in shared("ud", "UD_French-GSD").glob("*.conllu")),
        tmp / "fr_gsd-ud-test.conllu",
        sentences // 2,
    )
    wsj = shared("constituency", "parser-outputs-wsj-sample")
    conll = shared("parsing", "conll2018")
    from evalhouse.ingest.dependency_runs import ingest_dependency_run
    from evalhouse.ingest.parses import ingest_parses

    with evalhouse.connect(db) as wh:
        wh.ingest_treebank([ref], corpus="en_ewt-test")
        wh.ingest_treebank([fr], corpus="fr_gsd-test")
        wh.ingest_outputs(out, reference="en_ewt-test", team="adapt", run="ewt_only")
        ingest_parses(wh, wsj / "wsj01.mrg", "wsj01", gold=True)
        for name in ("berkeley", "collins.1"):
            ingest_parses(wh, wsj / f"{name}.mrg", "wsj01", team=name, run="1")
        ingest_dependency_run(
            wh,
            conll / "UDPipe-Future" / "fr_gsd.conllu",
            conll / "gold" / "fr_gsd.conllu",
            "fr_gsd",
            "UDPipe-Future",
            "1",
        )
        ingest_fixture(wh, "tiny")
        # statistics views (issue 4): a second real run and a baseline, then a light analyze
        out2 = head_sentences(
            shared("sr-outputs", "adapt-ewt-test", "augmented_and_ewt_test_set_13-Oct_12-07") / "en_out.txt",
            tmp / "en_out_augmented.txt",
            sentences,
        )
        wh.ingest_outputs(out2, reference="en_ewt-test", team="adapt", run="augmented")
        from evalhouse.statistics.analyze import AnalysisConfig, analyze
        from evalhouse.ingest.baselines import run_baseline

        run_baseline(wh, "lr", "en_ewt-test")
        # synthetic human judgements of the first run (no public SR'18/19 judgements exist): deterministic
        # scores from the sentence position, so that judgement_z and the judgement correlations have rows
        lines = ["team,run,corpus,sent_id,annotator,criterion,score"]
        for sent_id, position in wh.sql(
            "select sent_id, position from sentences where corpus = 'en_ewt-test' order by position"
        ).fetchall():
            lines += [
                f"adapt,ewt_only,en_ewt-test,{sent_id},a1,fluency,{(position * 7) % 6}",
                f"adapt,ewt_only,en_ewt-test,{sent_id},a2,adequacy,{(position * 5) % 4 + 1}",
            ]
        judgements = tmp / "synthetic-judgements.csv"
        judgements.write_text("\n".join(lines) + "\n", encoding="utf-8")
        wh.ingest_judgements(judgements)
        analyze(wh, AnalysisConfig(resamples=20, views=("dep",), max_size=2))
    return db
