"""The one error type loaders raise for bad input: it names the file, the line and the problem."""

from __future__ import annotations


class InputError(Exception):
    """Bad input. ``str(err)`` is the one-line ``FILE:LINE: problem`` message users see."""

    def __init__(self, path: str, line: int | None, problem: str, more: int = 0):
        self.path = str(path)
        self.line = line
        self.problem = problem
        self.more = more
        where = f"{self.path}:{line}" if line is not None else self.path
        tail = f" (and {more} more problem{'s' if more != 1 else ''} in this file)" if more else ""
        super().__init__(f"{where}: {problem}{tail}")

    def __reduce__(self):  # picklable, so that errors raised in worker processes reach the parent intact
        return (InputError, (self.path, self.line, self.problem, self.more))
