"""Readers for translation data: segment files, Pharaoh/symal word alignments, document boundaries,
pronoun-set files, pronoun-judgement CSV files and APT configuration files.

Every reader goes through :func:`loaders.source.open_source` (byte checks, BOM/CRLF normalisation) and
raises :class:`InputError` naming file, line and problem. Nothing here touches the warehouse.
"""

from __future__ import annotations

import configparser
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from evalhouse.errors import InputError
from evalhouse.loaders.csv_records import csv_records
from evalhouse.loaders.numbers import decimal, integer, shown
from evalhouse.loaders.source import open_source

_LINK = re.compile(r"^([0-9]{1,18})-([0-9]{1,18})$", re.ASCII)  # ASCII digits: '١-0' is no link
ROLES = ("source", "target", "identical", "equivalent", "correction-source", "correction-target")
JUDGEMENTS = ("correct", "incorrect", "unjudgeable")


@dataclass
class TextFile:
    name: str
    sha256: str
    lines: list[str]
    normalisations: list[str] = field(default_factory=list)


def _read_lines(path, what: str) -> TextFile:
    with open_source(path) as src:
        with open(src.path, encoding="utf-8", newline="\n") as handle:
            text = handle.read()
        lines = text.split("\n")
        if text.endswith("\n"):
            lines.pop()
        return TextFile(src.name, src.sha256, lines, [f"{Path(src.name).name}: {n}" for n in src.normalisations])


def read_segments(path, what: str = "segments") -> TextFile:
    """A tokenised text, one segment per line (tokens are separated by whitespace)."""
    return _read_lines(path, what)


def tokens(line: str) -> list[str]:
    return line.split()


def read_alignment(
    path,
    source: list[list[str]],
    target: list[list[str]],
    source_name: str,
    target_name: str,
    skip_bad_lines: bool = False,
) -> tuple[TextFile, list[dict[int, list[int]]], list[int]]:
    """Pharaoh ``i-j`` lines (0-based source-target token indices; APT's .symal files are the same).

    Returns the file and, per segment, {source index: sorted target indices} (0-based). An empty line
    is a segment without links. Empty lines after the last segment are accepted and recorded as a
    normalisation (the DiscoMT MT alignment file ends with one); any other line-count difference,
    a malformed link or an index beyond its segment is an error -- unless ``skip_bad_lines``: then a
    line with an index beyond its segment (the texts were tokenised differently) loses all its links,
    and its 1-based number is returned in the third value and recorded as a normalisation.
    """
    f = _read_lines(path, "alignment")
    n = len(source)
    if len(f.lines) > n and all(not l.strip() for l in f.lines[n:]):
        extra = len(f.lines) - n
        f.normalisations.append(
            f"{Path(f.name).name}: {extra} empty line{'s' if extra > 1 else ''} after the last segment ignored"
        )
        f.lines = f.lines[:n]
    if len(f.lines) != n:
        line = min(len(f.lines), n) + 1
        raise InputError(f.name, line, f"alignment file has {len(f.lines)} lines but {source_name} has {n} segments")
    links: list[dict[int, list[int]]] = []
    skipped: list[int] = []
    for i, line in enumerate(f.lines):
        seg: dict[int, list[int]] = {}
        ns, nt = len(source[i]), len(target[i])
        for item in line.split():
            m = _LINK.match(item)
            if not m:
                raise InputError(
                    f.name, i + 1, f"{shown(item)} is not an alignment link i-j (0-based source-target token indices)"
                )
            s, t = int(m.group(1)), int(m.group(2))
            problem = None
            if s >= ns:
                problem = f"link {item}: source index {s} is out of range ({source_name} segment {i + 1} has {ns} tokens, indices 0-{ns - 1})"
            elif t >= nt:
                problem = f"link {item}: target index {t} is out of range ({target_name} segment {i + 1} has {nt} tokens, indices 0-{nt - 1})"
            if problem and not skip_bad_lines:
                raise InputError(
                    f.name,
                    i + 1,
                    problem + "; `skip_bad_alignment_lines=True` drops such lines instead",
                    option="skip_bad_alignment_lines",
                )
            if problem:
                skipped.append(i + 1)
                seg = {}
                break
            seg.setdefault(s, []).append(t)
        links.append({s: ts if len(ts) == 1 else sorted(set(ts)) for s, ts in seg.items()})
    if skipped:
        listed = ", ".join(str(n) for n in skipped[:20]) + (", ..." if len(skipped) > 20 else "")
        f.normalisations.append(
            f"{Path(f.name).name}: {len(skipped)} line{'s' if len(skipped) > 1 else ''} with indices "
            f"beyond the segment dropped, their pronouns not scored (lines {listed})"
        )
    return f, links, skipped


