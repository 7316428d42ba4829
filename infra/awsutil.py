"""What the deploy and the operator's commands share: one-line failures, sessions, stack look-ups.

Every failure an operator can meet is one line on stderr and exit status 1, never a traceback
(``SHENGONG_DEBUG=1`` shows it). boto3 talks to AWS; nothing needs the AWS CLI. ``AWS_ENDPOINT_URL``
points every client elsewhere (the tests use a local moto server).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from infra import template

ROOT = Path(__file__).resolve().parent.parent
STAGES_FILE = ROOT / "infra" / "stages.json"
DONE = {"CREATE_COMPLETE", "UPDATE_COMPLETE", "UPDATE_ROLLBACK_COMPLETE", "ROLLBACK_COMPLETE",
        "CREATE_FAILED", "ROLLBACK_FAILED", "UPDATE_ROLLBACK_FAILED", "DELETE_COMPLETE", "DELETE_FAILED",
        "IMPORT_COMPLETE", "IMPORT_ROLLBACK_COMPLETE", "IMPORT_ROLLBACK_FAILED"}
OK = {"CREATE_COMPLETE", "UPDATE_COMPLETE"}


class Refused(Exception):
    """An expected failure: its message is the one line the operator sees."""


def poll_s() -> float:
    """Seconds between looks at a stack or table in progress (SHENGONG_POLL_S; the tests make it short)."""
    return float(os.environ.get("SHENGONG_POLL_S", "5"))


def say(text: str) -> None:
    print(text, flush=True)


def step(text: str) -> None:
    print(f"== {text}", flush=True)


def run(main: Callable[[list[str]], int], argv: list[str] | None = None, *, name: str) -> int:
    """Run a command's main, turning every failure into one line on stderr."""
    from botocore.exceptions import (
        BotoCoreError,
        ClientError,
        EndpointConnectionError,
        NoCredentialsError,
        NoRegionError,
        WaiterError,
    )

    try:
        return main(sys.argv[1:] if argv is None else argv)
    except Refused as e:
        message = str(e)
    except NoCredentialsError:
        message = "no AWS credentials: set AWS_PROFILE (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)"
    except NoRegionError:
        message = "no AWS region: set AWS_REGION (e.g. AWS_REGION=ap-east-1)"
    except EndpointConnectionError as e:
        message = f"cannot reach AWS at {e.kwargs.get('endpoint_url', '?')}: check the network and AWS_REGION"
    except ClientError as e:
        err = e.response.get("Error", {})
        message = f"AWS refused {e.operation_name}: {err.get('Code', '?')}: {err.get('Message', '')}".rstrip(": ")
    except WaiterError as e:
        message = f"gave up waiting: {e}"
    except BotoCoreError as e:
        message = f"AWS client error: {e}"
    except KeyboardInterrupt:
        message = "interrupted"
    except Exception as e:  # noqa: BLE001 - the operator gets one line; SHENGONG_DEBUG shows the rest
        message = f"unexpected {type(e).__name__}: {e} (SHENGONG_DEBUG=1 shows the traceback)"
    if os.environ.get("SHENGONG_DEBUG"):
        traceback.print_exc()
    line = " ".join(message.split())
    print(f"{name}: {line if len(line) <= 400 else line[:397] + '...'}", file=sys.stderr, flush=True)
    return 1


def check_stage(stage: str) -> str:
    if not re.fullmatch(r"[a-z][a-z0-9-]{0,15}", stage or ""):
        raise Refused(f"bad stage name {stage!r}: lower-case letters, digits and '-', e.g. dev")
    if stage == "local":
        raise Refused("the local stage is not deployed: use infra/dev.sh serve")
    config = json.loads((ROOT / ".chalice" / "config.json").read_text(encoding="utf-8"))
    known = sorted(s for s in config["stages"] if s != "local")
    if stage not in known or stage not in template.STAGES:
        raise Refused(f"unknown stage {stage!r}: deployable stages are {', '.join(known)} (.chalice/config.json)")
    return stage


def region() -> str:
    value = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    if not value:
        raise Refused("no AWS region: set AWS_REGION (e.g. AWS_REGION=ap-east-1)")
    return value


_LOADER: Any = None


def _core_session() -> Any:
    """A fresh botocore session (credentials and settings read now) sharing one cache of service models."""
    global _LOADER
    import botocore.loaders
    import botocore.session

    if _LOADER is None:
        _LOADER = botocore.loaders.create_loader()
    core = botocore.session.Session()
    core.register_component("data_loader", _LOADER)
    return core


class Aws:
    """Clients for one region, made on first use."""

    def __init__(self, region_name: str) -> None:
        import boto3
        from botocore.config import Config

        self.region = region_name
        self._session = boto3.session.Session(region_name=region_name, botocore_session=_core_session())
        self._config = Config(retries={"mode": "standard", "max_attempts": 5})
        self._clients: dict[str, Any] = {}

    def client(self, service: str) -> Any:
        if service not in self._clients:
            self._clients[service] = self._session.client(service, config=self._config)  # type: ignore[call-overload]
        return self._clients[service]

    def __getattr__(self, service: str) -> Any:
        if service.startswith("_"):
            raise AttributeError(service)
        return self.client(service)

    def account(self) -> str:
        return str(self.sts.get_caller_identity()["Account"])


