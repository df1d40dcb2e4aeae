"""SQL functions evalhouse registers on every connection it opens (CLI ``sql`` and the Python API).

    $ evalhouse sql "select mean_flux_weight(list(head order by dependent)) from edges
                     where corpus = 'sample' and position = 1"

Nothing stored in the warehouse depends on them: results that need Python are materialised at
ingest, so plain DuckDB clients read every view without these functions.
"""

from __future__ import annotations

import duckdb

from evalhouse.analysis import bleu, trees

# name -> (python function, parameter types, return type), types as DuckDB type strings
FUNCTIONS = {
    "flux_weights": (trees.flux_weights, ["INTEGER[]"], "INTEGER[]"),
    "flux_sizes": (trees.flux_sizes, ["INTEGER[]"], "INTEGER[]"),
    "mean_flux_weight": (trees.mean_flux_weight, ["INTEGER[]"], "DOUBLE"),
    "is_projective": (trees.is_projective, ["INTEGER[]"], "BOOLEAN"),
}

# vectorised functions: called with whole Arrow columns
ARROW_FUNCTIONS = {
    "sentence_bleu": (bleu.sentence_bleu_arrow, ["VARCHAR[]", "VARCHAR[]"], "DOUBLE"),
}


def register_udfs(con) -> None:
    """Register every evalhouse SQL function on a DuckDB connection (idempotent)."""
    for kind, functions in (("native", FUNCTIONS), ("arrow", ARROW_FUNCTIONS)):
        for name, (fn, params, ret) in functions.items():
            try:
                con.remove_function(name)
            except (duckdb.InvalidInputException, duckdb.CatalogException):
                pass
            con.create_function(name, fn, [duckdb.sqltype(p) for p in params], duckdb.sqltype(ret), type=kind,
                                null_handling="special", exception_handling="default", side_effects=False)
