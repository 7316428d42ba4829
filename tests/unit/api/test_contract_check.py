"""The checker every API test exchange goes through must itself catch drift (else a green suite
proves nothing about the contract)."""

from __future__ import annotations

import json

import pytest

from tests.contract_check import ContractViolation, check


def test_a_body_that_breaks_its_schema_is_caught():
    with pytest.raises(ContractViolation, match="code"):
        check("GET", "/v1/rooms/r1/summary", 404, json.dumps({"code": 1, "message": "无"}))


def test_an_undocumented_status_is_caught():
    with pytest.raises(ContractViolation, match="answered 418"):
        check("GET", "/v1/rooms/r1/summary", 418, b"{}")


def test_a_documented_answer_passes():
    check("GET", "/v1/rooms/r1/summary", 404, json.dumps({"code": "ROOM_NOT_FOUND", "message": "房间不存在"}))
