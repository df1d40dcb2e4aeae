"""The names users give what they store: corpus, team and run.

A name must let the user select the thing again, print it on one line and write it into a path, so it is
refused at ingest (nothing is stored) when it is

* empty, or only white space (``--team ""``): nothing could select it, and some commands would read an
  empty option as "not given" and fall back to a default;
* holding a control character (a newline, a tab, NUL) or a line or paragraph separator (U+2028, U+2029):
  it would break one-line messages, CSV and terminal tables;
* holding an invisible formatting character (Unicode category Cf: the bidirectional overrides and isolates
  such as U+202E RIGHT-TO-LEFT OVERRIDE, zero-width spaces and joiners such as U+200B, U+200D and
  U+FEFF, the soft hyphen): a name would then display as another name, in the report and in a terminal
  (``team\u202eevil`` showed as a reversed name, ``adapt\u200b`` as ``adapt``). This also refuses
  the zero-width non-joiner and joiner that some scripts and emoji sequences use: such a name needs
  another spelling;
* not Unicode text (a lone surrogate, as a file name that is not UTF-8 gives): it cannot be stored;
* for a team or a run, holding ``/``: ``report --submission`` and ``augment --submission`` select a
  submission as ``TEAM/RUN``.

A corpus name may contain ``/`` (nothing splits it). Warehouses written before this rule may hold such
names: they are read as before (``sql``, ``export``, ``analyze --team``, ``report --team``), and
``--submission A/B/C`` is resolved against the stored submissions
(:meth:`evalhouse.statistics.selection.Selection.resolve`); a name this module refuses cannot be
ingested again (a ``--replace`` under it is refused too).
"""

from __future__ import annotations

import unicodedata

from evalhouse.errors import OptionError

NAMED = ("corpus", "team", "run")  # the key columns that hold names users choose


def problem(argument: str, value: object) -> str | None:
    """Why ``value`` cannot be the name ``argument`` (corpus, team, run), or None when it can."""
    if not isinstance(value, str):
        return f"{argument} {value!r}: a name must be a string"
    if not value.strip():
        return f"{argument} {value!r}: a name cannot be empty or only white space"
    categories = [unicodedata.category(c) for c in value]
    if any(c in ("Cc", "Zl", "Zp") for c in categories):
        return f"{argument} {value!r}: a name cannot contain a control character or line separator (newline, tab, ...)"
    if "Cf" in categories:
        hidden = value[categories.index("Cf")]
        return (
            f"{argument} {value!r}: a name cannot contain an invisible formatting character (here U+{ord(hidden):04X} "
            f"{unicodedata.name(hidden, 'FORMAT CHARACTER')}): it would display as another name"
        )
    if "Cs" in categories:
        return (
            f"{argument} {value!r}: a name must be Unicode text (it holds a lone surrogate, as a name read from "
            f"bytes that are not UTF-8 does)"
        )
    if argument in ("team", "run") and "/" in value:
        return f"{argument} {value!r}: a {argument} name cannot contain '/' (a submission is selected as TEAM/RUN)"
    return None


def check_names(**names: object) -> None:
    """Refuse (:class:`OptionError`, naming the argument) the first of ``names`` (``corpus=``, ``team=``,
    ``run=``) that :func:`problem` finds wrong; None means not given."""
    for argument, value in names.items():
        if value is None:
            continue
        why = problem(argument, value)
        if why is not None:
            raise OptionError(f"`{argument}`" + why[len(argument) :])
