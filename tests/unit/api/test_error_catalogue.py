"""One closed error catalogue: every code raised anywhere in chalicelib/ is listed once, with the
status of the exception class that raises it; GET /v1/errors and docs/errors.md show it."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from chalicelib.api.catalogue import catalogue
from chalicelib.core import errors as error_classes
from infra import errors_doc

ROOT = Path(__file__).resolve().parents[3]


def _error_classes() -> list[type[error_classes.DomainError]]:
    """Every DomainError subclass in chalicelib (its modules imported first)."""
    import importlib
    import pkgutil

    import chalicelib

    for info in pkgutil.walk_packages(chalicelib.__path__, "chalicelib."):
        importlib.import_module(info.name)
    found, todo = [], [error_classes.DomainError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def _statuses() -> dict[str, int]:
    return {cls.__name__: cls.status for cls in _error_classes()}


def raised_codes() -> dict[str, set[tuple[int, str]]]:
    """code -> {(status, where)} for every `SomeDomainError(..., code="X")` in chalicelib/, and every
    class's default code."""
    statuses = _statuses()
    found: dict[str, set[tuple[int, str]]] = defaultdict(set)
    for cls in _error_classes():
        found[cls.default_code].add((cls.status, f"{cls.__module__}:{cls.__name__}"))
    for path in sorted((ROOT / "chalicelib").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name not in statuses:
                continue
            for kw in node.keywords:
                if kw.arg == "code" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    found[kw.value.value].add((statuses[name], f"{path.relative_to(ROOT)}:{node.lineno}"))
    return found


def test_every_raised_code_is_in_the_catalogue_with_its_one_status():
    cat = catalogue()
    raised = raised_codes()
    assert len(raised) > 100  # the scan does find the raise sites
    missing = sorted(code for code in raised if code not in cat)
    assert not missing, f"codes raised but not in the catalogue: {missing}"
    for code, sites in raised.items():
        statuses = {status for status, _ in sites}
        assert statuses == {cat[code].status}, (code, cat[code].status, sorted(sites))


def test_catalogue_entries_have_chinese_messages_and_english_descriptions():
    for code, spec in catalogue().items():
        assert code == code.upper() and code.replace("_", "").isalnum(), code
        assert any("\u4e00" <= ch <= "\u9fff" for ch in spec.message), code
        assert spec.description and spec.description.isascii() is not None, code
        assert 400 <= spec.status <= 599, code


def test_the_errors_document_is_generated_from_the_catalogue():
    assert (ROOT / "docs" / "errors.md").read_text(encoding="utf-8") == errors_doc.render(), \
        "run: .venv/bin/python -m infra.errors_doc"


def test_the_catalogue_is_served(api):
    body = api.http.get("/v1/errors").json_body
    served = {e["code"]: e["status"] for e in body["errors"]}
    assert served == {code: spec.status for code, spec in catalogue().items()}
