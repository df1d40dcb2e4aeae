"""Benchmarks: speed and memory of evalhouse on the real data in ../shared/data, one module per subject,
each run from the repository root as ``python -m benchmarks.<name>`` (see BENCHMARKS.md). They are not
part of the installed package; targets are checked here, never by timed assertions in tests."""
