"""The leaf-ancestor label-cost function a command's ``--cost`` names, for ``ingest parses`` and ``ingest dependency-run``.

A module of its own so that ``ingest dependency-run`` resolves its ``--cost`` without importing the constituency
ingest (:mod:`evalhouse.ingest.parses`, EVALB's rules and its C kernel, the bracket reader): 0.013 s of
every run. A cost-table file is read by :mod:`evalhouse.loaders.evalb_prm`, loaded only when one is named.
"""

from __future__ import annotations

import os

from evalhouse.analysis.leaf_ancestor import LabelCost, cost_function
from evalhouse.errors import OptionError
from evalhouse.lazy import lazy_module

evalb_prm = lazy_module("evalhouse.loaders.evalb_prm")  # imports EVALB's rules (evalhouse.analysis.parse_eval)


def resolve_cost(cost: str | None = "default") -> LabelCost:
    """``default`` (the paper's experiment), ``strict``, or the path of a cost-table file."""
    if cost is None or cost in ("default", "strict"):
        return cost_function(cost or "default")
    if not os.path.exists(cost):
        raise OptionError(
            f"unknown label-cost function '{cost}' (valid: default, strict, or an existing cost-table file)"
        )
    return evalb_prm.read_cost_table(cost)
