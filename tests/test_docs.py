"""The documentation holds together: the command reference docs/commands.md is what the CLI declares now
(as tests/test_dataset.py checks docs/data-dictionary.md), and every relative link and #anchor of README.md,
ARCHITECTURE.md, CONTRIBUTING.md and docs/*.md leads to a file and a heading that exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evalhouse.cli.reference import command_reference
from tests.conftest import REPO
from tests.test_cli import COMMANDS

PAGES = sorted([REPO / "README.md", REPO / "ARCHITECTURE.md", REPO / "CONTRIBUTING.md", *(REPO / "docs").glob("*.md")])
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def test_the_committed_command_reference_is_current():
    assert (REPO / "docs" / "commands.md").read_text(encoding="utf-8") == command_reference(), (
        "regenerate: python -m evalhouse.cli.reference > docs/commands.md"
    )


def test_the_command_reference_names_every_command_and_option():
    """Not the generator's own output read back: the click tree as tests/test_cli.py walks it."""
    text = (REPO / "docs" / "commands.md").read_text(encoding="utf-8")
    assert len(COMMANDS) >= 20
    for path, cmd in COMMANDS.items():
        heading = f"\n## `evalhouse {' '.join(path)}`\n"
        assert heading in text, heading
        section = text[text.index(heading) + len(heading) :]
        section = section[: section.find("\n## ")] if "\n## " in section else section
        for param in cmd.params:
            if param.param_type_name == "option" and "--help" not in param.opts:
                assert f"`{param.opts[0]}`" in section, (path, param.opts)


def _without_code(text: str) -> str:
    """The Markdown outside fenced blocks and inline code, where a link is a link."""
    text = re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, markup and punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = text.replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of a Markdown page: one per heading (a repeated slug gets -1, -2, ...)."""
    text = re.sub(r"^(```|~~~).*?^\1", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#{1,6}\s+(.*?)\s*#*\s*$", text, flags=re.M):
        base = slug(heading)
        n = seen.get(base, 0)
        out.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    out |= set(re.findall(r"<a (?:name|id)=\"([^\"]+)\"", text))
    return out


def test_slugs_follow_github():
    """Worked examples of GitHub's rule, as GitHub renders these headings."""
    assert slug("`evalhouse ingest treebank`") == "evalhouse-ingest-treebank"
    assert slug("Set-up: two commands") == "set-up-two-commands"
    assert slug("Fidelity to the paper") == "fidelity-to-the-paper"
    assert (
        slug("Every command that only reads runs in the same sandbox")
        == "every-command-that-only-reads-runs-in-the-same-sandbox"
    )
    assert slug("Which DuckDB?") == "which-duckdb"


def links(path: Path) -> list[str]:
    return [m.group(1) for m in LINK.finditer(_without_code(path.read_text(encoding="utf-8")))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_and_anchor_resolves(page):
    assert page.exists(), page
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading with anchor #{anchor} in {dest.relative_to(REPO)}")
    assert not broken, broken


def test_the_link_checker_sees_a_broken_link(tmp_path):
    page = tmp_path / "a.md"
    (tmp_path / "b.md").write_text("# Title\n\n## Sub `part`\n", encoding="utf-8")
    page.write_text("[ok](b.md#sub-part) [bad](b.md#nope) [gone](c.md) `[not a link](x.md)`\n", encoding="utf-8")
    assert links(page) == ["b.md#sub-part", "b.md#nope", "c.md"]
    assert anchors(tmp_path / "b.md") == {"title", "sub-part"}
