#!/usr/bin/env bash
# Deploy one stage of 深宫 to AWS:   AWS_REGION=ap-east-1 infra/deploy.sh dev
#
# Works on a fresh machine with AWS credentials (AWS_PROFILE or keys) and Python 3.12+; no AWS CLI.
# Checks the stage and the account (prod only to the account pinned in infra/stages.json), makes or
# reuses the artifact bucket, makes missing secrets (token keys, admin list; the WeChat secret must
# exist: infra/ops.sh set-wechat), packages with `chalice package --merge-template`, expands the SAM
# transform, lints, uploads, creates or updates the stack `shengong-<stage>` from S3, waits, uploads
# the H5 client if built, smoke-tests the stage and prints the API and web URLs.
# Every failure is one line on stderr and exit status 1. The steps: infra/deploy.py; the runbook:
# docs/operations.md.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
  echo "usage: infra/deploy.sh STAGE [--urgent] [--no-lint] [--no-smoke]   (STAGE: dev | staging | prod; --help: what each does)" >&2
  exit 2
fi
if [ ! -x .venv/bin/python ] || [ ! -x .venv/bin/chalice ]; then
  infra/dev.sh venv >/dev/null 2>&1 || { echo "deploy: could not set up .venv (infra/dev.sh)" >&2; exit 1; }
fi
exec .venv/bin/python -m infra.deploy "$@"
