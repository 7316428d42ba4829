"""docs/rules/shengong-melee.md pins every number and decision to a test: each named test must exist."""

import ast
import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[4] / "docs" / "rules" / "shengong-melee.md"


def _tests() -> set[str]:
    names = set()
    for path in HERE.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


def test_every_test_named_in_the_rules_doc_exists():
    """Each number and decision in the rules document is pinned by a test that exists."""
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", DOC.read_text(encoding="utf-8")))
    assert len(named) > 60
    assert named <= _tests(), sorted(named - _tests())


def test_every_rules_test_is_named_in_the_doc():
    """And every rules test is referenced from the document (no silent rules)."""
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", DOC.read_text(encoding="utf-8")))
    unnamed = _tests() - named - {"test_every_test_named_in_the_rules_doc_exists", "test_every_rules_test_is_named_in_the_doc"}
    assert not unnamed, sorted(unnamed)
