"""Malformed and unusual CoNLL-U made by seeded mutations of the bundled sample, with the outcome the
ingest gave for each (the full ``FILE:LINE: problem (and N more ...)`` message, or the checksums of the
rows stored): a regression net for the error paths of a rewritten loader.

The outcomes in ``tests/data/ingest_fuzz_outcomes.json`` were recorded with the ingest of main at
ccd02fd (SQL staging and twenty SQL checks), before the streaming rewrite (issue 18), by::

    python -m tests.ingest_fuzz --write

Each case is ``make_case(i)``: 1 to 3 mutations (a field replaced, a line deleted, duplicated, moved or
made blank, a comment or blank line inserted, a tab added or removed, a head pointed at a descendant,
punctuation relabelled) of a window of the sample, chosen by ``random.Random(i)`` (stable across
Python versions).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

CASES = 600
OUTCOMES = Path(__file__).resolve().parent / "data" / "ingest_fuzz_outcomes.json"
_SAMPLE = Path(__file__).resolve().parent.parent / "evalhouse" / "sample" / "sample.conllu"

_VALUES = [
    "",
    "x",
    "0",
    "01",
    "-1",
    "99",
    "1",
    "2",
    "3",
    "3-4",
    "1-2",
    "2-2",
    "5-3",
    "1.1",
    "0.1",
    "2.1",
    "1.2",
    " ",
    "_",
    "punct",
    "root",
    "1a",
    "١",
    "4294967297",
    "1.1.1",
    "-",
    ".",
]
_COMMENTS = ["# sent_id = sample-001", "# sent_id = other", "# text = x", "# note", "#", "#sent_id=dup"]


def _mutate(lines: list[str], rng: random.Random) -> None:
    op = rng.randrange(12)
    k = rng.randrange(len(lines))
    token_rows = [i for i, line in enumerate(lines) if line and not line.startswith("#")]
    if op == 0 and token_rows:  # a field replaced
        i = rng.choice(token_rows)
        f = lines[i].split("\t")
        f[rng.randrange(len(f))] = rng.choice(_VALUES)
        lines[i] = "\t".join(f)
    elif op == 1:
        del lines[k]
    elif op == 2:
        lines.insert(k, lines[k])
    elif op == 3 and k + 1 < len(lines):
        lines[k], lines[k + 1] = lines[k + 1], lines[k]
    elif op == 4:
        lines.insert(k, "")
    elif op == 5:
        lines.insert(k, rng.choice(_COMMENTS))
    elif op == 6 and token_rows:  # a tab removed or added
        i = rng.choice(token_rows)
        if rng.random() < 0.5:
            lines[i] = lines[i].replace("\t", "", 1)
        else:
            lines[i] = lines[i] + "\t_"
    elif op == 7:
        lines[k] = rng.choice(["", " ", "\t", " \t "])
    elif op == 8 and token_rows:  # a head pointed elsewhere in the sentence (cycles, roots)
        i = rng.choice(token_rows)
        f = lines[i].split("\t")
        if len(f) == 10:
            f[6] = str(rng.randrange(0, 6))
            lines[i] = "\t".join(f)
    elif op == 9 and token_rows:  # punctuation relabelled
        i = rng.choice(token_rows)
        f = lines[i].split("\t")
        if len(f) == 10:
            f[7] = rng.choice(["punct", "punct:x", "punctx", "root", "dep"])
            lines[i] = "\t".join(f)
    elif op == 10 and token_rows:  # an empty node or range inserted
        i = rng.choice(token_rows)
        word = lines[i].split("\t")[0]
        new = rng.choice([f"{word}.1", f"{word}-{word}", f"{word}-{rng.randrange(1, 12)}", "0.1"])
        lines.insert(i + rng.randrange(2), "\t".join([new, "e"] + ["_"] * 8))
    else:
        lines.insert(k, lines[rng.randrange(len(lines))])


def make_case(i: int) -> bytes:
    rng = random.Random(i)
    lines = _SAMPLE.read_text(encoding="utf-8").split("\n")[:-1]
    start = rng.randrange(0, len(lines) - 60)
    window = lines[start : start + rng.randrange(20, 120)]
    # start at a sentence's first line, end after a blank line (mostly)
    while window and window[0] != "" and not window[0].startswith("# newdoc") and start > 0 and lines[start - 1] != "":
        window.pop(0)
        start += 1
    for _ in range(rng.randrange(1, 4)):
        if window:
            _mutate(window, rng)
    text = "\n".join(window) + ("\n" if rng.random() < 0.9 else "")
    return text.encode("utf-8")


def outcome(wh, path: Path, corpus: str):
    from evalhouse.errors import InputError
    from tests.treebank_snapshots import table_checksums

    try:
        wh.ingest_treebank([str(path)], corpus=corpus)
    except InputError as err:
        return str(err).replace(str(path), "FILE")
    return table_checksums(wh, corpus)


def main(argv: list[str]) -> None:
    import tempfile

    import evalhouse

    result = {}
    with tempfile.TemporaryDirectory() as tmp, evalhouse.connect(":memory:") as wh:
        for i in range(CASES):
            path = Path(tmp) / f"case{i}.conllu"
            path.write_bytes(make_case(i))
            result[str(i)] = outcome(wh, path, f"case{i}")
    errors = sum(isinstance(v, str) for v in result.values())
    print(f"{CASES} cases, {errors} refused", file=sys.stderr)
    text = json.dumps(result, indent=0, sort_keys=True) + "\n"
    if "--write" in argv:
        OUTCOMES.write_text(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
