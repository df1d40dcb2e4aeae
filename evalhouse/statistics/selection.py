"""Which submissions a statistics command looks at: one ``TEAM/RUN``, a team, a corpus, or all of them.

    $ evalhouse analyze --team adapt --corpus en_ewt-test
    $ evalhouse report --submission adapt/1 --out report/
    $ evalhouse augment --submission adapt/1 --from en_ewt-train --out extra.conllu

One :class:`Selection` serves ``analyze``, ``report`` and ``augment``: it parses ``TEAM/RUN``, lists the
submissions it selects and filters any table with team, run and corpus columns by bound parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from evalhouse.errors import OptionError, WarehouseError

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse


@dataclass(frozen=True)
class Selection:
    team: str | None = None
    run: str | None = None
    corpus: str | None = None
    spelled: str | None = field(default=None, compare=False)  # TEAM/RUN as given, for resolve()

    @classmethod
    def of(
        cls, submission: str | None = None, team: str | None = None, corpus: str | None = None, exclusive: bool = False
    ) -> "Selection":
        """From a command's options: ``submission`` is ``TEAM/RUN``; ``exclusive`` allows one of the three."""
        if exclusive and sum(x is not None for x in (submission, team, corpus)) > 1:
            raise OptionError("give at most one of `submission`, `team`, `corpus`")
        if submission is None:
            return cls(team, None, corpus)
        if "/" not in submission:
            raise OptionError(f"`submission` must be TEAM/RUN, not '{submission}'")
        if team is not None:
            raise OptionError("give `submission` or `team`, not both")
        sub_team, run = submission.split("/", 1)
        return cls(sub_team, run, corpus, spelled=submission)

    def resolve(self, wh: Warehouse) -> "Selection":
        """The submission meant by a ``TEAM/RUN`` with more than one '/': team and run names cannot contain
        '/' (:mod:`evalhouse.names`), but a warehouse written before that rule may hold such names. Every
        way of splitting it is tried against the stored submissions; two that exist are refused as
        ambiguous. Any other selection is returned as it is."""
        if self.spelled is None or self.spelled.count("/") < 2:
            return self
        parts = self.spelled.split("/")
        found = []
        for i in range(1, len(parts)):
            candidate = Selection("/".join(parts[:i]), "/".join(parts[i:]), self.corpus, spelled=self.spelled)
            where, params = candidate.where()
            if wh.sql(f"SELECT count(*) FROM submissions WHERE {where}", params).fetchall()[0][0]:
                found.append(candidate)
        if len(found) > 1:
            raise OptionError(
                f"`submission` '{self.spelled}' names several submissions ("
                + ", ".join(f"team '{c.team}' run '{c.run}'" for c in found)
                + "); select one with `team` (and `corpus`) instead"
            )
        return found[0] if found else self

    def describe(self) -> str:
        if self.run is not None:
            return f"submission {self.team}/{self.run}" + (f" on corpus {self.corpus}" if self.corpus else "")
        parts = [f"team {self.team}" if self.team else "", f"corpus {self.corpus}" if self.corpus else ""]
        return " on ".join(p for p in parts if p) or "all submissions"

    def where(self, prefix: str = "") -> tuple[str, dict]:
        """SQL condition on ``{prefix}team``, ``run`` and ``corpus`` columns, and its parameters."""
        params = {k: v for k, v in (("team", self.team), ("run", self.run), ("corpus", self.corpus)) if v is not None}
        return " AND ".join(f"{prefix}{k} = ${k}" for k in params) or "TRUE", params

    def where_pair(self) -> tuple[str, dict]:
        """The condition for tables of pairs of submissions (``team_a``, ``run_a``, ``team_b``, ``run_b``):
        pairs with at least one selected side, on the selected corpus."""
        sides = []
        for side in ("a", "b"):
            _, params = Selection(self.team, self.run).where()
            sides.append(" AND ".join(f"{k}_{side} = ${k}" for k in params) or "TRUE")
        _, params = self.where()
        corpus = "corpus = $corpus" if self.corpus else "TRUE"
        return f"(({sides[0]}) OR ({sides[1]})) AND {corpus}", params

    def submissions(self, wh: Warehouse, required: bool = True) -> list[tuple[str, str, str]]:
        """(team, run, corpus) of every selected submission, sorted; refused when there is none and ``required``."""
        where, params = self.resolve(wh).where()
        found = wh.sql(
            f"SELECT team, run, corpus FROM submissions WHERE {where} ORDER BY team, run, corpus", params
        ).fetchall()
        if not found and required:
            if self.team is None and self.run is None and self.corpus is None:
                raise WarehouseError(f"no submissions in {wh.path}: run `evalhouse ingest outputs` first")
            raise WarehouseError(
                f"no submissions for {self.describe()} in {wh.path} (the stored ones: "
                "evalhouse sql 'select * from submissions')"
            )
        return found

    def dependency_runs(self, wh: Warehouse) -> list[tuple[str, str, str]]:
        """(team, run, corpus) of every selected dependency parser run, sorted (perhaps none)."""
        where, params = self.where()
        return wh.sql(
            f"SELECT team, run, corpus FROM dependency_runs WHERE {where} ORDER BY team, run, corpus", params
        ).fetchall()

    def constituency_runs(self, wh: Warehouse) -> list[tuple[str, str, str]]:
        """(team, run, corpus) of every selected constituency parser run (a candidate of ``ingest parses``),
        sorted (perhaps none)."""
        where, params = self.where()
        return wh.sql(
            f"SELECT team, run, corpus FROM parse_runs WHERE role = 'candidate' AND {where} ORDER BY team, run, corpus",
            params,
        ).fetchall()
