"""The repository passes its linter: ``ruff check .`` with the configuration in pyproject.toml [tool.ruff]
(pyflakes and pycodestyle's error rules). .ci/run runs the same command before the suite."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.conftest import REPO


def test_ruff_check_passes():
    try:
        import ruff  # noqa: F401  (the wheel ships the binary beside this package)
        command = [sys.executable, "-m", "ruff"]
    except ImportError:
        if shutil.which("ruff") is None:
            pytest.skip("RUFF MISSING: install the test extras (python -m pip install -e '.[test]')")
        command = ["ruff"]
    result = subprocess.run([*command, "check", "--no-cache", "."], cwd=REPO,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
