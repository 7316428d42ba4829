"""Render docs/errors.md from the error catalogue (the same one GET /v1/errors serves).

    .venv/bin/python -m infra.errors_doc
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "errors.md"


def render() -> str:
    from chalicelib.api.catalogue import catalogue

    lines = [
        "# Error catalogue",
        "",
        "Generated from the code by `python -m infra.errors_doc` (a test keeps it current); served at",
        "`GET /v1/errors`. Every error answer is `{\"code\": …, \"message\": …, \"details\"?: …}`: branch on",
        "`code`, show `message` to the player (it may be more specific than the generic message here).",
        "Each code has exactly one HTTP status. 429 and 503 carry `Retry-After`; retrying then is safe.",
        "",
        "| code | status | 中文提示 | meaning |",
        "|---|---|---|---|",
    ]
    for code, spec in catalogue().items():
        desc = spec.description.replace("|", "\\|")
        lines.append(f"| `{code}` | {spec.status} | {spec.message} | {desc} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    DOC.write_text(render(), encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