def read_documents(path, segments: int) -> tuple[TextFile, list[str]]:
    """Document boundaries: per line the 0-based first segment of a document and an optional id
    (the DiscoMT format). Returns the document id of every segment."""
    f = _read_lines(path, "documents")
    starts: list[tuple[int, str]] = []
    for i, line in enumerate(f.lines):
        parts = line.split()
        if not parts:
            if all(not l.strip() for l in f.lines[i:]):
                break
            raise InputError(f.name, i + 1, "empty line in a document-boundary file")
        start = integer(parts[0])  # ASCII digits only (loaders/numbers.py)
        if len(parts) > 2 or start is None:
            raise InputError(
                f.name, i + 1, f"expected 'FIRST_SEGMENT [DOCUMENT_ID]' (0-based segment number), got {shown(line)}"
            )
        if start >= segments:
            raise InputError(
                f.name, i + 1, f"document starts at segment {start} (0-based) but the corpus has {segments} segments"
            )
        if starts and start <= starts[-1][0]:
            raise InputError(f.name, i + 1, f"document boundaries must increase: {start} after {starts[-1][0]}")
        if not starts and start != 0:
            raise InputError(f.name, i + 1, f"the first document must start at segment 0, not {start}")
        starts.append((start, parts[1] if len(parts) == 2 else parts[0]))
    if not starts:
        raise InputError(f.name, None, "no document boundaries")
    ids = []
    for k, (start, doc) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else segments
        ids += [doc] * (end - start)
    return f, ids


@dataclass
class PronounSetFile:
    name: str
    sha256: str
    rows: list[tuple[str, str, str | None, str | None, int]]  # role, pronoun, class, source pronoun, line


def read_pronoun_set(path) -> PronounSetFile:
    """A pronoun-set file: tab-separated ``role pronoun [class [source_pronoun]]``, ``#`` comments.

    role is source, target, identical or equivalent; identical and equivalent rows need a class.
    """
    f = _read_lines(path, "pronouns")
    rows = []
    for i, line in enumerate(f.lines):
        text = line.split("#", 1)[0] if not line.lstrip().startswith("#") else ""
        if not text.strip():
            continue
        parts = [p.strip() for p in text.rstrip().split("\t")]
        role = parts[0]
        if role not in ROLES:
            raise InputError(f.name, i + 1, f"unknown role '{role}' (valid: {', '.join(ROLES)})")
        if len(parts) < 2 or not parts[1]:
            raise InputError(
                f.name, i + 1, "missing pronoun (columns: role, pronoun, class, source_pronoun; tab-separated)"
            )
        if len(parts) > 4:
            raise InputError(
                f.name, i + 1, f"{len(parts)} columns; expected at most 4 (role, pronoun, class, source_pronoun)"
            )
        cls = parts[2] if len(parts) > 2 and parts[2] else None
        src = parts[3].lower() if len(parts) > 3 and parts[3] else None
        if role in ("identical", "equivalent") and cls is None:
            raise InputError(f.name, i + 1, f"a {role} row needs a class name in column 3")
        if role not in ("identical", "equivalent") and (cls or src):
            raise InputError(f.name, i + 1, f"a {role} row has only role and pronoun")
        rows.append((role, parts[1].lower(), cls, src, i + 1))
    if not any(r[0] == "source" for r in rows):
        raise InputError(f.name, None, "no source pronouns (rows 'source<TAB>pronoun')")
    return PronounSetFile(f.name, f.sha256, rows)


