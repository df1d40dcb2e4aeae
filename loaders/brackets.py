"""Bracketed constituency parses: Penn Treebank ``(S (NP (DT the) ...))`` and Sampson & Babarczy's (2003) square notation.

Command::

    $ evalhouse ingest parses ../shared/data/constituency/parser-outputs-wsj-sample/wsj01.mrg --corpus wsj01 --gold
    wsj01 (gold): 10 sentences, 284 leaves, 324 constituents

Two notations, chosen per tree by its first bracket:

* Penn Treebank: every word sits in a preterminal ``(POS word)``; trees may span several lines;
  the unlabelled wrapper of a ``.mrg`` file, ``( (S ...) )``, is kept as a node with the empty label
  ``''`` (C EVALB counts it as a bracket; the leaf-ancestor metric gives it no lineage symbol), and an
  unlabelled node below a labelled one is an error; ``-NONE-`` traces, function tags and indices
  (``NP-SBJ-1``) are kept verbatim (scoring cuts them).  White space is C EVALB's: space, tab, line
  feed, carriage return, vertical tab and form feed (``isspace`` in the C locale), so a no-break space
  is part of a word or label, as it is for EVALB.
* Sampson & Babarczy (2003): ``[S [NP two tax ] were passed ]``, bare words as leaves
  (no POS), ``[LABEL`` opens and ``]`` closes.

Two ways to split a file into sentences:

* ``one_per_line=False`` (default): a tree ends where its brackets balance, blank lines are ignored;
* ``one_per_line=True`` (EVALB's convention): each line is one sentence; an empty line is an empty
  parse (EVALB's "skip" status), and a line may hold several top-level brackets (a forest, as in
  EVALB's sample.tst line 8).

Every problem raises :class:`InputError` naming the file, the line and the problem: unbalanced
brackets, an empty constituent ``(NP )``, a word outside a preterminal, a preterminal with two
words, a constituent without a label below the root.
"""

from __future__ import annotations

import io
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Iterator, TextIO

from evalhouse.errors import InputError
from evalhouse.loaders.source import Source, open_source

# C EVALB's white space (isspace in the C locale), not Python's: a no-break space is part of a word
WHITE = " \t\n\r\v\f"
_PTB_TOKEN = re.compile(r"\(|\)|[^ \t\n\r\v\f()]+")


@dataclass
class Tree:
    """One sentence: leaves (word, pos) in order and nonterminal nodes in preorder.

    ``nodes[i] = (label, parent, start, end)``: ``parent`` is the index of the parent node (-1 for
    a root); ``start``/``end`` are half-open leaf indices.  Preterminals are not nodes: their label
    is the leaf's ``pos`` (``None`` in the square notation).  ``line`` is the line the tree starts on.
    An empty tree (no leaves) is an empty line in one-per-line mode.
    """

    words: list[str] = field(default_factory=list)
    pos: list[str | None] = field(default_factory=list)
    nodes: list[tuple[str, int, int, int]] = field(default_factory=list)
    line: int = 0
    notation: str = "ptb"

    def __len__(self) -> int:
        return len(self.words)


def _check_unlabelled(tree: Tree, name: str) -> None:
    """Unlabelled nodes are the ``( (S ...) )`` wrapper: at the root, or below another unlabelled node
    (``( ( (S ...) ) )``); one below a labelled node is refused.  C EVALB reads any ``(`` not followed
    by a label as a bracket labelled ``''``; evalhouse keeps that reading for the wrapper only, the one
    place a Penn Treebank file has such a bracket (docs/parse-evaluation.md, "Input")."""
    nodes = tree.nodes
    for label, parent, _, _ in nodes:
        if label == "" and parent != -1 and nodes[parent][0] != "":
            raise InputError(
                name,
                tree.line,
                "a constituent without a label below a labelled one "
                "(only the ( (S ...) ) wrapper of a tree may be unlabelled)",
            )


def _tokens_ptb(text: str, line: int) -> list[tuple[str, int]]:
    return [(m.group(0), line) for m in _PTB_TOKEN.finditer(text)]


