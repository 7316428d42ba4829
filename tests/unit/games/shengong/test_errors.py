"""The closed error catalogue: every code the package raises is in `errors.ERRORS` with the status of the
exception class that raises it, no code is raised with two classes, and every listed code is raised."""

from __future__ import annotations

import ast
from pathlib import Path

from chalicelib.core import errors as core_errors
from chalicelib.games.shengong.errors import ERRORS
from chalicelib.games.shengong.game import GAME_A, GAME_B, GAME_C, GAME_D

PACKAGE = Path(__file__).resolve().parents[4] / "chalicelib" / "games" / "shengong"


def _raises() -> list[tuple[str, str, str]]:
    """(file:line, exception class, code) of every `raise Cls(..., code="…")` in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            func = node.exc.func
            cls = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else "?"
            if not isinstance(getattr(core_errors, cls, None), type):
                continue
            codes = [k.value for k in node.exc.keywords if k.arg == "code"]
            assert len(codes) == 1 and isinstance(codes[0], ast.Constant), f"{path.name}:{node.lineno} needs code="
            found.append((f"{path.name}:{node.lineno}", cls, codes[0].value))
    return found


def test_every_raised_code_is_listed_with_its_classs_status():
    """Each code has exactly one status: the status of the exception class that raises it."""
    raised = _raises()
    assert len(raised) > 20
    classes: dict[str, set[str]] = {}
    for where, cls, code in raised:
        assert code in ERRORS, f"{where}: {code} is not in errors.ERRORS"
        status = getattr(core_errors, cls).status
        assert ERRORS[code].status == status, f"{where}: {code} raised as {cls} ({status})"
        classes.setdefault(code, set()).add(cls)
    assert all(len(c) == 1 for c in classes.values()), {k: v for k, v in classes.items() if len(v) > 1}


def test_every_listed_code_is_raised_and_has_both_messages():
    raised = {code for _, _, code in _raises()}
    assert set(ERRORS) == raised
    for code, spec in ERRORS.items():
        assert code.isupper() and spec.message and spec.description
        assert any("\u4e00" <= ch <= "\u9fff" for ch in spec.message), code  # the message is Chinese


def test_the_games_declare_the_catalogue():
    for game in (GAME_A, GAME_B, GAME_C, GAME_D):
        assert dict(game.errors) == ERRORS
