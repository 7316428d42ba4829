"""Dependency rules, checked on the import statements themselves (ast), not by grepping text:

- game rules and core are pure: no AWS, no Chalice, no clock, ids or module-level randomness, no
  printing, and nothing from the service layers (api, rooms, store, accounts, records, wiring);
- the room service does not touch AWS or Chalice (storage reaches it through the store port);
- only the store adapters and wiring import boto3/botocore.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVICE_LAYERS = ("chalicelib.api", "chalicelib.rooms", "chalicelib.store", "chalicelib.accounts",
                  "chalicelib.records", "chalicelib.wiring", "chalicelib.auth", "chalicelib.jobs")
AWS = ("boto3", "botocore")


def _modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _calls(path: Path) -> set[str]:
    calls = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name):
                calls.add(f.id)
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                calls.add(f"{f.value.id}.{f.attr}")
    return calls


def _top(name: str) -> str:
    return name.split(".")[0]


@pytest.mark.parametrize("path", _modules("chalicelib/games") + _modules("chalicelib/core"),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_and_core_are_pure(path):
    imports = _imports(path)
    assert not {i for i in imports if _top(i) in (*AWS, "chalice")}, imports
    assert not {i for i in imports if i.startswith(SERVICE_LAYERS)}, imports
    forbidden_modules = {"time", "datetime", "uuid", "secrets"}
    if path.name != "clock.py":  # the clock is the one place that reads time, injected everywhere
        assert not imports & forbidden_modules, imports & forbidden_modules
    if path.name != "rng.py":  # the seeded generator wraps random.Random; nothing else touches random
        assert "random" not in imports
    assert "print" not in _calls(path)


@pytest.mark.parametrize("path", _modules("chalicelib/rooms") + _modules("chalicelib/records")
                         + _modules("chalicelib/accounts"), ids=lambda p: str(p.relative_to(ROOT)))
def test_services_use_storage_only_through_the_port(path):
    imports = _imports(path)
    assert not {i for i in imports if _top(i) in (*AWS, "chalice")}, imports
    assert not {i for i in imports if i.startswith(("chalicelib.store.dynamodb", "chalicelib.store.accounts",
                                                    "chalicelib.store.records", "chalicelib.store.codec",
                                                    "chalicelib.api"))}, imports


def test_only_the_store_and_wiring_import_aws():
    users = {str(p.relative_to(ROOT)) for p in _modules("chalicelib")
             if {i for i in _imports(p) if _top(i) in AWS}}
    assert users <= {"chalicelib/wiring.py", "chalicelib/store/dynamodb.py", "chalicelib/store/codec.py",
                     "chalicelib/store/accounts.py", "chalicelib/store/records.py"}, users
