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