def read_word_list(path) -> tuple[str, list[str]]:
    """An APT list file: one pronoun per line (lower-cased, blank lines ignored)."""
    f = _read_lines(path, "list")
    return f.name, [l.strip().lower() for l in f.lines if l.strip()]


def read_group_list(path) -> tuple[str, list[list[str]]]:
    """An APT dictionary file: one comma-separated group of pronouns per line."""
    f = _read_lines(path, "dictionary")
    return f.name, [[w for w in l.strip().lower().replace(" ", "").split(",") if w] for l in f.lines if l.strip()]


@dataclass
class Judgement:
    team: str
    run: str
    position: int
    source_index: int
    category: str
    judgement: str
    line: int


JUDGEMENT_COLUMNS = ("team", "run", "position", "source_index", "category", "judgement")


def read_judgements(path) -> tuple[TextFile, list[Judgement]]:
    """CSV with header team,run,position,source_index,category,judgement (position and source_index
    1-based; judgement correct, incorrect or unjudgeable)."""
    f = _read_lines(path, "judgements")
    out = []
    seen = {}
    for lineno, values in csv_records(f.name, f.lines, JUDGEMENT_COLUMNS, nonempty=("team", "run", "category")):
        numbers = {}
        for c in ("position", "source_index"):
            numbers[c] = integer(values[c])  # ASCII digits only (loaders/numbers.py)
            if numbers[c] is None or numbers[c] < 1:
                raise InputError(f.name, lineno, f"{c} must be a 1-based integer, got {shown(values[c])}")
        judgement = values["judgement"].lower()
        if judgement not in JUDGEMENTS:
            raise InputError(
                f.name, lineno, f"judgement {shown(values['judgement'])} is not one of {', '.join(JUDGEMENTS)}"
            )
        key = (values["team"], values["run"], numbers["position"], numbers["source_index"])
        if key in seen:
            raise InputError(f.name, lineno, f"second judgement of the same pronoun (first on line {seen[key]})")
        seen[key] = lineno
        out.append(
            Judgement(
                values["team"],
                values["run"],
                numbers["position"],
                numbers["source_index"],
                values["category"],
                judgement,
                lineno,
            )
        )
    if not out:  # with --replace, an empty set would silently replace every stored judgement by none
        raise InputError(f.name, 1, "no judgements: the file has its header only")
    return f, out


@dataclass
class AptConfig:
    """The parts of an original APT configuration file evalhouse uses (paths resolved)."""

    path: str
    source_language: str
    target_language: str
    source: str
    reference: str
    target: str
    alignment_source_reference: str
    alignment_source_target: str
    list_source_pronouns: str
    list_target_pronouns: str | None
    equal: str | None
    similar: str | None
    dict_source_pronouns: str | None
    dict_target_pronouns: str | None
    cases: list[int]
    weights: list[float]
    count_other_as_equal: bool
    source_separator: str | None
    target_separator: str | None
    max_length_matrix: int
    output_file: str | None


def _resolve(config_path: str, value: str, optional: bool, key: str) -> str | None:
    value = value.strip()
    if not value:
        if optional:
            return None
        raise InputError(config_path, None, f"'{key}' is empty")
    base = Path(config_path).resolve().parent
    for candidate in (Path(value), base / value, base.parent / value, base / Path(value).name):
        if candidate.is_file():
            return os.fspath(candidate)
    if optional:
        return None  # APT itself treats a missing optional file as "not given"
    raise InputError(
        config_path,
        None,
        f"'{key}': file {value} not found (looked relative to the current "
        f"directory, {base}, {base.parent}, and for {Path(value).name} in {base})",
    )


