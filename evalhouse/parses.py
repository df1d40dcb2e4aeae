"""The path ``evalhouse.parses`` documented before the restructure. Parse evaluation is now
grouped by job: :mod:`evalhouse.ingest.parses`, :mod:`evalhouse.ingest.dependency_runs` and
:mod:`evalhouse.reports.evalb`; import from there."""

from evalhouse.ingest.dependency_runs import ingest_dependency_run
from evalhouse.ingest.parses import ingest_parses, resolve_cost, resolve_params
from evalhouse.reports.evalb import evalb_report

__all__ = ["evalb_report", "ingest_dependency_run", "ingest_parses", "resolve_cost", "resolve_params"]
