"""Dependency rules, checked on the import statements themselves (ast), not by grepping text:

- game rules and core are pure: no AWS, no Chalice, no clock, ids or module-level randomness, no
  printing, and nothing from the service layers (api, rooms, store, accounts, records, wiring);
- the room service does not touch AWS or Chalice (storage reaches it through the store port);
- only the store adapters, wiring and push's sender (API Gateway) import boto3/botocore.
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
                     "chalicelib/store/accounts.py", "chalicelib/store/records.py", "chalicelib/store/faults.py",
                     "chalicelib/store/chat.py", "chalicelib/store/push.py",
                     "chalicelib/push/sender.py"}, users  # push's sender: API Gateway's management API


def _package(module: str) -> str | None:
    """The chalicelib package a module belongs to: chalicelib.rooms.play -> rooms; games by game."""
    parts = module.split(".")
    if parts[0] != "chalicelib" or len(parts) < 2:
        return None
    if parts[1] == "games" and len(parts) > 2:
        return f"games.{parts[2]}"
    return parts[1]


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    return ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)


def _package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in _modules("chalicelib"):
        src = _package(_module_name(path))
        if src is None:
            continue
        for name in _imports(path):
            dst = _package(name)
            if dst is not None and dst != src:
                graph.setdefault(src, set()).add(dst)
    return graph


def test_no_package_depends_on_itself_through_others():
    """Packages form a DAG: api -> rooms/records/accounts -> domain/store ports -> games -> core."""
    graph = _package_graph()

    def reaches(start: str, target: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == target or (nxt not in seen and reaches(nxt, target, seen | {nxt})):
                return True
        return False

    cycles = sorted(p for p in graph if reaches(p, p, {p}))
    assert not cycles, {p: sorted(graph[p]) for p in cycles}


def test_no_module_cycles_inside_a_game():
    """Module-level imports inside each game package form a DAG too (e.g. 保皇 declare <-> play)."""
    for game_dir in sorted(p for p in (ROOT / "chalicelib" / "games").iterdir() if p.is_dir()):
        mods = {_module_name(p): _imports(p) for p in game_dir.rglob("*.py")}
        graph = {m: {i for i in imps if i in mods and i != m} for m, imps in mods.items()}

        def reaches(start: str, target: str, seen: set[str], graph: dict[str, set[str]] = graph) -> bool:
            return any(n == target or (n not in seen and reaches(n, target, seen | {n})) for n in graph[start])

        assert not [m for m in graph if reaches(m, m, {m})], game_dir.name


GAME_WORDS = ("shengong_", "games.shengong", "baohuang", "zhenhuan", "宫斗杀", "保皇", "血染", "深宫杀", "甄嬛")


def _code_words(path: Path) -> set[str]:
    """Names, imports and string constants of a module (docstrings and comments may give examples)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # docstrings, including the attribute docstrings under assignments: strings standing alone
    docstrings = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    words: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words.add(node.value)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            words.update(alias.name for alias in node.names)
            if isinstance(node, ast.ImportFrom) and node.module:
                words.add(node.module)
    return words


@pytest.mark.parametrize("folder", ["chalicelib/rooms", "chalicelib/records", "chalicelib/store",
                                    "chalicelib/domain"])
def test_platform_packages_name_no_game(folder):
    """Adding a game touches its own package and the registry only: the platform's code never names one."""
    for path in _modules(folder):
        hits = sorted({w for w in _code_words(path) for g in GAME_WORDS if g in w})
        assert not hits, (str(path.relative_to(ROOT)), hits)
