"""The repository passes its linter and its formatter: ``ruff check .`` and ``ruff format --check .`` with the
configuration in pyproject.toml [tool.ruff] (pyflakes and pycodestyle's error rules; line length 120). .ci/run
runs the same commands before the suite."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.conftest import REPO


def _ruff() -> list[str]:
    try:
        import ruff  # noqa: F401  (the wheel ships the binary beside this package)

        command = [sys.executable, "-m", "ruff"]
    except ImportError:
        if shutil.which("ruff") is None:
            pytest.skip("RUFF MISSING: install the test extras (python -m pip install -e '.[test]')")
        command = ["ruff"]
    return command


@pytest.mark.parametrize("arguments", [["check", "--no-cache", "."], ["format", "--check", "--no-cache", "."]])
def test_ruff_passes(arguments):
    result = subprocess.run([*_ruff(), *arguments], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
