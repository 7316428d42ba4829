"""The README's quick starts run verbatim against the local server: every `sh` block whose first line
is `# quick start: …`, in order, in one bash session (`set -euo pipefail`), with `API` pointing at a
server started here. Each block must finish and print what a reader is told to expect."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.local_server import local_server

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.server


def blocks() -> dict[str, str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = {}
    for body in re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL):
        first = body.splitlines()[0]
        if first.startswith("# quick start:"):
            found[first.removeprefix("# quick start:").strip()] = body
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with local_server(tmp_path_factory.mktemp("readme"), workers=2, tick="1") as running:
        yield running.url


def run(url: str, *names: str) -> str:
    found = blocks()
    script = "set -euo pipefail\n" + "\n".join(found[n] for n in names)
    # the blocks' `python3` is the suite's own interpreter, found first on PATH: a version manager's
    # shim (pyenv's is a bash script) would cost ~150 ms of CPU on each of the blocks' ~100 calls
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    done = subprocess.run(["bash", "-c", script], check=False, env={**os.environ, "API": url, "PATH": path},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def test_the_readme_has_the_three_quick_starts():
    assert set(blocks()) == {"helpers", "宫斗杀", "保皇", "血染甄嬛传"}


def test_shengong_quick_start(server):
    out = run(server, "helpers", "宫斗杀").splitlines()
    assert out[:2] == ["open", "active"]  # the third seat starts the game
    assert out[-1] == "finished" and ("clear" in out[-2] or "wipe" in out[-2] or "limit" in out[-2])


@pytest.mark.full  # a whole deal by curl; the other two quick starts run by default
def test_baohuang_quick_start(server):
    out = run(server, "helpers", "保皇").splitlines()
    assert "机器人" in out[0] and "advanced" in out[0]
    scores = eval(out[-1])  # a list of (name, score)
    assert len(scores) == 5 and sum(s for _, s in scores) == 0


def test_zhenhuan_quick_start(server):
    out = run(server, "helpers", "血染甄嬛传").splitlines()
    assert out[-1] == "good"
    assert out[3].startswith("(None, ")  # a player sees her role and no step
