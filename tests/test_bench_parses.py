"""``benchmarks.parses`` names the peer copy it measured: copies of ``conll18_ud_eval.py`` differ (it changed after
the shared task's first release), so its report gives each peer's SHA-256 and the script's latest version."""

from __future__ import annotations

import hashlib

from benchmarks.parses import describe_peer

HEADER = """#!/usr/bin/env python3
# Changelog:
# - [12 Apr 2018] Version 0.9: Initial release.
# - [19 Apr 2018] Version 1.0: Fix bug in MLAS (duplicate entries in functional_children).
# - [02 May 2018] Version 1.1: When removing spaces to match gold and system characters,
# - [25 Jun 2018] Version 1.2: Use python3 in the she-bang (instead of python).
import sys
print("Version 7.0: not a comment, not read")
"""


def test_a_script_is_named_by_its_latest_changelog_version_and_hash(tmp_path):
    script = tmp_path / "conll18_ud_eval.py"
    script.write_text(HEADER)
    digest = hashlib.sha256(HEADER.encode()).hexdigest()[:12]
    assert describe_peer(script) == f"{script} (sha256 {digest}, version 1.2)"


def test_a_program_without_a_changelog_is_named_by_its_hash(tmp_path):
    program = tmp_path / "evalb"
    program.write_bytes(b"\x7fELF\x00\x01 Version 9.9: inside a binary, not after a comment sign")
    assert describe_peer(program) == f"{program} (sha256 {hashlib.sha256(program.read_bytes()).hexdigest()[:12]})"
