"""Shared fixtures: an in-memory DynamoDB (moto) with our table, an injected clock, the wired
services and a Chalice test client. Every API response is validated against its documented model."""

from __future__ import annotations

import functools
import hashlib
import itertools
import os

import pytest

os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
os.environ.setdefault("AWS_SESSION_TOKEN", "testing")
os.environ.setdefault("AWS_DEFAULT_REGION", "ap-northeast-1")
os.environ["POWERTOOLS_METRICS_DISABLED"] = "true"
os.environ["POWERTOOLS_LOG_LEVEL"] = "WARNING"
os.environ["VALIDATE_RESPONSES"] = "1"
os.environ.pop("AWS_ENDPOINT_URL_DYNAMODB", None)

TABLE = "shengong-test"

from infra.moto_speedups import install

install()  # moto fast enough to play whole games on, with the same answers (infra/moto_speedups.py)

FULL = os.environ.get("SHENGONG_FULL") == "1"
"""The full run (`infra/dev.sh test --full`): tests marked `full` too, and soaks at their full size."""


def pytest_collection_modifyitems(config, items):
    """`full` tests (long games over real sockets, the biggest tables) run in the full run only, or
    when selected with `-m full`; the default run keeps one test of each path, so it stays fast."""
    if FULL or "full" in (config.getoption("markexpr") or "").replace("not full", ""):
        return
    skip = pytest.mark.skip(reason="full run only: infra/dev.sh test --full (or -m full)")
    for item in items:
        if item.get_closest_marker("full"):
            item.add_marker(skip)


@functools.cache
def dynamodb_client():
    """One botocore client per test process: a client holds no table state (moto's backend, reset by
    each test's `mock_aws`, does), and building one loads and parses the service model (~0.13 s,
    most of a test's set-up)."""
    import boto3

    return boto3.client("dynamodb", region_name=os.environ["AWS_DEFAULT_REGION"])


@pytest.fixture
def ddb():
    from moto import mock_aws

    from chalicelib.store.table import create_table
    from infra.moto_speedups import plain_json_answers

    with mock_aws(), plain_json_answers():
        client = dynamodb_client()
        create_table(client, TABLE)
        yield client


@pytest.fixture
def clock():
    from chalicelib.core.clock import FixedClock

    return FixedClock()


@pytest.fixture
def settings_env():
    return {"STAGE": "local", "TABLE_NAME": TABLE, "ADMIN_OPENIDS": "dev:司礼,wx-admin-openid",
            "WECHAT_APPID": "wx-test-app", "WECHAT_SECRET": "test-secret",
            "WECHAT_BASE_URL": "http://127.0.0.1:9"}


@pytest.fixture
def svc(ddb, clock, settings_env, request):
    from chalicelib import wiring
    from chalicelib.config import load_settings

    services = wiring.build(load_settings(settings_env), clock=clock, client=ddb)
    # each test's games start from seeds derived from the test's name: a test runs the same games on
    # every run and machine, so one that depends on a game's luck fails every time, not now and then
    drawn = itertools.count()
    name = request.node.nodeid.encode()
    services.new_seed = lambda: hashlib.sha256(name + b"#" + str(next(drawn)).encode()).digest()
    wiring.override(services)
    yield services
    wiring.override(None)


@pytest.fixture
def fake_games(monkeypatch):
    """Register the fake games next to the real ones for platform tests."""
    from chalicelib import games

    games.register("tally", "tests.fakes.games:TALLY", "tally")
    games.register("relay", "tests.fakes.games:RELAY", "relay")
    games.register("ledger", "tests.fakes.games:LEDGER", "ledger")
    yield
    for key in ("tally", "relay", "ledger"):
        games.unregister(key)


class CheckedClient:
    """The Chalice test client with every HTTP exchange checked against the contract."""

    def __init__(self, client):
        from tests.contract_check import CheckedHTTP

        self._client = client
        self.http = CheckedHTTP(client.http)

    def __getattr__(self, name):
        return getattr(self._client, name)


@pytest.fixture
def api(svc):
    from chalice.test import Client

    import app

    with Client(app.app, stage_name="local") as client:
        yield CheckedClient(client)


def pytest_sessionfinish(session, exitstatus):
    """RECORD_EXAMPLES=<file>: write the exchanges recorded for the contract's examples (one per worker)."""
    target = os.environ.get("RECORD_EXAMPLES")
    if not target:
        return
    import json

    from tests.contract_check import RECORDED

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(f"{target}.{worker}.json", "w", encoding="utf-8") as f:
        json.dump(RECORDED, f, ensure_ascii=False)
