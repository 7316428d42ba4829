"""The error catalogue (`errors.ERRORS`) lists exactly the codes the package raises, each with the
status of the one exception class that raises it (read from the source with `ast`)."""

from __future__ import annotations

import ast
from pathlib import Path

from chalicelib.core import errors as core_errors
from chalicelib.games.zhenhuan.errors import ERRORS
from chalicelib.games.zhenhuan.game import GAME

PACKAGE = Path(__file__).resolve().parents[4] / "chalicelib" / "games" / "zhenhuan"
DOMAIN = {
    name: cls
    for name, cls in vars(core_errors).items()
    if isinstance(cls, type) and issubclass(cls, core_errors.DomainError)
}


def _raised() -> dict[str, set[str]]:
    """code -> the exception classes constructed with it anywhere in the package."""
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in DOMAIN):
                continue
            code = next((k.value for k in node.keywords if k.arg == "code"), None)
            if code is None:
                name = DOMAIN[node.func.id].default_code
            else:
                assert isinstance(code, ast.Constant), f"{path.name}: codes are literals"
                name = code.value
            found.setdefault(name, set()).add(node.func.id)
    return found


def test_every_raised_code_is_catalogued_with_its_class_status() -> None:
    """Each code the package raises is in ERRORS with exactly the status of the raising class."""
    raised = _raised()
    assert raised, "the scan found the raise sites"
    for code, classes in raised.items():
        assert len(classes) == 1, f"{code} is raised with {classes}"
        (cls,) = classes
        assert code in ERRORS, f"{code} is missing from ERRORS"
        assert ERRORS[code].status == DOMAIN[cls].status, (code, cls)


def test_the_catalogue_has_no_stale_codes_and_says_what_each_means() -> None:
    """No entry for a code that is never raised; every entry has a Chinese message and an English description."""
    assert set(ERRORS) == set(_raised())
    for code, spec in ERRORS.items():
        assert code.isupper() and spec.message and spec.description, code
        assert any("\u4e00" <= ch <= "\u9fff" for ch in spec.message), code
    assert GAME.errors is ERRORS
