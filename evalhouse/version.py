"""The version, and the configuration signature that every stored score carries.

Every table row that holds a score records the options that produced it (sacrebleu's lesson), in one
format built here: ``evalhouse:VERSION|key:value|...``, the version first. For example the
``configuration`` of a submission scored by ``evalhouse ingest outputs``::

    evalhouse:0.1.0|tokenisation:reference-guided|evalhouse-align:1|dea:case-folded-lemmas,punct-stripped|...

and the ``config`` of a parse run (``evalhouse ingest parses``)::

    evalhouse:0.1.0|prm:COLLINS.prm|labeled:1|delete:...|la-cost:default|lineage:nonterminals
"""

from __future__ import annotations

__version__ = "0.1.0"


def signature(*parts: str) -> str:
    """The configuration string stored with a score: this version, then ``parts`` in the order given
    (each ``key:value``; empty parts are left out)."""
    return "|".join((f"evalhouse:{__version__}",) + tuple(p for p in parts if p))