def _key_line(text: str, key: str) -> int | None:
    """The line on which an INI file sets ``key`` (configparser does not say), or None."""
    for number, line in enumerate(text.split("\n"), start=1):
        if re.match(rf"\s*{re.escape(key)}\s*[:=]", line, re.IGNORECASE):
            return number
    return None


def read_apt_config(path) -> AptConfig:
    """Read an original APT configuration file (idiap/APT ``config_*``: INI sections lang, files,
    dictionary, cases, output). File paths are looked up as given, relative to the config's folder and
    its parent, and finally by file name in the config's folder (so a copied data folder works)."""
    name = os.fspath(path)
    with open_source(path) as src:
        with open(src.path, encoding="utf-8") as handle:
            text = handle.read()
    parser = configparser.RawConfigParser()
    try:
        parser.read_string(text, source=name)
    except configparser.Error as err:
        raise InputError(
            name, getattr(err, "lineno", None), f"not an APT configuration file: {str(err).splitlines()[0]}"
        ) from None

    def get(section, key, default=None):
        try:
            return parser.get(section, key)
        except (configparser.NoSectionError, configparser.NoOptionError):
            if default is not None:
                return default
            raise InputError(name, None, f"missing [{section}] {key}") from None

    input_type = get("files", "input_type", "word").strip() or "word"
    if input_type != "word":
        raise InputError(name, None, f"input_type '{input_type}' is not supported (only 'word')")
    cases_text = get("cases", "cases_to_use")
    weights_text = get("cases", "weigths_per_case")
    cases_line, weights_line = _key_line(text, "cases_to_use"), _key_line(text, "weigths_per_case")
    cases = [integer(c.strip()) for c in cases_text.split(",") if c.strip()]  # ASCII digits only
    if not cases or any(c not in range(1, 7) for c in cases):
        raise InputError(name, cases_line, f"cases_to_use must list cases 1-6, got {shown(cases_text.strip())}")
    weights = [decimal(w.strip()) for w in weights_text.split(",") if w.strip()]
    if any(w is None or not 0 <= w <= 1 for w in weights):
        raise InputError(
            name,
            weights_line,
            f"weigths_per_case must be numbers in [0, 1] (APT: 1 correct, "
            f"0 incorrect), got {shown(weights_text.strip())}",
        )
    if len(weights) != len(cases):
        raise InputError(name, weights_line, f"{len(cases)} cases_to_use but {len(weights)} weigths_per_case")
    count_other = get("cases", "count_OTHER_as_equal", "false").strip().lower() in ("1", "yes", "true", "on")
    max_len = integer(get("output", "max_length_matrix", "10").strip())
    if max_len is None:
        raise InputError(
            name, _key_line(text, "max_length_matrix"), "[output] max_length_matrix must be an integer"
        ) from None
    return AptConfig(
        name,
        get("lang", "source").strip(),
        get("lang", "target").strip(),
        _resolve(name, get("files", "source"), False, "source"),
        _resolve(name, get("files", "reference"), False, "reference"),
        _resolve(name, get("files", "target"), False, "target"),
        _resolve(name, get("files", "alignment_source_reference"), False, "alignment_source_reference"),
        _resolve(name, get("files", "alignment_source_target"), False, "alignment_source_target"),
        _resolve(name, get("files", "list_source_pronouns"), False, "list_source_pronouns"),
        _resolve(name, get("files", "list_target_pronouns", " "), True, "list_target_pronouns"),
        _resolve(name, get("dictionary", "equal", " "), True, "equal"),
        _resolve(name, get("dictionary", "similar", " "), True, "similar"),
        _resolve(name, get("dictionary", "source_pronouns", " "), True, "source_pronouns"),
        _resolve(name, get("dictionary", "target_pronouns", " "), True, "target_pronouns"),
        cases,
        weights,
        count_other,
        get("lang", "source_word_separator", " ").strip() or None,
        get("lang", "target_word_separator", " ").strip() or None,
        max_len,
        get("output", "output_file", " ").strip() or None,
    )
