#!/usr/bin/env bash
# Deploy one stage: package with Chalice (merging our table, env and gateway responses), upload the
# artifacts, then create or update the CloudFormation stack, showing its events as they happen.
#
#   ARTIFACT_BUCKET=my-bucket AWS_REGION=ap-east-1 infra/deploy.sh dev
#
# Before the first deploy of a stage, put the WeChat credentials in Secrets Manager:
#   aws secretsmanager create-secret --name shengong/<stage>/wechat \
#     --secret-string '{"appid":"wx…","secret":"…","admin_openids":"openid1,openid2"}'
# The token-signing secret is created here (random) if it does not exist yet. No secret is ever
# written to this repository or to the packaged template: CloudFormation resolves them at deploy time.
set -euo pipefail
cd "$(dirname "$0")/.."

stage=${1:?usage: infra/deploy.sh <stage>   (dev | prod)}
bucket=${ARTIFACT_BUCKET:?set ARTIFACT_BUCKET to an S3 bucket for the packaged code}
region=${AWS_REGION:-${AWS_DEFAULT_REGION:?set AWS_REGION}}
export AWS_DEFAULT_REGION=$region
stack="shengong-$stage"
out="build/$stage"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "checking tools and credentials"
command -v aws >/dev/null || { echo "the AWS CLI (v2) is required" >&2; exit 1; }
[ -x .venv/bin/chalice ] || infra/dev.sh test --collect-only -q >/dev/null   # creates .venv
aws sts get-caller-identity --query Account --output text

step "secrets"
if ! aws secretsmanager describe-secret --secret-id "shengong/$stage/wechat" >/dev/null 2>&1; then
  echo "missing secret shengong/$stage/wechat (see the top of this script)" >&2; exit 1
fi
if ! aws secretsmanager describe-secret --secret-id "shengong/$stage/token-secret" >/dev/null 2>&1; then
  aws secretsmanager create-secret --name "shengong/$stage/token-secret" \
    --secret-string "$(.venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(48))')" >/dev/null
  echo "created shengong/$stage/token-secret"
fi

step "packaging (chalice package --merge-template)"
rm -rf "$out" && mkdir -p "$out"
.venv/bin/python -m infra.template --stage "$stage" > "$out/resources.json"
.venv/bin/chalice package --stage "$stage" --merge-template "$out/resources.json" "$out/package"
.venv/bin/cfn-lint "$out/package/sam.json"

step "uploading artifacts to s3://$bucket"
aws cloudformation package --template-file "$out/package/sam.json" --s3-bucket "$bucket" \
  --s3-prefix "$stack" --output-template-file "$out/packaged.yaml"

step "deploying stack $stack"
since=$(date -u +%Y-%m-%dT%H:%M:%SZ)
watch_events() {  # print each new stack event once, oldest first
  local last="$since"
  while sleep 5; do
    aws cloudformation describe-stack-events --stack-name "$stack" \
      --query "reverse(StackEvents[?Timestamp>'$last'])[].[Timestamp,LogicalResourceId,ResourceStatus,ResourceStatusReason]" \
      --output text > "$out/events.txt" 2>/dev/null || continue
    if [ -s "$out/events.txt" ]; then
      sed 's/^/  /' "$out/events.txt"
      last=$(tail -n 1 "$out/events.txt" | cut -f1)
    fi
  done
}
watch_events & watcher=$!
trap 'kill $watcher 2>/dev/null || true' EXIT
aws cloudformation deploy --template-file "$out/packaged.yaml" --stack-name "$stack" \
  --capabilities CAPABILITY_IAM CAPABILITY_AUTO_EXPAND --no-fail-on-empty-changeset \
  --tags app=shengong stage="$stage"
kill $watcher 2>/dev/null || true

step "done"
aws cloudformation describe-stacks --stack-name "$stack" \
  --query "Stacks[0].Outputs[].[OutputKey,OutputValue]" --output table
