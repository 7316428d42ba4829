#!/usr/bin/env bash
# Developer entry point. Two commands, both work on a fresh machine:
#   infra/dev.sh serve   API on http://127.0.0.1:8000 over an embedded DynamoDB (moto server),
#                        demo data loaded, scheduled jobs ticking
#   infra/dev.sh test    the whole test suite (what CI runs): pytest, then the client's check
#                        (SHENGONG_SKIP_CLIENT=1 runs pytest alone; --full adds the tests marked
#                        `full` and plays the soaks, fault points and fuzzing at full size)
# Both create .venv with Python >= 3.12 (3.13 preferred: it is the Lambda runtime we package for).
# The client (client/, Taro) needs Node.js >= 20 with npm; its browser tests use Debian's chromium.
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

# ---- the client (client/): Taro 4, built for WeChat (dist/weapp) and the mobile web (dist/h5) ----

client_install() {
  # npm ci only when node_modules is missing or the lockfile changed since the last install
  local stamp=client/node_modules/.package-lock.installed
  if [ ! -d client/node_modules ] || ! cmp -s client/package-lock.json "$stamp"; then
    echo "client: npm ci" >&2
    (cd client && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
    cp client/package-lock.json "$stamp"
  fi
}

client_h5_stale() {
  # dist/h5 missing, or older than anything in the client's sources and build settings
  [ -f client/dist/h5/index.html ] || return 0
  [ -n "$(find client/src client/config client/package-lock.json client/babel.config.js \
          -newer client/dist/h5/index.html -print -quit 2>/dev/null)" ]
}

ensure_chromium() {
  # the browser tests use CHROMIUM_PATH when it is set (client/e2e/browser.mjs), else Debian's chromium
  [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] && return 0
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    echo "client: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable" >&2
    return 1
  fi
  if ! command -v apt-get >/dev/null; then
    echo "client: no chromium at /usr/bin/chromium and no apt-get: install Chromium and set CHROMIUM_PATH" >&2
    return 1
  fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "client: installing Debian's chromium (and CJK fonts for the screenshots)" >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    chromium fonts-noto-cjk fonts-arphic-ukai >/dev/null
}

client_run() { (cd client && npm run -s "$@"); }

client_step() {
  local name=$1 t0=$SECONDS
  shift
  echo "== client: $name" >&2
  "$@"
  echo "== client: $name done in $((SECONDS - t0)) s" >&2
}

client_check() {
  command -v npm >/dev/null || { echo "client: npm not found (need Node.js >= 20)" >&2; return 1; }
  local t0=$SECONDS
  client_step install client_install
  client_step typecheck client_run typecheck
  client_step "unit tests" client_run test:unit
  client_step "weapp build" client_run build:weapp
  client_step "weapp checks" client_run test:weapp
  client_step "h5 build" client_run build:h5
  client_step chromium ensure_chromium
  client_step "browser tests" client_run test:e2e
  echo "== client: check done in $((SECONDS - t0)) s" >&2
}

cmd=${1:-}
shift || true
case "$cmd" in
  test)
    ensure_venv
    if [ "${1:-}" = --full ]; then
      shift
      export SHENGONG_FULL=1 SOAK_FULL=1 FAULTS_FULL=1 FUZZ_FULL=1
    fi
    # byte-code caches on: every pytest worker and every local server the tests start imports the
    # same modules (some sandboxes set PYTHONDONTWRITEBYTECODE, which doubles the suite's start-up)
    unset PYTHONDONTWRITEBYTECODE
    # line coverage of chalicelib/ ([tool.coverage] in pyproject.toml): reported, and below 95 % a failure
    # three workers on two cores: the server and socket tests spend much of their time waiting
    .venv/bin/python -m pytest -n 3 --dist worksteal --cov --cov-report=term --cov-fail-under=95 "$@"
    if [ "${SHENGONG_SKIP_CLIENT:-}" != 1 ]; then
      client_check
    fi
    ;;
  venv)
    # what the deploy and ops scripts need on a fresh machine: .venv alone (no client, no tests)
    ensure_venv
    ;;
  serve)
    ensure_venv
    if client_h5_stale; then
      if command -v npm >/dev/null; then
        client_install
        echo "client: building the H5 app (client/dist/h5)" >&2
        client_run build:h5
      else
        echo "client: npm not found, serving the API only (need Node.js >= 20 for the H5 app)" >&2
      fi
    fi
    exec .venv/bin/python -m infra.local_server "$@"
    ;;
  *)
    echo "usage: infra/dev.sh {serve|test} [args]   (infra/dev.sh venv: set up .venv only)" >&2; exit 2 ;;
esac
