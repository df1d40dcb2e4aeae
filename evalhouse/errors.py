"""The three errors evalhouse raises, for the Python API and the ``evalhouse`` command alike.

* :class:`InputError`: bad input. ``str(err)`` is ``FILE:LINE: problem``; nothing was stored.
* :class:`WarehouseError`: the warehouse refuses (locked, unknown corpus or view, already stored).
* :class:`OptionError`: bad or conflicting arguments (a ``ValueError``).

Library messages speak of the library, never of the command line. Where a message names an argument
of the call it writes it in backticks, as Python spells it (```team```, ```replace=True```), and
``option`` names the argument that would make a refused call go through. The CLI
(:mod:`evalhouse.cli.common`) writes those names as the command's flags: ``--team``, ``--replace``.
"""

from __future__ import annotations

import re
from typing import Callable

# an argument named in a message: `team`, or `replace=True` for a switch
ARGUMENT = re.compile(r"`([a-z_][a-z0-9_]*)(=True)?`")


def name_arguments(message: str, flag: Callable[[str], str | None]) -> str:
    """``message`` with every argument named in it written as ``flag(name)`` (kept as it is when
    ``flag`` returns None)."""

    def replace(m: re.Match) -> str:
        written = flag(m.group(1))
        return m.group(0) if written is None else written

    return ARGUMENT.sub(replace, message)


class InputError(Exception):
    """Bad input. ``str(err)`` is the one-line ``FILE:LINE: problem`` message users see.

    ``option``: the argument that would accept such input instead (``allow_mismatch``,
    ``skip_bad_alignment_lines``), when there is one.
    """

    def __init__(self, path: str, line: int | None, problem: str, more: int = 0, option: str | None = None):
        self.path = str(path)
        self.line = line
        self.problem = problem
        self.more = more
        self.option = option
        where = f"{self.path}:{line}" if line is not None else self.path
        tail = f" (and {more} more problem{'s' if more != 1 else ''} in this file)" if more else ""
        super().__init__(f"{where}: {problem}{tail}")

    def __reduce__(self):  # picklable, so that errors raised in worker processes reach the parent intact
        return (InputError, (self.path, self.line, self.problem, self.more, self.option))


class WarehouseError(Exception):
    """A problem with the warehouse itself: locked, an unknown corpus or view, something already stored.

    ``option``: the argument that overrides the refusal (``replace``), when there is one.
    """

    def __init__(self, message: str, option: str | None = None):
        self.option = option
        super().__init__(message)


class OptionError(ValueError):
    """Arguments that are wrong or do not go together; ``str(err)`` names them in backticks."""
