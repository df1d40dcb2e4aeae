"""CoNLL-U parser outputs read as the CoNLL 2018 shared task's evaluation reads them: tokens with
their character spans, syntactic words with heads and relations.

    $ evalhouse ingest dependency-run ../shared/data/parsing/conll2018/UDPipe-Future/en_ewt.conllu \\
          --gold ../shared/data/parsing/conll2018/gold/en_ewt.conllu --corpus en_ewt --team UDPipe-Future --run 1

This reader is deliberately more lenient than ``ingest treebank`` (system outputs of 2018 leave
FEATS empty, for instance), but it still refuses what would make the scores wrong, naming file and
line: a line without 10 tab-separated columns, a bad ID or HEAD, a HEAD outside the sentence, a
cycle, a sentence with no root or several roots, an empty FORM, a missing final blank line.
Empty nodes (``8.1``) are skipped, as the official evaluation skips them.  Spaces (Unicode
category Zs) are removed from forms, so that the two files' characters can be compared.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass, field

from .errors import InputError
from .source import open_source


@dataclass
class Words:
    """A whole file: per word (0-based index over the file) its token span, form, head, relation."""

    characters: list[str] = field(default_factory=list)
    start: list[int] = field(default_factory=list)     # character span of the word's token
    end: list[int] = field(default_factory=list)
    multiword: list[bool] = field(default_factory=list)
    form: list[str] = field(default_factory=list)
    head: list[int] = field(default_factory=list)      # file index of the head word, -1 for the root
    deprel: list[str] = field(default_factory=list)    # verbatim (with subtype)
    sentence: list[int] = field(default_factory=list)  # 1-based sentence position
    word_id: list[int] = field(default_factory=list)   # CoNLL-U ID within the sentence
    sentences: int = 0


def _no_spaces(form: str) -> str:
    return "".join(c for c in form if unicodedata.category(c) != "Zs")


def read_words(path: str | os.PathLike) -> Words:
    name = os.fspath(path)
    out = Words()
    with open_source(path) as src, open(src.path, encoding="utf-8") as handle:
        sent_first = None  # file index of the first word of the open sentence
        heads: list[tuple[int, int]] = []  # (raw head, line) of the open sentence
        pending_mwt = 0  # words still expected inside a multiword token
        index = 0
        lineno = 0
        start_line = 0

        def close(line: int) -> None:
            nonlocal sent_first, heads
            n = len(out.form) - sent_first
            roots = 0
            for k, (h, hl) in enumerate(heads):
                if h > n:
                    raise InputError(name, hl, f"HEAD {h} points outside the sentence of {n} words")
                out.head.append(-1 if h == 0 else sent_first + h - 1)
                roots += h == 0
            if roots != 1:
                raise InputError(name, start_line, f"sentence has {roots} roots (exactly one is required)")
            for k in range(sent_first, len(out.form)):  # cycle check: every chain reaches the root
                seen, j = 0, k
                while out.head[j] != -1:
                    j = out.head[j]
                    seen += 1
                    if seen > n:
                        raise InputError(name, heads[k - sent_first][1], "the heads form a cycle")
            sent_first, heads = None, []

        for lineno, raw in enumerate(handle, start=1):
            line = raw.rstrip("\n")
            if sent_first is None:
                if line.startswith("#"):
                    continue
                if not line:
                    raise InputError(name, lineno, "empty sentence (a blank line where a sentence should start)")
                out.sentences += 1
                sent_first = len(out.form)
                start_line = lineno
            if not line:
                if pending_mwt:
                    raise InputError(name, lineno, "multiword token is missing some of its words")
                if len(out.form) == sent_first:
                    raise InputError(name, lineno, "sentence has no words")
                close(lineno)
                continue
            if line.startswith("#"):
                raise InputError(name, lineno, "comment line inside a sentence")
            cols = line.split("\t")
            if len(cols) != 10:
                raise InputError(name, lineno, f"expected 10 tab-separated columns, found {len(cols)}")
            wid = cols[0]
            if "." in wid:
                continue
            form = _no_spaces(cols[1])
            if not form:
                raise InputError(name, lineno, "empty FORM")
            if pending_mwt:  # a word of the open multiword token: it shares the token's span
                pending_mwt -= 1
                is_mwt = True
            else:
                out.characters.extend(form)
                span = (index, index + len(form))
                index += len(form)
                if "-" in wid:
                    try:
                        a, b = map(int, wid.split("-"))
                    except ValueError:
                        raise InputError(name, lineno, f"bad multiword token ID '{wid}'") from None
                    if b < a:
                        raise InputError(name, lineno, f"bad multiword token range '{wid}'")
                    pending_mwt = b - a + 1
                    token_span = span
                    continue
                is_mwt = False
                token_span = span
            try:
                n = int(wid)
            except ValueError:
                raise InputError(name, lineno, f"bad word ID '{wid}'") from None
            if n != len(out.form) - sent_first + 1:
                raise InputError(name, lineno, f"word ID {n}, expected {len(out.form) - sent_first + 1}")
            try:
                h = int(cols[6])
            except ValueError:
                raise InputError(name, lineno, f"HEAD '{cols[6]}' is not an integer") from None
            if h < 0:
                raise InputError(name, lineno, "HEAD cannot be negative")
            out.start.append(token_span[0])
            out.end.append(token_span[1])
            out.multiword.append(is_mwt)
            out.form.append(form)
            out.deprel.append(cols[7])
            out.sentence.append(out.sentences)
            out.word_id.append(n)
            heads.append((h, lineno))
        if sent_first is not None:
            raise InputError(name, lineno, "the file does not end with a blank line after the last sentence")
    return out