def expected_account(stage: str) -> str | None:
    """The account a stage must be deployed to: SHENGONG_EXPECTED_ACCOUNT, else infra/stages.json."""
    pinned = os.environ.get("SHENGONG_EXPECTED_ACCOUNT")
    if pinned:
        return pinned
    if STAGES_FILE.exists():
        entry = json.loads(STAGES_FILE.read_text(encoding="utf-8")).get(stage) or {}
        account = entry.get("account")
        return str(account) if account else None
    return None


def check_account(aws: Aws, stage: str) -> str:
    account = aws.account()
    expected = expected_account(stage)
    if expected and expected != account:
        raise Refused(f"refusing to touch {stage} from account {account}: {stage} lives in account {expected} "
                      "(infra/stages.json or SHENGONG_EXPECTED_ACCOUNT)")
    if stage == "prod" and not expected:
        raise Refused("refusing to deploy prod to an unpinned account: put its 12-digit id in infra/stages.json "
                      '("prod": {"account": "…"}) or set SHENGONG_EXPECTED_ACCOUNT')
    return account


def stack_name(stage: str) -> str:
    return f"shengong-{stage}"


def describe_stack(aws: Aws, stage: str) -> dict[str, Any] | None:
    from botocore.exceptions import ClientError

    try:
        stacks = aws.cloudformation.describe_stacks(StackName=stack_name(stage))["Stacks"]
    except ClientError as e:
        if "does not exist" in e.response.get("Error", {}).get("Message", ""):
            return None
        raise
    return stacks[0] if stacks else None


def require_stack(aws: Aws, stage: str) -> dict[str, Any]:
    stack = describe_stack(aws, stage)
    if stack is None:
        raise Refused(f"stack {stack_name(stage)} does not exist in {aws.region}: deploy it first (infra/deploy.sh {stage})")
    return stack


def outputs(stack: dict[str, Any]) -> dict[str, str]:
    return {o["OutputKey"]: o["OutputValue"] for o in stack.get("Outputs", []) if "OutputValue" in o}


def parameters(stack: dict[str, Any]) -> dict[str, str]:
    return {p["ParameterKey"]: p.get("ParameterValue", "") for p in stack.get("Parameters", [])}


def tags(stack: dict[str, Any]) -> dict[str, str]:
    return {t["Key"]: t["Value"] for t in stack.get("Tags", [])}


def physical_ids(aws: Aws, stage: str) -> dict[str, str]:
    """Logical id -> physical id of the stack's resources."""
    found: dict[str, str] = {}
    for page in aws.cloudformation.get_paginator("list_stack_resources").paginate(StackName=stack_name(stage)):
        for r in page["StackResourceSummaries"]:
            if r.get("PhysicalResourceId"):
                found[r["LogicalResourceId"]] = r["PhysicalResourceId"]
    return found


def wait_for_stack(aws: Aws, stage: str, since: float, timeout_s: float = 3600) -> dict[str, Any]:
    """Print the stack's events as they happen until it settles; its final description."""
    seen: set[str] = set()
    deadline = time.monotonic() + timeout_s
    while True:
        events = aws.cloudformation.describe_stack_events(StackName=stack_name(stage))["StackEvents"]
        for ev in reversed(events):
            if ev["EventId"] in seen or ev["Timestamp"].timestamp() < since - 1:
                continue
            seen.add(ev["EventId"])
            reason = f"  {ev['ResourceStatusReason']}" if ev.get("ResourceStatusReason") else ""
            say(f"  {ev['Timestamp']:%H:%M:%S}  {ev['LogicalResourceId']:<40} {ev['ResourceStatus']}{reason}")
        stack = require_stack(aws, stage)
        if stack["StackStatus"] in DONE:
            return stack
        if time.monotonic() > deadline:
            raise Refused(f"stack {stack_name(stage)} still {stack['StackStatus']} after {timeout_s:.0f} s")
        time.sleep(poll_s())


def first_failure(aws: Aws, stage: str, since: float) -> str:
    events = aws.cloudformation.describe_stack_events(StackName=stack_name(stage))["StackEvents"]
    failed = [e for e in reversed(events) if e["ResourceStatus"].endswith("FAILED")
              and e["Timestamp"].timestamp() >= since - 1 and e.get("ResourceStatusReason")]
    if not failed:
        return "no reason given"
    return f"{failed[0]['LogicalResourceId']}: {failed[0]['ResourceStatusReason']}"


def commit() -> str:
    """The commit being deployed (with -dirty when the work tree has uncommitted changes; SHENGONG_COMMIT
    overrides, for CI systems that build outside a git checkout)."""
    if os.environ.get("SHENGONG_COMMIT"):
        return os.environ["SHENGONG_COMMIT"]
    try:
        sha = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{sha}-dirty" if dirty else sha


@contextmanager
def quiet_warnings() -> Iterator[None]:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield
