"""Malformed and unusual CoNLL-U outputs made by seeded mutations of the bundled sample, with what the
two readers of system outputs gave for each: :func:`evalhouse.loaders.conllu_words.read_words` (a
parser's output) and :func:`evalhouse.loaders.outputs.read_output_file` with ``format="conllu"`` (a
realiser's). Each outcome is the full ``FILE:LINE: problem (and N more ...)`` message, or the SHA-256 of
what was read: a regression net for the readers' checks.

The outcomes in ``tests/data/conllu_output_outcomes.json`` were recorded with the readers of main at
f3cde21, which staged the file in DuckDB and checked it with SQL queries (twelve for a parser's output,
two for a realiser's), before the checks moved to numpy (issue 18), by::

    python -m tests.conllu_output_fuzz --write

Case ``i`` < 600 is :func:`tests.ingest_fuzz.make_case` ``(i)`` (1 to 3 mutations of a window of the
sample) without its leading blank lines, followed, one time in two, by a mutation of what only a parser
output's checks look at: a FORM made of spaces (U+0020, U+00A0, U+3000) or holding one, a negative HEAD,
a range that runs backwards or past the sentence, a dotted or bad ID, the final blank lines removed, a
leading blank line. The other cases are whole sentences of the sample that a parser's output could hold
(:func:`_clean_case`), so that the words read are compared too.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import asdict
from pathlib import Path

from tests.conftest import SAMPLE
from tests.ingest_fuzz import make_case

CASES = 800
FUZZED = 600  # cases 0..599 are fuzzed; the rest are whole sentences with the changes of _clean_case
OUTCOMES = Path(__file__).resolve().parent / "data" / "conllu_output_outcomes.json"

_FORMS = [" ", "\u00a0", "\u3000", " \u00a0 ", "a b", "\u00a0x", "\u3000\u3000", "\u2009", "", "_"]
_IDS = ["1.2.3", "x.1", "1-", "-1", "3-1", "1-9", "2-2", "0", "007", "1.0"]


def _mutate_output(lines: list[str], rng: random.Random) -> list[str]:
    token_rows = [i for i, line in enumerate(lines) if line and not line.startswith("#")]
    op = rng.randrange(6)
    if op == 0 and token_rows:  # a FORM of spaces, or holding one
        i = rng.choice(token_rows)
        f = lines[i].split("\t")
        if len(f) > 1:
            f[1] = rng.choice(_FORMS)
            lines[i] = "\t".join(f)
    elif op == 1 and token_rows:  # a negative or odd HEAD
        i = rng.choice(token_rows)
        f = lines[i].split("\t")
        if len(f) == 10:
            f[6] = rng.choice(["-1", "-12", "-", "--1", "+1", "1.0"])
            lines[i] = "\t".join(f)
    elif op == 2 and token_rows:  # an odd ID
        i = rng.choice(token_rows)
        f = lines[i].split("\t")
        f[0] = rng.choice(_IDS)
        lines[i] = "\t".join(f)
    elif op == 3:  # no blank line at the end
        while lines and lines[-1] == "":
            lines.pop()
    elif op == 4:
        lines.insert(0, "")
    elif op == 5 and token_rows:  # a range before a word, spanning k words
        i = rng.choice(token_rows)
        word = lines[i].split("\t")[0]
        if word.isdigit():
            lines.insert(i, "\t".join([f"{word}-{int(word) + rng.randrange(-1, 4)}", "xy"] + ["_"] * 8))
    return lines


def _clean_case(i: int) -> bytes:
    """Whole sentences of the sample, with changes a parser's output may make: a FORM holding a space,
    a multiword token over two words, an empty node, a relation's subtype."""
    rng = random.Random(i)
    blocks = SAMPLE.read_text(encoding="utf-8").split("\n\n")[:-1]
    start = rng.randrange(len(blocks))
    chosen = [b.split("\n") for b in blocks[start : start + rng.randrange(1, 12)]]
    for _ in range(rng.randrange(0, 4)):
        lines = rng.choice(chosen)
        words = [k for k, line in enumerate(lines) if line.split("\t")[0].isdigit()]
        k = rng.choice(words)
        f = lines[k].split("\t")
        op = rng.randrange(4)
        if op == 0:
            f[1] = rng.choice(["a b", "\u00a0x", "x\u3000", "1\u2009000"])
        elif op == 1 and k + 1 < len(lines) and lines[k + 1].split("\t")[0].isdigit():
            lines.insert(k, "\t".join([f"{f[0]}-{int(f[0]) + 1}", "ab"] + ["_"] * 8))
        elif op == 2:
            lines.insert(k + 1, "\t".join([f"{f[0]}.1", "e"] + ["_"] * 8))
        else:
            f[7] = f[7].split(":")[0] + rng.choice(["", ":x", ":pass"])
        if op in (0, 3):
            lines[k] = "\t".join(f)
    return ("\n\n".join("\n".join(lines) for lines in chosen) + "\n\n").encode("utf-8")


def make_output_case(i: int) -> bytes:
    if i >= FUZZED:
        return _clean_case(i)
    data = make_case(i).lstrip(b"\n")  # most windows start with the blank line before a sentence
    rng = random.Random(10_000 + i)
    if rng.random() < 0.5:
        text = data.decode("utf-8")
        ends = text.endswith("\n")
        lines = _mutate_output(text.split("\n")[:-1] if ends else text.split("\n"), rng)
        data = ("\n".join(lines) + ("\n" if ends else "")).encode("utf-8")
    return data


def outcome(path: Path):
    """What the parser-output reader gives for ``path``."""
    from evalhouse.loaders.conllu_words import _no_spaces, read_words

    def words():
        fields = asdict(read_words(path))
        fields.pop("sha256", None)  # the digest of the file: not a result of the checks
        fields.pop("columns", None)  # LEMMA..FEATS, read after the checks (the outcomes were recorded without them)
        # recorded when the words of a multiword token lost their spaces too (now they keep them, as the
        # official script does: tests/test_conll18_metrics.py)
        fields["form"] = [_no_spaces(f) for f in fields["form"]]
        return fields

    return _outcome(path, words)


def realiser_outcome(path: Path):
    """What the realiser-output reader gives for ``path`` read as CoNLL-U."""
    from evalhouse.loaders.outputs import read_output_file

    def sentences():
        out = read_output_file(path, format="conllu")
        return [out.sha256, out.format, out.normalisations, [asdict(s) for s in out.sentences]]

    return _outcome(path, sentences)


def _outcome(path: Path, read):
    from evalhouse.errors import InputError

    try:
        value = read()
    except InputError as err:
        return str(err).replace(str(path), "FILE")
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode("utf-8")).hexdigest()


def main(argv: list[str]) -> None:
    import tempfile

    result: dict[str, dict[str, str]] = {"parser": {}, "realiser": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(CASES):
            path = Path(tmp) / f"case{i}.conllu"
            path.write_bytes(make_output_case(i))
            result["parser"][str(i)] = outcome(path)
            result["realiser"][str(i)] = realiser_outcome(path)
    for reader, outcomes in result.items():
        errors = sum(not _is_digest(v) for v in outcomes.values())
        print(f"{reader}: {CASES} cases, {errors} refused", file=sys.stderr)
    text = json.dumps(result, indent=0, sort_keys=True) + "\n"
    if "--write" in argv:
        OUTCOMES.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def _is_digest(value: str) -> bool:
    return len(value) == 64 and all(c in "0123456789abcdef" for c in value)


if __name__ == "__main__":
    main(sys.argv[1:])
