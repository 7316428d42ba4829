"""The package as code: its closed error catalogue, and imports that form no cycle.

Read from the source with `ast`, so no raise site can be forgotten by a test that forgot to reach it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from chalicelib.core import errors as error_classes
from chalicelib.games.baohuang.errors import ERRORS
from chalicelib.games.baohuang.game import GAME

PACKAGE = Path(__file__).resolve().parents[4] / "chalicelib" / "games" / "baohuang"
STATUS = {name: cls.status for name, cls in vars(error_classes).items()
          if isinstance(cls, type) and issubclass(cls, error_classes.DomainError)}


def modules() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.glob("*.py"))}


def raise_sites() -> list[tuple[str, int, str, str | None]]:
    """(module, line, exception class, code) for every `raise SomeDomainError(...)` in the package."""
    sites = []
    for name, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name):
                cls = node.exc.func.id
                if cls in STATUS:
                    code = next((kw.value.value for kw in node.exc.keywords if kw.arg == "code"
                                 and isinstance(kw.value, ast.Constant)), None)
                    sites.append((name, node.lineno, cls, code))
    return sites


def test_every_raised_code_is_catalogued_with_the_status_of_its_class():
    """Issue #8: ERRORS lists every code the package raises, each with exactly the status of the
    exception class that raises it, and no code is raised with two classes."""
    sites = raise_sites()
    assert len(sites) > 30  # the scan does find the raise sites
    classes: dict[str, set[str]] = {}
    for module, line, cls, code in sites:
        assert code is not None, f"{module}.py:{line}: {cls} raised without a literal code"
        assert code in ERRORS, f"{module}.py:{line}: {code} is not in ERRORS"
        assert ERRORS[code].status == STATUS[cls], (code, cls, ERRORS[code].status)
        classes.setdefault(code, set()).add(cls)
    assert {code for code, raised_by in classes.items() if len(raised_by) > 1} == set()
    assert set(classes) == set(ERRORS), "ERRORS lists codes nothing raises"
    assert GAME.errors is ERRORS


def test_catalogue_messages_are_chinese_and_descriptions_english():
    for code, spec in ERRORS.items():
        assert any("\u4e00" <= ch <= "\u9fff" for ch in spec.message), code
        assert re.match(r"[`A-Z]", spec.description) and spec.description.endswith("."), code


def test_no_function_local_imports_and_no_import_cycle():
    """Issue #8: the `declare ↔ play` cycle (broken at run time by a function-local import) is gone:
    every import is at module level and the package's modules import each other without a cycle."""
    graph: dict[str, set[str]] = {}
    for name, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert not inner, f"{name}.py:{node.lineno}: import inside {node.name}()"
        deps = set()
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("chalicelib.games.baohuang."):
                    deps.add(node.module.rsplit(".", 1)[1])
                elif node.module == "chalicelib.games.baohuang":
                    deps.update(alias.name for alias in node.names)
        graph[name] = deps
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' → '.join(path + (module,))}"
        if module in done:
            return
        for dep in graph.get(module, ()):
            visit(dep, path + (module,))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_every_test_the_rules_document_names_exists():
    """docs/rules/baohuang.md pins each rule to a test (`file::test`); none of them may be missing."""
    root = PACKAGE.parents[2]
    doc = (root / "docs" / "rules" / "baohuang.md").read_text(encoding="utf-8")
    here = Path(__file__).parent
    defined = {
        (path.stem, node.name)
        for path in here.glob("test_*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }
    named = set(re.findall(r"`(test_\w+)::(test_\w+)`", doc))
    assert len(named) > 40
    assert sorted(named - defined) == []
