"""Packaging is slow-ish (chalice package, the SAM transform): done once per session, shared."""

from __future__ import annotations

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
    from infra import template

    out = tmp_path_factory.mktemp("package")
    merge = out / "resources.json"
    merge.write_text(json.dumps(template.merge_template("prod"), ensure_ascii=False))
    env = {**os.environ, "AWS_DEFAULT_REGION": REGION}
    done = subprocess.run([str(BIN / "chalice"), "package", "--stage", "prod", "--merge-template", str(merge),
                           str(out / "package")], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    sam = template.finalize(json.loads((out / "package" / "sam.json").read_text()))
    for fn in template.FUNCTIONS:
        sam["Resources"][fn]["Properties"]["CodeUri"] = {"Bucket": "shengong-artifacts-test", "Key": "code.zip"}
    cfn = template.expand(sam, REGION)
    path = out / "template.json"
    path.write_text(json.dumps(cfn, ensure_ascii=False, indent=1))
    return sam, cfn, path
