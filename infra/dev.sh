#!/usr/bin/env bash
# Developer entry point. Two commands, both work on a fresh machine:
#   infra/dev.sh serve   API on http://127.0.0.1:8000 over an embedded DynamoDB (moto server),
#                        demo data loaded, scheduled jobs ticking
#   infra/dev.sh test    the whole test suite (what CI runs)
# Both create .venv with Python >= 3.12 (3.13 preferred: it is the Lambda runtime we package for).
set -euo pipefail
cd "$(dirname "$0")/.."

find_python() {
  for p in "${PYTHON:-}" python3.13 /root/.pyenv/versions/3.13.0/bin/python python3.12 \
           /root/.pyenv/versions/3.12.1/bin/python python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
      echo "$p"; return 0
    fi
  done
  echo "need Python >= 3.12 (set PYTHON=/path/to/python3.13)" >&2; return 1
}

ensure_venv() {
  local stamp=.venv/.installed
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    local py; py=$(find_python)
    echo "setting up .venv with $py" >&2
    "$py" -m venv .venv
    .venv/bin/python -m pip install -q --upgrade pip >/dev/null
    .venv/bin/python -m pip install -q -e '.[dev]'
    touch "$stamp"
  fi
}

cmd=${1:-}
shift || true
case "$cmd" in
  test)
    ensure_venv
    exec .venv/bin/python -m pytest -n 2 "$@"
    ;;
  serve)
    ensure_venv
    exec .venv/bin/python -m infra.local_server "$@"
    ;;
  *)
    echo "usage: infra/dev.sh {serve|test} [args]" >&2; exit 2 ;;
esac
