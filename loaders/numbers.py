"""Numbers in input files: ids, positions, indices, counts and weights, read strictly.

Python's ``int()`` and ``float()`` are too generous for input files and fail with messages of their own:
they accept the digits of every script (``int('١')`` is 1, so ``# sent_id = ١`` was taken as position 1),
raise ``invalid literal for int()`` on ``¹`` (which ``str.isdigit()`` accepts), and refuse more than 4,300
digits with a message about ``sys.set_int_max_str_digits``. Every loader reads numbers here instead:
ASCII digits only, at most :data:`MAX_DIGITS` of them, and ``None`` for anything else, so that the
loader reports ``FILE:LINE: problem`` in its own words. :func:`shown` quotes a value for such a message
without copying a 5,000-character field into it.
"""

from __future__ import annotations

import math
import re

MAX_DIGITS = 18  # every id, position and count fits in a signed 64-bit integer
_INTEGER = re.compile(r"[+-]?[0-9]{1,%d}" % MAX_DIGITS, re.ASCII)
_DECIMAL = re.compile(
    r"[+-]?(?:[0-9]{1,%d}(?:\.[0-9]{0,%d})?|\.[0-9]{1,%d})(?:[eE][+-]?[0-9]{1,3})?"
    % (MAX_DIGITS, MAX_DIGITS, MAX_DIGITS),
    re.ASCII,
)


def integer(text: str, signed: bool = False) -> int | None:
    """The integer ``text`` spells in ASCII digits (a sign only when ``signed``), or None."""
    if not _INTEGER.fullmatch(text) or (not signed and text[0] in "+-"):
        return None
    return int(text)


def decimal(text: str) -> float | None:
    """The finite number ``text`` spells in ASCII (``0.5``, ``1``, ``.25``, ``1e-3``), or None: no ``nan``,
    ``inf``, underscores or digits of other scripts."""
    if not _DECIMAL.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error message, cut after ``limit`` characters (saying how long it was)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"
