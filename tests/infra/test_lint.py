"""The code stays lint-clean (ruff, configured in pyproject.toml), so style drift fails the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ruff_finds_nothing():
    ruff = Path(sys.executable).parent / "ruff"
    res = subprocess.run([str(ruff), "check", "chalicelib", "app.py", "infra", "tests"], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stdout + res.stderr


def test_mypy_strict_finds_nothing():
    """`mypy --strict` over chalicelib/ ([tool.mypy] in pyproject.toml): the seams stay typed."""
    res = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stdout[-5000:] + res.stderr[-2000:]
    assert "Success: no issues found" in res.stdout
