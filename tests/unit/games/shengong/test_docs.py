"""docs/rules/shengong.md pins every rule to a test: each test it names exists, and every rules test in
this folder is named there (no silent rules)."""

import ast
import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[3] / "docs" / "rules" / "shengong.md"
SELF = {"test_every_test_named_in_the_rules_doc_exists", "test_every_rules_test_is_named_in_the_doc"}


def _tests() -> set[str]:
    names = set()
    for path in HERE.rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


def _named() -> set[str]:
    return set(re.findall(r"`(test_[a-z0-9_]+)`", DOC.read_text(encoding="utf-8")))


def test_every_test_named_in_the_rules_doc_exists():
    """Each number and decision in the rules document is pinned by a test that exists."""
    assert len(_named()) > 150
    assert _named() <= _tests(), sorted(_named() - _tests())


def test_every_rules_test_is_named_in_the_doc():
    """And every rules test is referenced from the document."""
    unnamed = _tests() - _named() - SELF
    assert not unnamed, sorted(unnamed)
