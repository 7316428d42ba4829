#!/usr/bin/env bash
# The operator's toolkit for a deployed stage (AWS credentials and AWS_REGION; no AWS CLI):
#   infra/ops.sh status STAGE                  what is deployed and whether it is well
#   infra/ops.sh logs STAGE [FUNCTION]         recent log lines (api, authorizer, settle, expire, stream,
#                                              ws-connect, ws-message, ws-disconnect, access)
#   infra/ops.sh rotate-token-key STAGE        new signing key; the previous one keeps verifying
#   infra/ops.sh add-admin STAGE OPENID        a 司礼 from her next login (remove-admin to undo)
#   infra/ops.sh set-wechat STAGE APPID        WeChat app id and secret (the secret on stdin)
#   infra/ops.sh rollback STAGE [--to COMMIT]  cancel a running update or redeploy the previous deploy
#   infra/ops.sh restore-table STAGE TIME      point-in-time restore into a new table, switch the stage
#   infra/ops.sh use-table STAGE [TABLE]       switch the stage to a table (none: the stack's own)
# Every failure is one line on stderr and exit status 1. Details: infra/ops.py, docs/operations.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  infra/dev.sh venv >/dev/null 2>&1 || { echo "ops: could not set up .venv (infra/dev.sh)" >&2; exit 1; }
fi
exec .venv/bin/python -m infra.ops "$@"
