"""Packaging is slow-ish (chalice package, the SAM transform): done once per test run and shared, also
between xdist workers (the first one packages under a file lock, the others read its result)."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
REGION = "ap-northeast-1"


@pytest.fixture(scope="session")
def packaged(tmp_path_factory):
    """prod, as the deploy builds it: (merged SAM template, expanded CloudFormation, path of the expanded file)."""
    base = tmp_path_factory.getbasetemp()
    # under xdist each worker's base is <run>/popen-gwN: their parent is this run's, shared by the workers
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shengong-package"
    shared.mkdir(exist_ok=True)
    with (shared / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "template.json").exists():
            _package(shared)
    return (json.loads((shared / "sam.json").read_text()), json.loads((shared / "template.json").read_text()),
            shared / "template.json")


def _package(out: Path) -> None:
    from infra import template

    merge = out / "resources.json"
    merge.write_text(json.dumps(template.merge_template("prod"), ensure_ascii=False))
    env = {**os.environ, "AWS_DEFAULT_REGION": REGION}
    done = subprocess.run([str(BIN / "chalice"), "package", "--stage", "prod", "--merge-template", str(merge),
                           str(out / "package")], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    sam = template.finalize(json.loads((out / "package" / "sam.json").read_text()))
    for fn in template.FUNCTIONS:
        sam["Resources"][fn]["Properties"]["CodeUri"] = {"Bucket": "shengong-artifacts-test", "Key": "code.zip"}
    sam["Resources"]["ManagedLayer"]["Properties"]["ContentUri"] = {"Bucket": "shengong-artifacts-test",
                                                                   "Key": "layer.zip"}
    cfn = template.expand(sam, REGION)
    (out / "sam.json").write_text(json.dumps(sam, ensure_ascii=False))
    (out / "template.json.tmp").write_text(json.dumps(cfn, ensure_ascii=False, indent=1))
    (out / "template.json.tmp").rename(out / "template.json")
