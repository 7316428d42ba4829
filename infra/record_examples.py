"""Record the contract's examples from real games: run the API tests with recording on, keep the first
successful request and response of every operation, and write `openapi/examples.json`, which the
generator puts into the spec (`python -m infra.openapi_gen` afterwards). Examples are what the service
really answered, not something written by hand; a test checks each still fits its schema.

    .venv/bin/python -m infra.record_examples                   # every API test, a fresh file
    .venv/bin/python -m infra.record_examples tests/api/test_x.py  # these tests; kept examples stay
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "openapi" / "examples.json"
TESTS = ["tests/api", "tests/chat"]


def main(argv: list[str] | None = None) -> int:
    only = list(sys.argv[1:] if argv is None else argv)
    kept = json.loads(OUT.read_text(encoding="utf-8")) if only and OUT.exists() else {}
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "rec")
        env = {**os.environ, "RECORD_EXAMPLES": base}
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", *(only or TESTS)], cwd=ROOT, env=env,
                              check=False)
        if done.returncode:
            print("some tests failed: examples come from the exchanges that succeeded", file=sys.stderr)
        merged: dict[str, Any] = {}
        for path in sorted(glob.glob(f"{base}.*.json")):
            for op, ex in json.loads(Path(path).read_text(encoding="utf-8")).items():
                merged.setdefault(op, ex)
    examples = {op: {"request": {"recorded": {"summary": "录自真实对局", "value": ex["request"]}}
                     if ex["request"] is not None else None,
                     "response": {"recorded": {"summary": "录自真实对局", "value": ex["response"]}}}
                for op, ex in sorted(merged.items()) if op not in kept}
    examples = dict(sorted({**kept, **examples}.items()))
    OUT.write_text(json.dumps(examples, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(examples)} operations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
