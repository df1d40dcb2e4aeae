"""SQL functions evalhouse registers on every connection it opens (CLI ``sql`` and the Python API).

    $ evalhouse sql "select mean_flux_weight(list(head order by dependent)) from edges
                     where corpus = 'sample' and position = 1"

Nothing stored in the warehouse depends on them: results that need Python are materialised at
ingest, so plain DuckDB clients read every view without these functions.
"""

from __future__ import annotations

import duckdb

from evalhouse.lazy import lazy_module

# numpy (0.1-0.15 s to import) is loaded by the first call of a function, not by every connection: a
# read-only `evalhouse sql` that calls none of them does not pay for it (fixed cost)
bleu = lazy_module("evalhouse.analysis.bleu")
trees = lazy_module("evalhouse.analysis.trees")


def flux_weights(heads):
    return trees.flux_weights(heads)


def flux_sizes(heads):
    return trees.flux_sizes(heads)


def mean_flux_weight(heads):
    return trees.mean_flux_weight(heads)


def is_projective(heads):
    return trees.is_projective(heads)


def sentence_bleu(hypotheses, references):
    return bleu.sentence_bleu_arrow(hypotheses, references)


# name -> (python function, parameter types, return type), types as DuckDB type strings; each function
# hands over to the one of the same name in analysis/trees.py (sentence_bleu: bleu.sentence_bleu_arrow)
FUNCTIONS = {
    "flux_weights": (flux_weights, ["INTEGER[]"], "INTEGER[]"),
    "flux_sizes": (flux_sizes, ["INTEGER[]"], "INTEGER[]"),
    "mean_flux_weight": (mean_flux_weight, ["INTEGER[]"], "DOUBLE"),
    "is_projective": (is_projective, ["INTEGER[]"], "BOOLEAN"),
}

# vectorised functions: called with whole Arrow columns
ARROW_FUNCTIONS = {
    "sentence_bleu": (sentence_bleu, ["VARCHAR[]", "VARCHAR[]"], "DOUBLE"),
}


def register_udfs(con: duckdb.DuckDBPyConnection) -> None:
    """Register every evalhouse SQL function on a DuckDB connection (idempotent)."""
    for kind, functions in (("native", FUNCTIONS), ("arrow", ARROW_FUNCTIONS)):
        for name, (fn, params, ret) in functions.items():
            try:
                con.remove_function(name)
            except (duckdb.InvalidInputException, duckdb.CatalogException):
                pass
            # the connection's own sqltype: duckdb.sqltype() opens DuckDB's default connection first (0.014 s)
            con.create_function(
                name,
                fn,
                [con.sqltype(p) for p in params],
                con.sqltype(ret),
                type=kind,
                null_handling="special",
                exception_handling="default",
                side_effects=False,
            )
