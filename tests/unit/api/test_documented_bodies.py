"""Every request body the README and the rules documents show fits the contract: each JSON object with
a `type` in docs/rules/<game>.md is one of that game's actions, each one in the README an action of some
game, and each README body naming a `game` a valid 开房 request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.contract_check import _errors, _validator

ROOT = Path(__file__).resolve().parents[3]
FAMILY_OF_DOC = {"shengong.md": "Shengong", "baohuang.md": "Baohuang", "zhenhuan.md": "Zhenhuan"}


def json_objects(text: str) -> list[dict]:
    """Every balanced {...} in the text that parses as a JSON object (shell quoting aside)."""
    found, depth, start = [], 0, None
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0 and start is not None:
                try:
                    value = json.loads(text[start:i + 1])
                except ValueError:
                    continue
                if isinstance(value, dict):
                    found.append(value)
    return found


def fits(schema: str, body: dict) -> bool:
    return not _errors(_validator(f"/components/schemas/{schema}"), body)


@pytest.mark.parametrize("doc", sorted(FAMILY_OF_DOC))
def test_rules_documents_show_real_actions(doc):
    bodies = [b for b in json_objects((ROOT / "docs" / "rules" / doc).read_text(encoding="utf-8")) if "type" in b]
    action = f"{FAMILY_OF_DOC[doc]}Action"
    for body in bodies:
        assert fits(action, body), (doc, body)


def test_readme_bodies_fit_the_contract():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    # the bodies inside the quick starts, with the shell's $VARIABLES and python-built ones left out
    found = json_objects(text)
    bodies = [b for b in found if "type" in b or "game" in b] + [b["action"] for b in found if "action" in b]
    assert len(bodies) >= 12
    for body in bodies:
        if "game" in body:
            assert fits("RoomCreate", body), body
        else:
            assert any(fits(f"{f}Action", body) for f in FAMILY_OF_DOC.values()), body
