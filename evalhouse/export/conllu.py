"""Write a corpus back to CoNLL-U from the base tables.

    $ evalhouse export-conllu en_ewt-test --out en_ewt-test.conllu

``evalhouse augment`` writes its chosen sentences with the same function, each with a comment of its own.

Comment lines come back verbatim and in order; token lines are rebuilt from the verbatim columns
in the canonical CoNLL-U order (ranges a-b just before word a, empty nodes n.k just after word n),
which is the only order ingest accepts.  A canonical input (LF line ends, no byte-order mark, one
blank line after every sentence) therefore comes back byte for byte; a normalised one comes back
in its canonical form (see ``corpora.normalisations``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    import duckdb

_SENTENCE_TEXT = r"""
WITH token_lines AS (
    SELECT position, [first_id, 0, 0] AS slot,
           concat_ws(chr(9), first_id || '-' || last_id, form, lemma, upos, xpos, feats, head, deprel, deps, misc) AS line
    FROM multiword_tokens WHERE corpus = $corpus
    UNION ALL
    SELECT position, [id, 1, 0],
           concat_ws(chr(9), id, form, lemma, upos, xpos, feats, head, deprel, deps, misc)
    FROM nodes WHERE corpus = $corpus
    UNION ALL
    SELECT position, [after_id, 2, sub_id],
           concat_ws(chr(9), after_id || '.' || sub_id, form, lemma, upos, xpos, feats, head, deprel, deps, misc)
    FROM empty_nodes WHERE corpus = $corpus
), bodies AS (
    SELECT position, string_agg(line, chr(10) ORDER BY slot) AS body
    FROM token_lines GROUP BY position
)
SELECT s.position, s.comments, b.body
FROM sentences s JOIN bodies b USING (position)
WHERE s.corpus = $corpus
ORDER BY s.position
"""


def write_corpus(
    con: duckdb.DuckDBPyConnection,
    corpus: str,
    out: str | os.PathLike,
    batch: int = 10_000,
    only: Mapping[int, list[str]] | None = None,
) -> int:
    """Write ``corpus`` to the file ``out``; returns the number of sentences written. With ``only``
    (position -> comment lines), just those sentences, each with its comment lines after its own."""
    cursor = con.execute(_SENTENCE_TEXT, {"corpus": corpus})
    written = 0
    with open(out, "w", encoding="utf-8", newline="\n") as handle:
        while True:
            rows = cursor.fetchmany(batch)
            if not rows:
                break
            if only is not None:
                rows = [(p, comments + only[p], body) for p, comments, body in rows if p in only]
            for _, comments, body in rows:
                if comments:
                    handle.write("\n".join(comments))
                    handle.write("\n")
                handle.write(body)
                handle.write("\n\n")
            written += len(rows)
    return written
