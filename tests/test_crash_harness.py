"""The state checks of the fault-injection harness (``benchmarks/crash/evalhouse_kill.py``) on small
warehouses, so that the harness a CI step runs keeps telling "before", "after" and "torn" apart.
The harness itself (minutes per kill on a 1M-word ingest) is not run here."""

from __future__ import annotations

import importlib.util
import json

import duckdb
import pytest

import evalhouse
from tests.conftest import REPO, SAMPLE


def harness():
    spec = importlib.util.spec_from_file_location("evalhouse_kill", REPO / "benchmarks" / "crash" / "evalhouse_kill.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_before_after_and_torn(tmp_path):
    """(The states compare rows, not what stored_counts records of them: evalhouse check judges that.)"""
    h = harness()
    words = sum(line.split("\t", 1)[0].isdigit() for line in SAMPLE.read_text(encoding="utf-8").splitlines())
    db = tmp_path / "w.duckdb"
    with evalhouse.connect(db):
        pass
    before = h.fingerprint(db)
    with evalhouse.connect(db) as wh:
        wh.ingest_treebank([SAMPLE], corpus="sample")
    after = h.fingerprint(db)
    assert before != after
    assert h.classify(db, before, after) == {"state": "after"}
    assert h.fingerprint(db) == after  # ingest times (TIMESTAMP columns) are left out, nothing else
    # one changed value in one row is torn: the checksum covers contents, not only row counts
    con = duckdb.connect(str(db))
    con.execute("UPDATE nodes SET lemma = lemma || 'x' WHERE corpus = 'sample' AND position = 1 AND id = 1")
    con.close()
    verdict = h.classify(db, before, after)
    assert verdict["state"] == "torn" and verdict["orphans"] == {}
    assert verdict["differs_from_after"] == ["nodes[sample]: %d rows (expected %d)" % ((words,) * 2)]
    # the torn state of issue 17: nodes and edges of a corpus without its corpora and sentences rows
    con = duckdb.connect(str(db))
    con.execute("DELETE FROM corpora WHERE corpus = 'sample'")
    con.execute("DELETE FROM sentences WHERE corpus = 'sample'")
    con.close()
    verdict = h.classify(db, before, after)
    assert verdict["state"] == "torn"
    assert verdict["orphans"]["nodes"] == words and "edges" in verdict["orphans"]
    assert any(d.startswith("corpora[sample]: 0 rows") for d in verdict["differs_from_after"])
    # without the rest of the corpus the warehouse is exactly the one before
    con = duckdb.connect(str(db))
    for (table,) in con.execute(
        "SELECT table_name FROM duckdb_columns() WHERE column_name = 'corpus' "
        "AND table_name IN (SELECT table_name FROM duckdb_tables())"
    ).fetchall():
        con.execute(f"DELETE FROM \"{table}\" WHERE corpus = 'sample'")
    con.close()
    assert h.classify(db, before, after) == {"state": "before"}


def test_treebank_builder_renames_sent_ids(tmp_path, monkeypatch):
    h = harness()
    src = tmp_path / "shared" / "ud" / "UD_X"
    src.mkdir(parents=True)
    (src / "xx_t-ud-test.conllu").write_text("# sent_id = a\n1\tw\tw\tX\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    monkeypatch.setattr(h, "SHARED", tmp_path / "shared")
    out = tmp_path / "big.conllu"
    assert h.build_treebank(out, target_words=3) == 3
    assert [line for line in out.read_text().splitlines() if line.startswith("#")] == [
        "# sent_id = c1-xx_t-a",
        "# sent_id = c2-xx_t-a",
        "# sent_id = c3-xx_t-a",
    ]


def test_whole_submissions_tells_a_repaired_mixture_from_a_torn_one():
    """After a torn replacement of several submissions and its repair, each submission must be whole: as before,
    as after, or gone from every table; anything else is still torn."""
    h = harness()
    before = {
        "submissions": {"c/a/1": (1, "a"), "c/b/1": (1, "b")},
        "output_tokens": {"c/a/1": (9, "ta"), "c/b/1": (8, "tb")},
        "sentences": {"c": (3, "s")},
        "stored_counts": {"*": (5, "k")},
    }
    after = {
        "submissions": {"c/a/1": (1, "A"), "c/b/1": (1, "B")},
        "output_tokens": {"c/a/1": (7, "TA"), "c/b/1": (6, "TB")},
        "sentences": {"c": (3, "s")},
        "stored_counts": {"*": (5, "K")},
    }

    def state(a, b, sentences=(3, "s")):
        out = {"submissions": {}, "output_tokens": {}, "sentences": {"c": sentences}, "stored_counts": {"*": (4, "z")}}
        for key, side in (("c/a/1", a), ("c/b/1", b)):
            for table in ("submissions", "output_tokens"):
                if isinstance(side, dict):
                    value = side.get(table)
                else:
                    value = {"old": before, "new": after}.get(side, {}).get(table, {}).get(key)
                if value is not None:
                    out[table][key] = value
        return out

    assert h.whole_submissions(state("new", "old"), before, after) == {"old": ["c/b/1"], "new": ["c/a/1"], "gone": []}
    assert h.whole_submissions(state("gone", "new"), before, after) == {"old": [], "new": ["c/b/1"], "gone": ["c/a/1"]}
    # old owner row beside new tokens (the tear of issue 37), or a corpus that changed: not whole
    assert (
        h.whole_submissions(state({"submissions": (1, "a"), "output_tokens": (7, "TA")}, "old"), before, after) is None
    )
    assert h.whole_submissions(state("old", "old", sentences=(2, "s")), before, after) is None


@pytest.mark.slow
def test_wal_cuts_on_the_sample(tmp_path, monkeypatch):
    """The --wal-cuts path end to end, on the sample instead of the 1M-word treebank: the ingest runs once
    with its transaction left in the WAL, each trial reopens the file with the WAL cut, and the judgement
    (state and check; --no-retry, for time) must find every cut before and the whole WAL after, none failed."""
    h = harness()
    base = tmp_path / "base.duckdb"
    with evalhouse.connect(base):
        pass
    command = ["ingest", "treebank", str(SAMPLE), "--corpus", "sample", "-q"]
    monkeypatch.setattr(h, "prepare", lambda work, scenario: (base, command))
    out = tmp_path / "wal.json"
    argv = ["--scenario", "treebank", "--wal-cuts", "2", "--calibrate", "1", "--no-retry", "--workdir", str(tmp_path)]
    assert h.main([*argv, "--json", str(out)]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    trials = result["trials"]
    wal = trials[0]["wal_of"]
    assert wal > 0 and result["wal_cuts"] == 2
    # the 2 drawn cuts (fewer if they coincide) and the last byte, 16 and 256 bytes before the end, the whole WAL
    cuts = [t["wal_bytes"] for t in trials]
    assert cuts == sorted(cuts) and cuts[-4:] == [wal - 256, wal - 16, wal - 1, wal] and 5 <= len(cuts) <= 6
    assert all(t["anchor"] == "wal" and t["ok"] for t in trials)
    assert [t["state"] for t in trials][-1] == "after"
    assert all(t["state"] == "before" for t in trials[:-1])
    assert all(t["check"] == "whole" for t in trials)
    assert result["summary"]["failed"] == 0 and result["summary"]["torn"] == 0