def _finish_ptb(tokens: list[tuple[str, int]], name: str, line: int) -> Tree:
    """Build a Tree from the tokens of one balanced PTB sentence (possibly a forest)."""
    tree = Tree(line=line, notation="ptb")
    stack: list[list] = []  # [label, node_index|None, start, word, has_children, line]
    i, n = 0, len(tokens)
    while i < n:
        tok, tline = tokens[i]
        if tok == "(":
            label = ""
            if i + 1 < n and tokens[i + 1][0] not in ("(", ")"):
                label = tokens[i + 1][0]
                i += 1
            elif i + 1 < n and tokens[i + 1][0] == ")":
                raise InputError(name, tline, "empty brackets '()'")
            if stack:
                parent = stack[-1]
                if parent[3] is not None:
                    raise InputError(name, tline, f"preterminal '({parent[0]} {parent[3]}' also holds a constituent")
                if parent[1] is None:  # the parent turns out to be a nonterminal: give it a node
                    parent[1] = len(tree.nodes)
                    grand = stack[-2][1] if len(stack) > 1 else -1
                    tree.nodes.append([parent[0], grand, parent[2], -1])
                parent[4] = True
            stack.append([label, None, len(tree.words), None, False, tline])
            i += 1
            continue
        if tok == ")":
            if not stack:
                raise InputError(name, tline, "')' closes a bracket that was never opened (unbalanced brackets)")
            top = stack.pop()
            if top[3] is None and not top[4]:
                raise InputError(name, tline, f"constituent '({top[0]}' has no words")
            if top[1] is not None:
                tree.nodes[top[1]][3] = len(tree.words)
            i += 1
            continue
        if not stack:
            raise InputError(
                name, tline, f"word '{tok}' outside any bracket (Penn Treebank words sit in a (POS word) preterminal)"
            )
        top = stack[-1]
        if top[4]:
            raise InputError(
                name,
                tline,
                f"word '{tok}' beside constituents inside '({top[0]}' "
                "(Penn Treebank words sit in a (POS word) preterminal)",
            )
        if top[3] is not None:
            raise InputError(name, tline, f"preterminal '({top[0]} {top[3]}' has a second word '{tok}'")
        if top[0] == "":
            raise InputError(name, tline, f"word '{tok}' has no part-of-speech label")
        top[3] = tok
        tree.words.append(tok)
        tree.pos.append(top[0])
        i += 1
    if stack:
        raise InputError(name, stack[-1][5], f"'({stack[-1][0]}' is never closed (unbalanced brackets)")
    tree.nodes = [tuple(nd) for nd in tree.nodes]
    if any(label == "" for label, _, _, _ in tree.nodes):
        _check_unlabelled(tree, name)
    return tree


def _finish_square(tokens: list[tuple[str, int]], name: str, line: int) -> Tree:
    """Build a Tree from Sampson & Babarczy's (2003) notation: ``[LABEL`` opens, ``]`` closes, other tokens are words."""
    tree = Tree(line=line, notation="square")
    stack: list[list] = []  # [node_index, line]
    for tok, tline in tokens:
        if tok.startswith("[") and len(tok) > 1:
            parent = stack[-1][0] if stack else -1
            stack.append([len(tree.nodes), tline])
            tree.nodes.append([tok[1:], parent, len(tree.words), -1])
        elif tok == "[":
            raise InputError(name, tline, "'[' must be followed by its label without a space, as in '[NP'")
        elif tok == "]":
            if not stack:
                raise InputError(name, tline, "']' closes a bracket that was never opened (unbalanced brackets)")
            idx, _ = stack.pop()
            if tree.nodes[idx][2] == len(tree.words):
                raise InputError(name, tline, f"constituent '[{tree.nodes[idx][0]}' has no words")
            tree.nodes[idx][3] = len(tree.words)
        else:
            if not stack:
                raise InputError(name, tline, f"word '{tok}' outside any bracket")
            tree.words.append(tok)
            tree.pos.append(None)
    if stack:
        idx, oline = stack[-1]
        raise InputError(name, oline, f"'[{tree.nodes[idx][0]}' is never closed (unbalanced brackets)")
    tree.nodes = [tuple(nd) for nd in tree.nodes]
    return tree


def _square_tokens(text: str, line: int) -> list[tuple[str, int]]:
    return [(t, line) for t in text.split()]


