"""Packaging and infrastructure: requirements match pyproject, policies and the merge template come
from their one definition, and the packaged CloudFormation template passes cfn-lint offline."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from infra import template

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def test_requirements_txt_equals_pyproject_runtime_dependencies():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    lines = [ln.strip() for ln in (ROOT / "requirements.txt").read_text().splitlines()]
    assert sorted(ln for ln in lines if ln and not ln.startswith("#")) == sorted(pyproject["project"]["dependencies"])


def test_checked_in_policies_are_generated_and_least_privilege():
    for name, expected in template.policy_files().items():
        assert json.loads((ROOT / ".chalice" / name).read_text()) == expected, f"regenerate .chalice/{name}"
    policy = template.iam_policy("prod")
    actions = {a for st in policy["Statement"] for a in st["Action"]}
    assert not any(a.endswith("*") for a in actions)
    assert "dynamodb:Scan" not in actions and "dynamodb:DeleteItem" not in actions
    table_stmt = next(st for st in policy["Statement"] if st["Sid"] == "GameTable")
    assert table_stmt["Resource"] == ["arn:aws:dynamodb:*:*:table/shengong-prod",
                                      "arn:aws:dynamodb:*:*:table/shengong-prod/index/*"]


def test_no_scan_anywhere_in_the_service():
    offenders = [p for p in (ROOT / "chalicelib").rglob("*.py") if ".scan(" in p.read_text()]
    assert offenders == []


def test_packaged_template_passes_cfn_lint(tmp_path):
    resources = tmp_path / "resources.json"
    resources.write_text(json.dumps(template.merge_template("dev"), ensure_ascii=False))
    env = {**os.environ, "AWS_DEFAULT_REGION": "ap-northeast-1"}
    subprocess.run([str(BIN / "chalice"), "package", "--stage", "dev", "--merge-template", str(resources),
                    str(tmp_path / "out")], cwd=ROOT, env=env, check=True, capture_output=True)
    sam = json.loads((tmp_path / "out" / "sam.json").read_text())
    res = sam["Resources"]
    table = res["GameTable"]["Properties"]
    assert {g["IndexName"] for g in table["GlobalSecondaryIndexes"]} == {"lobby", "due", "idle", "board"}
    assert table["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}
    schedules = {k: v["Properties"]["Events"] for k, v in res.items()
                 if v["Type"] == "AWS::Serverless::Function" and "Events" in v["Properties"]}
    assert {k: next(iter(e.values()))["Properties"]["Schedule"] for k, e in schedules.items()} == {
        "SettleOverdue": "rate(1 minute)", "ExpireStalled": "rate(5 minutes)"}
    assert res["SettleOverdue"]["Properties"]["ReservedConcurrentExecutions"] == 1
    runtimes = {v["Properties"]["Runtime"] for v in res.values() if v["Type"] == "AWS::Serverless::Function"}
    assert runtimes <= {"python3.12", "python3.13"}
    assert "TABLE_NAME" not in res["TokenAuthorizer"]["Properties"]["Environment"]["Variables"]
    settings = res["RestAPI"]["Properties"]["MethodSettings"][0]
    assert settings["ThrottlingRateLimit"] > 0 and settings["ThrottlingBurstLimit"] >= settings["ThrottlingRateLimit"]
    api_env = res["APIHandler"]["Properties"]["Environment"]["Variables"]
    for name in ("TOKEN_SECRET", "WECHAT_SECRET", "WECHAT_APPID", "ADMIN_OPENIDS"):
        assert api_env[name].startswith("{{resolve:secretsmanager:shengong/dev/"), name  # never a literal
    lint = subprocess.run([str(BIN / "cfn-lint"), str(tmp_path / "out" / "sam.json")], capture_output=True,
                          text=True, check=False)
    assert lint.returncode == 0, lint.stdout + lint.stderr
