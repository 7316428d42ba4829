"""Deploy one stage: ``infra/deploy.sh STAGE`` (a thin wrapper over ``python -m infra.deploy``).

Needs AWS credentials and a region (``AWS_REGION``); no AWS CLI. In order:

1. the stage name and the account (prod only to its pinned account: infra/stages.json), and settings
   that cannot work together (WEB_DOMAIN needs WEB_CERTIFICATE_ARN; ALARM_EMAIL not with ALARM_TOPIC_ARN;
   MONTHLY_BUDGET_USD a positive amount, notifying a topic of this account, in a region whose
   CloudFormation makes budgets);
2. API Gateway's account-wide CloudWatch role (access logs need it; made once per account and region);
3. the artifact bucket ``shengong-artifacts-<account>-<region>`` (made private if missing, or
   ``ARTIFACT_BUCKET``);
4. the stage's secrets: token keys and the admin list are made if missing; the WeChat secret must
   exist (``infra/ops.sh set-wechat``);
5. ``chalice package --merge-template`` (infra/template.py), the code and the dependency layer uploaded
   by content hash (the layer changes only with requirements.txt), the
   SAM transform done here (so the uploaded template is plain CloudFormation), cfn-lint, and a check
   that the account's Lambda concurrency leaves room for the functions' reservations;
6. the template uploaded and the stack created or updated from its S3 URL, tagged with the commit,
   its events printed until it settles;
7. the H5 client (client/dist/h5) kept in the artifact bucket under the commit (a rollback puts it
   back), uploaded to the web bucket and CloudFront invalidated, or a line saying why not;
8. a smoke test against the deployed stage; then the API URL and the web URL.

Optional stack parameters come from the environment: ALARM_EMAIL, ALARM_TOPIC_ARN, WEB_DOMAIN,
WEB_CERTIFICATE_ARN, LOG_RETENTION_DAYS, PUSH_VIEWS, MONTHLY_BUDGET_USD (unset: the stack keeps its
previous value).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import mimetypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from infra import template
from infra.awsutil import (
    OK,
    ROOT,
    Aws,
    Refused,
    check_account,
    check_stage,
    commit,
    describe_stack,
    first_failure,
    outputs,
    parameters,
    physical_ids,
    region,
    run,
    say,
    stack_name,
    step,
    wait_for_stack,
)


def web_build() -> Path:
    """The H5 build the deploy uploads (SHENGONG_WEB_DIR, read when used, or client/dist/h5)."""
    return Path(os.environ.get("SHENGONG_WEB_DIR") or ROOT / "client" / "dist" / "h5")
STACK_PARAMETERS = {"ALARM_EMAIL": "AlarmEmail", "ALARM_TOPIC_ARN": "AlarmTopicArn", "WEB_DOMAIN": "WebDomain",
                    "WEB_CERTIFICATE_ARN": "WebCertificateArn", "LOG_RETENTION_DAYS": "LogRetentionDays",
                    "PUSH_VIEWS": "PushViews", "MONTHLY_BUDGET_USD": "MonthlyBudgetUsd"}
KEPT_PARAMETERS = ("ActiveTableName", "ActiveStreamArn")
"""Never reset by a deploy: set by infra/ops.sh restore-table."""
APIGATEWAY_LOG_ROLE = "shengong-apigateway-cloudwatch"
PUSH_TO_CLOUDWATCH = "arn:aws:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs"
ARTIFACT_DAYS = 365
"""Old code and templates stay this long (a rollback redeploys one of them)."""
MIN_UNRESERVED = 100
"""Lambda refuses a reservation that leaves fewer unreserved units than this (or than the whole account
limit, on new accounts whose limit is 10, where any reservation is refused)."""


def artifact_bucket(account: str, region_name: str) -> str:
    return os.environ.get("ARTIFACT_BUCKET") or f"shengong-artifacts-{account}-{region_name}"


def history_key(stage: str) -> str:
    return f"{stack_name(stage)}/deploys.json"


def template_url(bucket: str, region_name: str, key: str) -> str:
    return f"https://{bucket}.s3.{region_name}.amazonaws.com/{key}"


# ---- account-level pieces -------------------------------------------------------------------------


def ensure_apigateway_logging(aws: Aws) -> None:
    """API Gateway writes access logs only with an account-wide CloudWatch role; set one if none is set."""
    current = aws.apigateway.get_account().get("cloudwatchRoleArn")
    if current:
        say(f"API Gateway logs through {current}")
        return
    from botocore.exceptions import ClientError

    trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole",
                                                     "Principal": {"Service": "apigateway.amazonaws.com"}}]}
    try:
        role = aws.iam.create_role(RoleName=APIGATEWAY_LOG_ROLE, AssumeRolePolicyDocument=json.dumps(trust),
                                   Description="API Gateway writes access logs to CloudWatch (account-wide)")["Role"]
    except ClientError as e:
        if e.response["Error"]["Code"] != "EntityAlreadyExists":
            raise
        role = aws.iam.get_role(RoleName=APIGATEWAY_LOG_ROLE)["Role"]
    aws.iam.attach_role_policy(RoleName=APIGATEWAY_LOG_ROLE, PolicyArn=PUSH_TO_CLOUDWATCH)
    for attempt in range(12):  # a new role takes a few seconds to be usable
        try:
            aws.apigateway.update_account(patchOperations=[
                {"op": "replace", "path": "/cloudwatchRoleArn", "value": role["Arn"]}])
            break
        except ClientError as e:
            if attempt == 11 or e.response["Error"]["Code"] not in ("BadRequestException", "TooManyRequestsException"):
                raise
            time.sleep(5)
    say(f"API Gateway now logs through {role['Arn']}")


def ensure_bucket(aws: Aws, bucket: str) -> None:
    from botocore.exceptions import ClientError

    try:
        aws.s3.head_bucket(Bucket=bucket)
        say(f"artifact bucket s3://{bucket} (reused)")
        return
    except ClientError as e:
        code = e.response["Error"]["Code"]
        if code in ("403", "Forbidden", "AccessDenied"):
            raise Refused(f"bucket {bucket} exists but this account cannot use it: set ARTIFACT_BUCKET") from e
        if code not in ("404", "NoSuchBucket", "NotFound"):
            raise
    kwargs: dict[str, Any] = {"Bucket": bucket}
    if aws.region != "us-east-1":
        kwargs["CreateBucketConfiguration"] = {"LocationConstraint": aws.region}
    aws.s3.create_bucket(**kwargs)
    aws.s3.put_public_access_block(Bucket=bucket, PublicAccessBlockConfiguration={
        "BlockPublicAcls": True, "IgnorePublicAcls": True, "BlockPublicPolicy": True, "RestrictPublicBuckets": True})
    aws.s3.put_bucket_encryption(Bucket=bucket, ServerSideEncryptionConfiguration={
        "Rules": [{"ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "AES256"}}]})
    aws.s3.put_bucket_lifecycle_configuration(Bucket=bucket, LifecycleConfiguration={"Rules": [{
        "ID": "old-artifacts", "Status": "Enabled", "Filter": {"Prefix": ""},
        "Expiration": {"Days": ARTIFACT_DAYS}}]})
    say(f"artifact bucket s3://{bucket} (created, private)")


def _secret_exists(aws: Aws, name: str) -> bool:
    from botocore.exceptions import ClientError

    try:
        aws.secretsmanager.describe_secret(SecretId=name)
        return True
    except ClientError as e:
        if e.response["Error"]["Code"] == "ResourceNotFoundException":
            return False
        raise


def ensure_secrets(aws: Aws, stage: str) -> None:
    from chalicelib import secrets

    tags = [{"Key": "app", "Value": "shengong"}, {"Key": "stage", "Value": stage}]
    wechat = template.secret_id(stage, "wechat")
    if not _secret_exists(aws, wechat):
        raise Refused(f"missing secret {wechat}: run  infra/ops.sh set-wechat {stage} <appid>  (it reads the "
                      "app secret from stdin)")
    keys = template.secret_id(stage, "token-keys")
    if _secret_exists(aws, keys):
        say(f"secret {keys} (kept)")
    else:
        aws.secretsmanager.create_secret(Name=keys, Tags=tags, Description="shengong token signing keys",
                                         SecretString=json.dumps(secrets.new_token_keys(time.time())))
        say(f"secret {keys} (created: a fresh random signing key)")
    admins = template.secret_id(stage, "admins")
    if _secret_exists(aws, admins):
        say(f"secret {admins} (kept)")
    else:
        aws.secretsmanager.create_secret(Name=admins, Tags=tags, Description="shengong 司礼 openids",
                                         SecretString=json.dumps({"openids": []}))
        say(f"secret {admins} (created, empty: infra/ops.sh add-admin {stage} OPENID)")
    say(f"secret {wechat} (kept)")


# ---- package --------------------------------------------------------------------------------------


def package(stage: str, region_name: str, out: Path) -> dict[str, Any]:
    """chalice package --merge-template; the merged SAM template (its code in out/package/deployment.zip)."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    merge = out / "resources.json"
    merge.write_text(json.dumps(template.merge_template(stage), ensure_ascii=False, indent=1), encoding="utf-8")
    chalice = Path(sys.executable).parent / "chalice"
    if not chalice.exists():
        raise Refused(f"chalice is not installed next to {sys.executable}: run infra/dev.sh venv")
    # chalice zips chalicelib as it finds it: compiled caches would triple the code and make its key
    # (and so each function's version) change with nothing changed
    for cache in (ROOT / "chalicelib").rglob("__pycache__"):
        shutil.rmtree(cache, ignore_errors=True)
    env = {**os.environ, "AWS_DEFAULT_REGION": region_name, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([str(chalice), "package", "--stage", stage, "--merge-template", str(merge),
                           str(out / "package")], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
        raise Refused(f"chalice package failed: {last}")
    return dict(json.loads((out / "package" / "sam.json").read_text(encoding="utf-8")))


LAYER = "ManagedLayer"
"""Chalice's automatic layer: the dependencies, rebuilt only when requirements.txt changes."""


def upload_code(aws: Aws, bucket: str, stage: str, zip_path: Path) -> str:
    """Upload a zip under its content hash (skipped when that content is already there); its key."""
    digest = hashlib.sha256(zip_path.read_bytes()).hexdigest()
    key = f"{stack_name(stage)}/code/{zip_path.stem}-{digest}.zip"
    from botocore.exceptions import ClientError

    try:
        aws.s3.head_object(Bucket=bucket, Key=key)
        say(f"{zip_path.name}: s3://{bucket}/{key} (unchanged)")
    except ClientError:
        aws.s3.upload_file(str(zip_path), bucket, key)
        say(f"{zip_path.name}: s3://{bucket}/{key} ({zip_path.stat().st_size / 1e6:.1f} MB)")
    return key


def build_template(sam: dict[str, Any], bucket: str, code_key: str, region_name: str,
                   layer_key: str | None = None) -> dict[str, Any]:
    sam = template.finalize(sam)
    for fn in template.FUNCTIONS:
        sam["Resources"][fn]["Properties"]["CodeUri"] = {"Bucket": bucket, "Key": code_key}
    if LAYER in sam["Resources"]:
        if layer_key is None:
            raise Refused("the package has a dependency layer but no layer-deployment.zip")
        sam["Resources"][LAYER]["Properties"]["ContentUri"] = {"Bucket": bucket, "Key": layer_key}
    return template.expand(sam, region_name)


def lint(path: Path) -> None:
    cfn_lint = Path(sys.executable).parent / "cfn-lint"
    if not cfn_lint.exists():
        say("cfn-lint is not installed: lint skipped")
        return
    done = subprocess.run([str(cfn_lint), "--format", "parseable", str(path)], capture_output=True, text=True,
                          check=False)
    # cfn-lint's exit status is a bit mask of what it found (2 errors, 4 warnings, 8 informational);
    # 1 is cfn-lint itself failing, which must not pass for a clean template
    if done.returncode == 1 or (done.returncode & 2 and ":E" not in done.stdout):
        detail = (done.stderr.strip() or done.stdout.strip()).splitlines()
        raise Refused(f"cfn-lint failed on {path}: {detail[-1] if detail else f'exit status {done.returncode}'}")
    errors = [ln for ln in done.stdout.splitlines() if ":E" in ln]
    if errors:
        raise Refused(f"cfn-lint found {len(errors)} error(s) in {path}; first: {errors[0]}")
    warnings = [ln for ln in done.stdout.splitlines() if ln.strip()]
    say(f"cfn-lint: no errors{f', {len(warnings)} warning(s)' if warnings else ''}")


# ---- stack ----------------------------------------------------------------------------------------


def reservations(cfn: dict[str, Any]) -> dict[str, int]:
    """Logical id -> reserved concurrency of the template's functions that reserve any."""
    return {name: int(r["Properties"]["ReservedConcurrentExecutions"]) for name, r in cfn["Resources"].items()
            if r.get("Type") == "AWS::Lambda::Function" and "ReservedConcurrentExecutions" in r.get("Properties", {})}


def check_concurrency(aws: Aws, stage: str, cfn: dict[str, Any]) -> None:
    """Refuse before the stack is touched when the account cannot give the template's reservations.

    Otherwise CloudFormation finds out half-way ("decreases account's UnreservedConcurrentExecution below
    its minimum value") and rolls the whole stage back; a new account's limit of 10 is the usual cause.
    What this stack's functions already reserve is counted as available: an update only asks for more.
    """
    wanted = reservations(cfn)
    if not wanted:
        return
    from botocore.exceptions import ClientError

    limit = aws.client("lambda").get_account_settings()["AccountLimit"]
    held = 0
    stack = describe_stack(aws, stage)
    if stack is not None and stack["StackStatus"] != "ROLLBACK_COMPLETE":  # that one holds no functions
        ids = physical_ids(aws, stage)
        for name in wanted:
            if name not in ids:
                continue
            try:
                held += aws.client("lambda").get_function_concurrency(FunctionName=ids[name]).get(
                    "ReservedConcurrentExecutions", 0)
            except ClientError as e:
                if e.response.get("Error", {}).get("Code") != "ResourceNotFoundException":
                    raise  # (a function the stack lists but no longer has holds nothing)
    need = sum(wanted.values()) - held
    floor = min(MIN_UNRESERVED, limit["ConcurrentExecutions"])
    left = limit["UnreservedConcurrentExecutions"] - need
    if need > 0 and left < floor:
        raise Refused(
            f"Lambda concurrency: the stage reserves {sum(wanted.values())} (one each for "
            f"{', '.join(sorted(wanted))}, so two sweeps never overlap), {need} more than now, but the account "
            f"has {limit['UnreservedConcurrentExecutions']} unreserved of {limit['ConcurrentExecutions']} and "
            f"Lambda keeps {floor} unreserved. Ask AWS for more (Service Quotas → AWS Lambda → Concurrent "
            f"executions) and deploy again; the stack was not touched")
    say(f"Lambda concurrency: {limit['UnreservedConcurrentExecutions']} unreserved of "
        f"{limit['ConcurrentExecutions']}, the stage reserves {sum(wanted.values())}")


def stack_parameters(stack: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Parameters set in the environment; the rest keep their current value (a deploy never resets them)."""
    previous = parameters(stack) if stack else {}
    chosen = dict(previous)
    for env, key in STACK_PARAMETERS.items():
        if env in os.environ:
            chosen[key] = os.environ[env]
    for key in KEPT_PARAMETERS:
        if key in previous:
            chosen[key] = previous[key]
    return [{"ParameterKey": k, "ParameterValue": v} for k, v in sorted(chosen.items())]


BUDGET_AMOUNT = re.compile(r"[0-9]+(\.[0-9]{1,2})?")
"""US dollars and cents, as the template's MonthlyBudgetUsd pattern takes them (no sign, no exponent)."""


def check_parameters(params: list[dict[str, Any]], account: str | None = None) -> None:
    """Settings that cannot work together, refused before anything is touched. A custom domain needs its
    certificate: without one, CloudFront refuses the distribution minutes into the stack update and the
    whole stage rolls back. An alarm e-mail is subscribed to the stage's own topic only: with a topic of
    yours (ALARM_TOPIC_ARN) it would be dropped without a word, and nobody paged at that address. A
    budget is an amount above zero (CloudFormation would take "0", and every notice would fire), and
    Budgets notifies only a topic of its own account (`account`, when known)."""
    chosen = {p["ParameterKey"]: p["ParameterValue"] for p in params}
    if chosen.get("WebDomain") and not chosen.get("WebCertificateArn"):
        raise Refused(f"WEB_DOMAIN {chosen['WebDomain']} needs WEB_CERTIFICATE_ARN: an ACM certificate for it in "
                      "us-east-1, validated (docs/operations.md, a custom domain); or WEB_DOMAIN= for none. "
                      "Nothing was deployed")
    if chosen.get("AlarmEmail") and chosen.get("AlarmTopicArn"):
        raise Refused(f"ALARM_EMAIL {chosen['AlarmEmail']} is subscribed to the stage's own alarm topic only, and "
                      f"ALARM_TOPIC_ARN {chosen['AlarmTopicArn']} replaces that topic: subscribe the address to your "
                      "topic yourself and deploy with ALARM_EMAIL= (or ALARM_TOPIC_ARN= to keep the stage's topic). "
                      "Nothing was deployed")
    from chalicelib.config import NO_PUSH_VIEWS
    from chalicelib.push.service import PUSHED_VIEW_FAMILIES

    views = chosen.get("PushViews", "")
    unknown = sorted(set(filter(None, views.split(","))) - PUSHED_VIEW_FAMILIES) if views != NO_PUSH_VIEWS else []
    if unknown:
        raise Refused(f"PUSH_VIEWS may name {', '.join(sorted(PUSHED_VIEW_FAMILIES))}, not {', '.join(unknown)} "
                      f"(the games whose page shows a view a notice carries), or be {NO_PUSH_VIEWS} for no views. "
                      "Nothing was deployed")
    budget = chosen.get("MonthlyBudgetUsd", "")
    if budget and not (BUDGET_AMOUNT.fullmatch(budget) and float(budget) > 0):
        raise Refused(f"MONTHLY_BUDGET_USD {budget!r} is not a budget: a positive number of US dollars, e.g. 50 or "
                      "12.50 (no sign, no $); or MONTHLY_BUDGET_USD= for none. Nothing was deployed")
    topic = chosen.get("AlarmTopicArn", "")
    topic_account = topic.split(":")[4] if topic.count(":") >= 5 else ""
    if budget and account and topic_account and topic_account != account:
        raise Refused(f"MONTHLY_BUDGET_USD: a budget notifies only a topic of its own account ({account}), and "
                      f"ALARM_TOPIC_ARN {topic} is in account {topic_account}: use a topic of this account, or "
                      "MONTHLY_BUDGET_USD= for no budget. Nothing was deployed")


def budgets_here(aws: Aws, params: list[dict[str, Any]]) -> bool:
    """Whether CloudFormation in this region makes budgets (AWS::Budgets::Budget is missing from several
    regions, ap-east-1 among them). Where it does not, a budget asked for is refused before anything is
    touched (Budgets itself is global: set one by hand in the Billing console); with none asked for, the
    deploy leaves the budget out of the template, so the stack never names a type its region lacks."""
    from botocore.exceptions import ClientError

    wanted = any(p["ParameterKey"] == "MonthlyBudgetUsd" and p["ParameterValue"] for p in params)
    try:
        aws.cloudformation.describe_type(Type="RESOURCE", TypeName=template.BUDGET_TYPE)
        return True
    except ClientError as e:
        if e.response.get("Error", {}).get("Code") != "TypeNotFoundException" and wanted:
            raise  # a budget asked for, and the region's answer unknown (no cloudformation:DescribeType?)
    if wanted:
        raise Refused(f"MONTHLY_BUDGET_USD: CloudFormation in {aws.region} cannot make budgets (it has no "
                      f"{template.BUDGET_TYPE}): set the budget by hand in the Billing console (Budgets are "
                      "account-wide; docs/operations.md, Cost), and deploy with MONTHLY_BUDGET_USD= . "
                      "Nothing was deployed")
    return False


def deploy_stack(aws: Aws, stage: str, url: str, sha: str, params: list[dict[str, Any]] | None = None,
                 accepts: set[str] | None = None) -> dict[str, Any]:
    """Create or update the stack from `url`; wait; the settled stack. Refused when it did not succeed.

    `accepts`: the template's parameter names (a parameter the template does not declare is dropped).
    """
    from botocore.exceptions import ClientError

    name = stack_name(stage)
    stack = describe_stack(aws, stage)
    params = stack_parameters(stack) if params is None else params
    if accepts is not None:
        params = [p for p in params if p["ParameterKey"] in accepts]
    if stack is not None and stack["StackStatus"].endswith("_IN_PROGRESS"):
        raise Refused(f"stack {name} is busy ({stack['StackStatus']}): wait, or see infra/ops.sh status {stage}")
    if stack is not None and stack["StackStatus"] == "UPDATE_ROLLBACK_FAILED":
        raise Refused(f"stack {name} is stuck in UPDATE_ROLLBACK_FAILED: run infra/ops.sh rollback {stage} "
                      "to finish the rollback, then deploy again")
    if stack is not None and stack["StackStatus"] == "ROLLBACK_COMPLETE":
        raise Refused(f"stack {name} never got created (ROLLBACK_COMPLETE): delete it in the CloudFormation console "
                      "and deploy again (the table is kept only once created)")
    kwargs: dict[str, Any] = {
        "StackName": name, "TemplateURL": url,
        "Parameters": params,
        "Capabilities": ["CAPABILITY_IAM", "CAPABILITY_AUTO_EXPAND"],
        "Tags": [{"Key": "app", "Value": "shengong"}, {"Key": "stage", "Value": stage},
                 {"Key": "commit", "Value": sha}],
    }
    since = time.time()
    if stack is None:
        say(f"creating stack {name}")
        aws.cloudformation.create_stack(**kwargs, EnableTerminationProtection=stage == "prod",
                                        OnFailure="ROLLBACK")
    else:
        say(f"updating stack {name}")
        try:
            aws.cloudformation.update_stack(**kwargs)
        except ClientError as e:
            if "No updates are to be performed" not in e.response["Error"].get("Message", ""):
                raise
            say("no changes to deploy")
            return stack
    final = wait_for_stack(aws, stage, since)
    if final["StackStatus"] not in OK:
        raise Refused(f"deploy failed ({final['StackStatus']}): {first_failure(aws, stage, since)}")
    return final


def record(aws: Aws, bucket: str, stage: str, entry: dict[str, Any]) -> None:
    """Append to the stage's deploy history (what infra/ops.sh rollback goes back to)."""
    from botocore.exceptions import ClientError

    try:
        history = json.loads(aws.s3.get_object(Bucket=bucket, Key=history_key(stage))["Body"].read())
    except ClientError:
        history = []
    history.append(entry)
    aws.s3.put_object(Bucket=bucket, Key=history_key(stage), Body=json.dumps(history[-50:], indent=1).encode(),
                      ContentType="application/json")


# ---- web ------------------------------------------------------------------------------------------


CLIENT_SOURCES = ("client/src", "client/config", "client/package-lock.json", "client/babel.config.js")
"""What the H5 build is made from (as infra/dev.sh's client_h5_stale reads them)."""


def stale_web_build(web_dir: Path | None = None, root: Path = ROOT) -> Path | None:
    """A client source newer than the H5 build (None: the build is current, or there is none). The
    build is not in git, so the commit check cannot see it: a deploy would ship (and keep, for the
    rollback to this commit) a client of another commit beside this commit's API."""
    index = (web_dir or web_build()) / "index.html"
    if not index.exists():
        return None
    built = index.stat().st_mtime
    for name in CLIENT_SOURCES:
        source = root / name
        paths = source.rglob("*") if source.is_dir() else [source]
        newer = next((p for p in paths if p.is_file() and p.stat().st_mtime > built), None)
        if newer is not None:
            return newer
    return None


def upload_web(aws: Aws, out: dict[str, str], web_dir: Path | None = None) -> None:
    web_dir = web_dir or web_build()
    if not (web_dir / "index.html").exists():
        say(f"web client not built ({web_dir}/index.html missing): skipping the upload")
        return
    bucket = out.get("WebBucketName")
    if not bucket:
        raise Refused("the stack has no WebBucketName output: is the template current?")
    # the pages last: an upload that stops half-way must not serve an index.html whose scripts are not there
    files = sorted((p for p in web_dir.rglob("*") if p.is_file()), key=lambda p: (p.suffix == ".html", str(p)))
    for path in files:
        key = path.relative_to(web_dir).as_posix()
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
            kind += "; charset=utf-8"
        # index.html is read on every visit; the build's other files have content hashes in their names
        cache = "no-cache" if key.endswith(".html") else "public, max-age=31536000, immutable"
        aws.s3.upload_file(str(path), bucket, key, ExtraArgs={"ContentType": kind, "CacheControl": cache})
    say(f"web client: {len(files)} files to s3://{bucket}")
    distribution = out.get("WebDistributionId")
    if distribution:
        from botocore.exceptions import ClientError

        try:
            aws.cloudfront.create_invalidation(DistributionId=distribution, InvalidationBatch={
                "Paths": {"Quantity": 1, "Items": ["/*"]}, "CallerReference": str(time.time())})
            say(f"CloudFront {distribution}: invalidated")
        except ClientError as e:
            # not fatal: index.html is served no-cache and every other file has a new name when it changes
            say(f"CloudFront invalidation failed ({e.response['Error'].get('Code')}): visitors still get the new "
                "client (index.html is no-cache)")


def web_key(stage: str, sha: str) -> str:
    return f"{stack_name(stage)}/web/{sha}.zip"


def archive_web(aws: Aws, bucket: str, stage: str, sha: str, web_dir: Path | None = None) -> str | None:
    """Keep this commit's web build in the artifact bucket beside its code and template, so a rollback
    puts back the client that went with the API (None: no build to keep)."""
    web_dir = web_dir or web_build()
    if not (web_dir / "index.html").exists():
        return None
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(p for p in web_dir.rglob("*") if p.is_file()):
            zf.write(path, path.relative_to(web_dir).as_posix())
    key = web_key(stage, sha)
    aws.s3.put_object(Bucket=bucket, Key=key, Body=data.getvalue(), ContentType="application/zip")
    say(f"web build kept: s3://{bucket}/{key}")
    return key


def restore_web(aws: Aws, bucket: str, key: str, out: dict[str, str]) -> None:
    """Upload a kept web build again (a rollback's client)."""
    body = aws.s3.get_object(Bucket=bucket, Key=key)["Body"].read()
    with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(io.BytesIO(body)) as zf:
        for name in zf.namelist():
            if name.startswith("/") or ".." in Path(name).parts:
                raise Refused(f"the kept web build {key} holds a path outside its folder: {name}")
        zf.extractall(tmp)
        upload_web(aws, out, Path(tmp))


# ---- main -----------------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="infra/deploy.sh", description="Deploy one stage of 深宫.")
    parser.add_argument("stage", help="dev, staging or prod")
    parser.add_argument("--no-lint", action="store_true", help="skip cfn-lint of the expanded template")
    parser.add_argument("--no-smoke", action="store_true", help="skip the smoke test")
    parser.add_argument("--urgent", action="store_true",
                        help="a fix while alarms fire: shift every function at once, not stopped by the alarms")
    args = parser.parse_args(argv)

    stage = check_stage(args.stage)
    step(f"stage {stage}: account and region")
    aws = Aws(region())
    account = check_account(aws, stage)
    sha = commit()
    say(f"account {account}, region {aws.region}, commit {sha}")
    newer = stale_web_build()
    if newer is not None:
        raise Refused(f"the web build {web_build()} is older than {newer.relative_to(ROOT)}: "
                      "build it for this commit (cd client && npm run build:h5), then deploy again")
    params = stack_parameters(describe_stack(aws, stage))
    check_parameters(params, account)
    with_budgets = budgets_here(aws, params)
    values = {p["ParameterKey"]: p["ParameterValue"] for p in params}
    if values.get("MonthlyBudgetUsd") and values.get("AlarmTopicArn"):
        say(f"budget notices go to your topic {values['AlarmTopicArn']}: its access policy must let "
            "budgets.amazonaws.com publish (docs/operations.md, Cost)")
    ensure_apigateway_logging(aws)
    bucket = artifact_bucket(account, aws.region)
    ensure_bucket(aws, bucket)

    step("secrets")
    ensure_secrets(aws, stage)

    step("packaging (chalice package --merge-template, SAM transform)")
    build = Path(os.environ.get("SHENGONG_BUILD_DIR") or ROOT / "build") / stage
    sam = package(stage, aws.region, build)
    code_key = upload_code(aws, bucket, stage, build / "package" / "deployment.zip")
    layer_zip = build / "package" / "layer-deployment.zip"
    layer_key = upload_code(aws, bucket, stage, layer_zip) if layer_zip.exists() else None
    cfn = template.pin_versions(build_template(sam, bucket, code_key, aws.region, layer_key), values)
    if not with_budgets:
        cfn = template.without_budget(cfn)
        say(f"no budget in the template: CloudFormation in {aws.region} has no {template.BUDGET_TYPE}")
    if args.urgent:
        cfn = template.urgent(cfn)
        say("urgent: every function shifts at once, and no alarm stops the shift")
    path = build / "template.json"
    path.write_text(json.dumps(cfn, ensure_ascii=False, indent=1), encoding="utf-8")
    say(f"template {path}: {len(cfn['Resources'])} resources, {path.stat().st_size:,} bytes")
    if not args.no_lint:
        lint(path)
    check_concurrency(aws, stage, cfn)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    key = f"{stack_name(stage)}/templates/{stamp}-{sha}.json"
    aws.s3.upload_file(str(path), bucket, key)
    url = template_url(bucket, aws.region, key)

    step(f"stack {stack_name(stage)}")
    stack = deploy_stack(aws, stage, url, sha, params, accepts=set(cfn.get("Parameters", {})))
    web = archive_web(aws, bucket, stage, sha)
    record(aws, bucket, stage, {"commit": sha, "time": stamp, "template_url": url, "code": code_key,
                                "layer": layer_key, "web": web})
    out = outputs(stack)

    step("web client")
    upload_web(aws, out)

    step("smoke test")
    smoke_url = os.environ.get("SHENGONG_SMOKE_URL") or out.get("EndpointURL", "")
    if args.no_smoke:
        say("skipped (--no-smoke)")
    elif not smoke_url:
        raise Refused("the stack has no EndpointURL output to smoke-test")
    else:
        from infra.smoke import smoke

        expected = None if os.environ.get("SHENGONG_SMOKE_URL") else stage
        for line in smoke(smoke_url, expected):
            say(f"  {line}")

    step("done")
    say(f"API: {out.get('EndpointURL', '?')}")
    say(f"Web: {out.get('WebURL', '?')}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main, name="deploy"))
