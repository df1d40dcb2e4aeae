"""CoNLL-U dependency trees as the CoNLL 2018 shared task's evaluation reads them: tokens with their
character spans, syntactic words with heads and relations (:class:`Words`, what
:mod:`evalhouse.analysis.dependency_eval` scores).

    $ evalhouse ingest dependency-run ../shared/data/parsing/conll2018/UDPipe-Future/en_ewt.conllu \\
          --gold ../shared/data/parsing/conll2018/gold/en_ewt.conllu --corpus en_ewt --team UDPipe-Future --run 1

A parser's output file is read by :func:`read_words` through the one CoNLL-U reader
(:mod:`evalhouse.loaders.conllu`) with the checks of :data:`PARSER_OUTPUT`: more lenient than
``ingest treebank`` (system outputs of 2018 leave FEATS empty, for instance), but it still refuses
what would make the scores wrong, naming file and line: a line without 10 tab-separated columns, a bad
ID or HEAD, a HEAD outside the sentence, a cycle, a sentence with no root or several roots, an empty
FORM, a missing final blank line (the official script refuses that too). Empty nodes (``8.1``) are
skipped, as the official evaluation skips them. The gold trees come from the warehouse's ``nodes``
(:mod:`evalhouse.ingest.dependency_runs`); both go through :func:`words_from_tokens`. Spaces (Unicode
category Zs) are removed from forms, so that the two texts' characters can be compared.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass, field
from typing import Iterable

import duckdb

from evalhouse.errors import InputError
from evalhouse.loaders.conllu import Checks, read
from evalhouse.loaders.source import open_source


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


# Each query returns (line_no, problem) over the staged tables of evalhouse.loaders.conllu.
PARSER_OUTPUT = Checks((
    r"""SELECT l.line_no, 'empty sentence (a blank line where a sentence should start)'
        FROM eh_lines l WHERE l.kind = 'blank'
          AND NOT EXISTS (SELECT 1 FROM eh_lines t WHERE t.block = l.block AND t.kind = 'token')""",
    r"""SELECT l.line_no, 'comment line inside a sentence'
        FROM eh_lines l JOIN eh_blocks b USING (block) WHERE l.kind = 'comment' AND l.line_no > b.first_token""",
    r"""SELECT line_no, 'expected 10 tab-separated columns, found ' || n_fields
        FROM eh_tokens WHERE n_fields <> 10""",
    r"""SELECT line_no, CASE WHEN contains(f[1], '-') THEN 'bad multiword token ID ''' || f[1] || ''''
                            ELSE 'bad word ID ''' || f[1] || '''' END
        FROM eh_tokens WHERE id_kind = 'bad' AND n_fields = 10 AND NOT contains(f[1], '.')""",
    r"""SELECT line_no, 'empty FORM'
        FROM eh_tokens WHERE id_kind IN ('word', 'range') AND n_fields = 10
          AND regexp_replace(f[2], '\p{Zs}', '', 'g') = ''""",
    r"""SELECT line_no, 'bad multiword token range ''' || f[1] || ''''
        FROM eh_tokens WHERE id_kind = 'range' AND minor < major""",
    r"""SELECT t.line_no, 'multiword token is missing some of its words'
        FROM eh_tokens t JOIN eh_blocks b USING (block) WHERE t.id_kind = 'range' AND t.minor > b.n_words""",
    r"""SELECT line_no, 'word ID ' || major || ', expected ' || ordinal
        FROM eh_tokens WHERE id_kind = 'word' AND major <> ordinal""",
    r"""SELECT line_no, CASE WHEN regexp_full_match(f[7], '-[0-9]+') THEN 'HEAD cannot be negative'
                            ELSE 'HEAD ''' || f[7] || ''' is not an integer' END
        FROM eh_tokens WHERE id_kind = 'word' AND n_fields = 10 AND head IS NULL""",
    r"""SELECT t.line_no, 'HEAD ' || t.head || ' points outside the sentence of ' || b.n_words || ' words'
        FROM eh_tokens t JOIN eh_blocks b USING (block) WHERE t.id_kind = 'word' AND t.head > b.n_words""",
    # roots only where every HEAD is a word of the sentence (otherwise that is the problem to report)
    r"""SELECT b.first_token, 'sentence has ' || count(t.line_no) FILTER (WHERE t.head = 0)
                              || ' roots (exactly one is required)'
        FROM eh_blocks b JOIN eh_tokens t USING (block)
        WHERE t.id_kind = 'word' AND NOT EXISTS (
            SELECT 1 FROM eh_tokens x WHERE x.block = b.block AND x.id_kind = 'word'
            AND (x.head IS NULL OR x.head > b.n_words))
        GROUP BY b.block, b.first_token HAVING count(t.line_no) FILTER (WHERE t.head = 0) <> 1""",
    r"""SELECT line_no, 'the file does not end with a blank line after the last sentence'
        FROM eh_lines WHERE line_no = (SELECT max(line_no) FROM eh_lines) AND kind <> 'blank'""",
), cycle="the heads form a cycle")

# the words and multiword tokens of the staged file, in file order, sentence by sentence
_STAGED_TOKENS = r"""
SELECT m.position, t.id_kind, t.major, t.minor, t.f[2], t.head, t.f[8]
FROM eh_tokens t JOIN (SELECT block, row_number() OVER (ORDER BY block) AS position FROM eh_blocks) m USING (block)
WHERE t.id_kind IN ('word', 'range')
ORDER BY t.line_no
"""


def _no_spaces(form: str) -> str:
    """FORM without its Unicode space separators (category Zs), as the CoNLL 2018 script removes them.
    Every Zs character but U+0020 is unprintable (str.isprintable), so a printable form needs only
    U+0020 removed; the others are checked character by character."""
    if form.isprintable():
        return form.replace(" ", "") if " " in form else form
    return "".join(c for c in form if unicodedata.category(c) != "Zs")


def read_words(path: str | os.PathLike, con=None) -> Words:
    """A parser's CoNLL-U output, checked as :data:`PARSER_OUTPUT` says (staged on ``con``, by default a
    connection of its own)."""
    con = con if con is not None else duckdb.connect()
    with open_source(path) as source:
        rows = read(con, source, PARSER_OUTPUT, _STAGED_TOKENS)
    return words_from_tokens(rows, source.name)


def words_from_tokens(rows: Iterable[tuple], name: str) -> Words:
    """:class:`Words` from (sentence position, 'word' or 'range', first ID, last ID, FORM, HEAD, DEPREL)
    rows in file order; a multiword token's words share its character span."""
    out = Words()
    index = 0
    sentence = None
    sent_first = 0
    range_last, range_span = 0, (0, 0)
    for position, kind, first, last, form, head, deprel in rows:
        if position != sentence:
            sentence, sent_first, range_last = position, len(out.form), 0
            out.sentences += 1
        form = _no_spaces(form)
        if not form:
            raise InputError(name, None, f"sentence {out.sentences}, token {first}: FORM is only spaces")
        if kind == "range":
            out.characters.extend(form)
            range_last, range_span = last, (index, index + len(form))
            index += len(form)
            continue
        if first <= range_last:
            span, multiword = range_span, True
        else:
            out.characters.extend(form)
            span, multiword = (index, index + len(form)), False
            index += len(form)
        out.start.append(span[0])
        out.end.append(span[1])
        out.multiword.append(multiword)
        out.form.append(form)
        out.head.append(-1 if head == 0 else sent_first + head - 1)
        out.deprel.append(deprel)
        out.sentence.append(out.sentences)
        out.word_id.append(first)
    return out