def read_trees(handle: TextIO, name: str, one_per_line: bool = False) -> Iterator[Tree]:
    """Yield the sentences of a bracketed file in order (streams; one code path for both notations)."""
    tokens: list[tuple[str, int]] = []
    notation: str | None = None
    depth = 0
    start_line = 0
    for lineno, raw in enumerate(handle, start=1):
        text = raw.rstrip("\n")
        if one_per_line:
            stripped = text.strip(WHITE)
            if not stripped:
                yield Tree(line=lineno)
                continue
            if stripped[0] == "[":
                yield _finish_square(_square_tokens(stripped, lineno), name, lineno)
            else:
                yield _finish_ptb(_tokens_ptb(stripped, lineno), name, lineno)
            continue
        stripped = text.strip(WHITE)
        if not stripped:
            continue
        if notation is None:
            notation = "square" if stripped[0] == "[" else "ptb"
            start_line = lineno
            if stripped[0] not in "([":
                raise InputError(
                    name, lineno, f"expected a tree starting with '(' or '[', found '{stripped.split()[0]}'"
                )
        if notation == "ptb":
            # a line may close one tree and open the next: split at depth 0
            for m in _PTB_TOKEN.finditer(text):
                tok = m.group(0)
                if depth == 0 and tok == ")":
                    raise InputError(name, lineno, "')' closes a bracket that was never opened (unbalanced brackets)")
                if depth == 0 and not tokens and tok != "(":
                    raise InputError(name, lineno, f"word '{tok}' outside any bracket (unbalanced brackets?)")
                if not tokens:
                    start_line = lineno
                tokens.append((tok, lineno))
                if tok == "(":
                    depth += 1
                elif tok == ")":
                    depth -= 1
                    if depth < 0:
                        raise InputError(
                            name, lineno, "')' closes a bracket that was never opened (unbalanced brackets)"
                        )
                    if depth == 0:
                        yield _finish_ptb(tokens, name, start_line)
                        tokens = []
        else:
            for tok in text.split():
                if depth == 0 and tok == "]":
                    raise InputError(name, lineno, "']' closes a bracket that was never opened (unbalanced brackets)")
                if depth == 0 and not tokens and not tok.startswith("["):
                    raise InputError(name, lineno, f"word '{tok}' outside any bracket (unbalanced brackets?)")
                if not tokens:
                    start_line = lineno
                tokens.append((tok, lineno))
                if tok.startswith("["):
                    depth += 1
                elif tok == "]":
                    depth -= 1
                    if depth < 0:
                        raise InputError(
                            name, lineno, "']' closes a bracket that was never opened (unbalanced brackets)"
                        )
                    if depth == 0:
                        yield _finish_square(tokens, name, start_line)
                        tokens = []
        if not tokens:
            notation = None
    if tokens:  # the file ends inside a tree: name the innermost bracket left open
        (_finish_square if notation == "square" else _finish_ptb)(tokens, name, start_line)
        raise InputError(
            name, start_line, "the tree starting here is never closed (unbalanced brackets at end of file)"
        )


def read_text(path: str | os.PathLike) -> tuple[str, Source]:
    """The whole text of a bracketed file (``'-'``: standard input) after :func:`open_source`'s byte
    checks, and its :class:`Source`.  ``read_trees(io.StringIO(text), source.name)`` reads it as the
    file itself would be read; :func:`evalhouse.reports.evalb.evalb_report` hands the text to its
    counting kernel first."""
    with open_brackets(path) as src, open(src.path, encoding="utf-8") as handle:
        return handle.read(), src


KIND = "bracketed-parse"  # what the byte checks' messages call the file ("this is not a bracketed-parse text file")


def open_brackets(path: str | os.PathLike):
    """:func:`open_source` for a bracketed file, ``'-'`` being standard input: the byte checks (UTF-8, NUL
    and control characters, CR) name the file, the line and the problem in a bracketed file's terms."""
    if os.fspath(path) == "-":
        return open_source(sys.stdin.buffer, name="<stdin>", kind=KIND)
    return open_source(path, kind=KIND)


def parse_tree(text: str, name: str = "<string>") -> Tree:
    """Parse one tree given as a string (either notation); raises InputError unless exactly one sentence."""
    trees = list(read_trees(io.StringIO(text), name))
    if len(trees) != 1:
        raise InputError(name, None, f"expected one tree, found {len(trees)}")
    return trees[0]


def render(tree: Tree) -> str:
    """One line of brackets for a tree: Penn Treebank for ``ptb`` trees, Sampson & Babarczy's (2003) notation for
    ``square`` trees.  ``read_trees(render(t))`` gives back ``t`` (the wrapper too)."""
    n = len(tree.words)
    owner = [-1] * n  # lowest node above each leaf (preorder: later containing nodes are lower)
    for k, (_, _, s, e) in enumerate(tree.nodes):
        for i in range(s, e):
            owner[i] = k
    children: dict[int, list[tuple[int, int, str, int]]] = {}
    for k, (_, parent, s, _) in enumerate(tree.nodes):
        children.setdefault(parent, []).append((s, 0, "node", k))
    for i in range(n):
        children.setdefault(owner[i], []).append((i, 1, "leaf", i))
    square = tree.notation == "square"

    def leaf(i: int) -> str:
        return tree.words[i] if square else f"({tree.pos[i]} {tree.words[i]})"

    def node(k: int) -> str:
        inner = " ".join(leaf(i) if kind == "leaf" else node(i) for _, _, kind, i in sorted(children.get(k, [])))
        return f"[{tree.nodes[k][0]} {inner} ]" if square else f"({tree.nodes[k][0]} {inner})"

    return " ".join(leaf(i) if kind == "leaf" else node(i) for _, _, kind, i in sorted(children.get(-1, [])))
