"""The fault suites write moto's DynamoDB answers with json.dumps (`harness.fast_moto`): nothing else
changes. In a module of its own, so no other moto is active while it starts its two."""

from __future__ import annotations

from tests.faults.games import SCRIPTS
from tests.faults.harness import Runner, compare, moto_app


def test_fast_moto_changes_nothing():
    """The suite writes moto's DynamoDB answers with json.dumps (harness.fast_moto): a game played on
    moto's own serializer leaves the same table and gets the same answers."""
    outcomes = []
    for fast in (True, False):
        with moto_app(fast=fast) as (raw, http):
            outcomes.append(Runner(http, raw, "baohuang", SCRIPTS["baohuang"]).baseline)
    fast_run, slow_run = outcomes
    assert fast_run.calls == slow_run.calls and fast_run.operations == slow_run.operations
    compare(fast_run, slow_run)
