"""The operator's toolkit: ``infra/ops.sh COMMAND STAGE …`` (a thin wrapper over ``python -m infra.ops``).

    status STAGE                    stack, commit, URLs, alias versions, alarms firing, the budget's spend,
                                    failed sweeps, secrets
    logs STAGE [FUNCTION]           recent log lines (api, authorizer, settle, expire, stream, ws-connect,
                                    ws-message, ws-disconnect, access); --since 30m, --filter ERROR
    rotate-token-key STAGE          a new signing key; the previous one keeps verifying (nobody logged out)
    add-admin STAGE OPENID          make a WeChat openid a 司礼 (at her next login, within 5 minutes)
    remove-admin STAGE OPENID
    set-wechat STAGE APPID          store the WeChat app id and secret (the secret is read from stdin)
    rollback STAGE [--to COMMIT]    cancel a running update, or redeploy the previous successful deploy
    restore-table STAGE TIME        point-in-time restore into a new table and switch the stage to it
    use-table STAGE [TABLE]         switch the stage to a table (none: back to the stack's own)

Same conventions as the deploy: AWS credentials and AWS_REGION, boto3 only, every failure one line.
See docs/operations.md for when to use which.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import re
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlparse

from chalicelib import secrets
from infra import template
from infra.awsutil import (
    Aws,
    Refused,
    check_account,
    check_stage,
    outputs,
    parameters,
    physical_ids,
    poll_s,
    region,
    require_stack,
    run,
    say,
    stack_name,
    step,
    tags,
    wait_for_stack,
)

TOKEN_TTL_S = 7200
"""How long a token lives (TOKEN_TTL_S in chalicelib/config.py): the previous key must outlive it."""
LOG_GROUPS = {"api": "APIHandler", "authorizer": "TokenAuthorizer", "settle": "SettleOverdue",
              "expire": "ExpireStalled", "stream": "RoomStream", "ws-connect": "WebsocketConnect",
              "ws-message": "WebsocketMessage", "ws-disconnect": "WebsocketDisconnect", "access": "api-access"}
"""`ops.sh logs` names -> log groups: every function's (template.FUNCTIONS) and the API's access log."""


def _connect(stage: str) -> Aws:
    check_stage(stage)
    aws = Aws(region())
    check_account(aws, stage)
    return aws


def _get_json_secret(aws: Aws, name: str) -> dict[str, Any]:
    from botocore.exceptions import ClientError

    try:
        value = aws.secretsmanager.get_secret_value(SecretId=name)["SecretString"]
    except ClientError as e:
        if e.response["Error"]["Code"] == "ResourceNotFoundException":
            raise Refused(f"secret {name} does not exist: deploy the stage first (infra/deploy.sh)") from e
        raise
    doc = json.loads(value)
    if not isinstance(doc, dict):
        raise Refused(f"secret {name} is not a JSON object")
    return doc


def _put_json_secret(aws: Aws, name: str, doc: dict[str, Any]) -> None:
    aws.secretsmanager.put_secret_value(SecretId=name, SecretString=json.dumps(doc, ensure_ascii=False))


# ---- secrets ----------------------------------------------------------------------------------------


def rotate_token_key(stage: str, force: bool) -> None:
    aws = _connect(stage)
    name = template.secret_id(stage, "token-keys")
    doc = _get_json_secret(aws, name)
    now = time.time()
    rotated_at = float(doc.get("rotated_at", 0))
    safe_at = rotated_at + TOKEN_TTL_S + secrets.DEFAULT_MAX_AGE_S
    if now < safe_at and len(doc.get("keys", {})) > 1 and not force:
        when = datetime.fromtimestamp(safe_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
        raise Refused(f"the last rotation was less than {TOKEN_TTL_S // 3600} h ago: rotating again now would drop "
                      f"the key that still verifies tokens issued before it. Wait until {when} or pass --force "
                      "(e.g. a leaked key: everyone signed by it must log in again)")
    try:
        new = secrets.rotated_token_keys(doc, now)
    except ValueError as e:
        raise Refused(f"secret {name} is unusable: {e}") from e
    _put_json_secret(aws, name, new)
    previous = doc["current"]
    say(f"token key rotated: {new['current']} signs from now on; {previous} still verifies the tokens it signed")
    say(f"every instance picks the new key up within {secrets.DEFAULT_MAX_AGE_S // 60} minutes; nobody is logged out")


def add_admin(stage: str, openid: str, remove: bool = False) -> None:
    openid = openid.strip()
    if not re.fullmatch(r"[A-Za-z0-9_:\-]{6,64}", openid):
        raise Refused(f"{openid!r} does not look like a WeChat openid")
    aws = _connect(stage)
    name = template.secret_id(stage, "admins")
    doc = _get_json_secret(aws, name)
    openids = [o for o in doc.get("openids", []) if isinstance(o, str)]
    if remove:
        if openid not in openids:
            say(f"{openid} is not a 司礼 of {stage}: nothing to do")
            return
        openids.remove(openid)
    elif openid in openids:
        say(f"{openid} is already a 司礼 of {stage}: nothing to do")
        return
    else:
        openids.append(openid)
    _put_json_secret(aws, name, {**doc, "openids": sorted(openids)})
    verb = "no longer" if remove else "now"
    say(f"{openid} is {verb} a 司礼 of {stage} ({len(openids)} in all): it takes effect at her next login, "
        f"within {secrets.DEFAULT_MAX_AGE_S // 60} minutes (a token she holds keeps its role until it expires, "
        f"{TOKEN_TTL_S // 3600} h at most)")


def set_wechat(stage: str, appid: str) -> None:
    if not re.fullmatch(r"wx[0-9a-f]{16}", appid):
        raise Refused(f"{appid!r} is not a mini-program app id (wx + 16 hex digits)")
    if sys.stdin.isatty():
        secret = getpass.getpass("WeChat app secret (not shown): ")
    else:
        secret = sys.stdin.readline()
    secret = secret.strip()
    if not re.fullmatch(r"[0-9a-f]{32}", secret):
        raise Refused("the app secret must be 32 hex digits (mp.weixin.qq.com → 开发管理 → 开发设置)")
    aws = _connect(stage)
    from botocore.exceptions import ClientError

    name = template.secret_id(stage, "wechat")
    doc = {"appid": appid, "secret": secret}
    try:
        aws.secretsmanager.create_secret(Name=name, SecretString=json.dumps(doc), Description="shengong WeChat app",
                                         Tags=[{"Key": "app", "Value": "shengong"}, {"Key": "stage", "Value": stage}])
        say(f"secret {name} created for {appid}")
    except ClientError as e:
        if e.response["Error"]["Code"] != "ResourceExistsException":
            raise
        _put_json_secret(aws, name, doc)
        say(f"secret {name} updated for {appid}: used by every instance within "
            f"{secrets.DEFAULT_MAX_AGE_S // 60} minutes")


# ---- looking --------------------------------------------------------------------------------------


def status(stage: str) -> None:
    aws = _connect(stage)
    stack = require_stack(aws, stage)
    out, params, tag = outputs(stack), parameters(stack), tags(stack)
    updated = stack.get("LastUpdatedTime") or stack.get("CreationTime")
    say(f"stack {stack_name(stage)}: {stack['StackStatus']} (commit {tag.get('commit', '?')}, "
        f"{updated:%Y-%m-%d %H:%M UTC})" if updated else f"stack {stack_name(stage)}: {stack['StackStatus']}")
    say(f"API: {out.get('EndpointURL', '?')}")
    say(f"Web: {out.get('WebURL', '?')}")
    table = out.get("TableName", "?")
    restored = f" (restored; the stack's own is {out.get('StackTableName')})" if params.get("ActiveTableName") else ""
    say(f"table: {table}{restored}")

    ids = physical_ids(aws, stage)
    for fn in template.FUNCTIONS:
        physical = ids.get(fn)
        if not physical:
            continue
        try:
            alias = aws.client("lambda").get_alias(FunctionName=physical, Name=template.ALIAS)
        except Exception:  # noqa: BLE001 - a function without its alias is itself the news
            say(f"  {fn}: no alias {template.ALIAS}")
            continue
        weights = alias.get("RoutingConfig", {}).get("AdditionalVersionWeights", {})
        shifting = "".join(f", {w:.0%} to v{v}" for v, w in weights.items())
        say(f"  {fn}: {template.ALIAS} -> v{alias['FunctionVersion']}{shifting}")

    firing = [a["AlarmName"] for page in aws.cloudwatch.get_paginator("describe_alarms").paginate(
        StateValue="ALARM") for a in page["MetricAlarms"] if a["AlarmName"].startswith(stack_name(stage))]
    say(f"alarms firing: {', '.join(firing) if firing else 'none'}")
    say(budget_line(aws, stack, ids.get(template.BUDGET_RESOURCE)))
    queue = out.get("SweepFailureQueueUrl")
    if queue:
        attrs = aws.sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["ApproximateNumberOfMessages"])
        say(f"failed sweeps waiting: {attrs['Attributes'].get('ApproximateNumberOfMessages', '?')} ({queue})")
    for name in template.SECRETS:
        say(secret_line(aws, stage, name))


def budget_line(aws: Aws, stack: dict[str, Any], name: str | None) -> str:
    """One line on the stage's budget (MONTHLY_BUDGET_USD): the month's spend and forecast against it, as
    Budgets last computed them (a few times a day), for the whole account."""
    from botocore.exceptions import ClientError

    amount = parameters(stack).get("MonthlyBudgetUsd", "")
    if not amount:
        return "budget: none (MONTHLY_BUDGET_USD: docs/operations.md, Cost)"
    if not name:
        return f"budget: MONTHLY_BUDGET_USD is {amount} but the stack holds no budget: deploy the stage again"
    account = str(stack["StackId"]).split(":")[4]
    try:
        budget = aws.budgets.describe_budget(AccountId=account, BudgetName=name)["Budget"]
    except ClientError as e:
        return f"budget {name}: UNREADABLE with these credentials ({e.response.get('Error', {}).get('Code', '?')})"

    def usd(spend: dict[str, Any] | None) -> str:
        return f"${float(spend['Amount']):,.2f}" if spend and spend.get("Amount") else "?"

    spent = budget.get("CalculatedSpend", {})
    return (f"budget {name}: {usd(spent.get('ActualSpend'))} of {usd(budget.get('BudgetLimit'))} this month "
            f"(the whole account), {usd(spent.get('ForecastedSpend'))} forecast")


def secret_line(aws: Aws, stage: str, name: str) -> str:
    """One line on one of the stage's secrets as the functions would find it: missing, unreadable,
    malformed (and what to run), or what it holds, never a value: key ids, the app id, a count."""
    from botocore.exceptions import ClientError

    sid = template.secret_id(stage, name)
    try:
        raw = aws.secretsmanager.get_secret_value(SecretId=sid)["SecretString"]
    except ClientError as e:
        code = e.response.get("Error", {}).get("Code", "?")
        if code == "ResourceNotFoundException":
            fix = f"infra/ops.sh set-wechat {stage} <appid>" if name == "wechat" else f"infra/deploy.sh {stage}"
            return f"secret {sid}: MISSING, the functions answer 503 until it exists: {fix}"
        return f"secret {sid}: UNREADABLE with these credentials ({code})"
    try:
        doc = json.loads(raw)
    except ValueError:
        doc = None
    if not isinstance(doc, dict):
        return f"secret {sid}: MALFORMED (not a JSON object)"
    if name == "token-keys":
        try:
            ring = secrets.parse_token_keys(doc)
        except ValueError as e:
            return f"secret {sid}: MALFORMED ({e})"
        at = datetime.fromtimestamp(float(doc.get("rotated_at", 0)), UTC)
        others = sorted(k for k in ring.keys if k != ring.kid)
        return (f"token keys: {ring.kid} signs (since {at:%Y-%m-%d %H:%M UTC})"
                + (f", {', '.join(others)} verifies" if others else ""))
    if name == "wechat":
        appid, secret = doc.get("appid"), doc.get("secret")
        if not (isinstance(appid, str) and appid and isinstance(secret, str) and secret):
            return f"secret {sid}: MALFORMED (needs appid and secret): infra/ops.sh set-wechat {stage} <appid>"
        return f"WeChat: app {appid} (its secret set)"
    openids = doc.get("openids", [])
    if not isinstance(openids, list) or not all(isinstance(o, str) for o in openids):
        return f"secret {sid}: MALFORMED (openids must be a list of strings)"
    return f"司礼: {len(openids)}"


def _since(text: str) -> datetime:
    m = re.fullmatch(r"(\d+)([smhd])", text)
    if not m:
        raise Refused(f"--since {text!r}: use e.g. 30s, 15m, 2h, 1d")
    seconds = int(m.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
    return datetime.now(UTC) - timedelta(seconds=seconds)


def logs(stage: str, function: str | None, since: str, pattern: str | None, limit: int) -> None:
    aws = _connect(stage)
    if function is None:
        names = [k for k, v in LOG_GROUPS.items() if v in template.FUNCTIONS]
    elif function in LOG_GROUPS:
        names = [function]
    elif function in template.FUNCTIONS:
        names = [k for k, v in LOG_GROUPS.items() if v == function]
    else:
        raise Refused(f"unknown function {function!r}: one of {', '.join(LOG_GROUPS)}")
    start = int(_since(since).timestamp() * 1000)
    lines: list[tuple[int, str, str]] = []
    from botocore.exceptions import ClientError

    for name in names:
        group = template.log_group_name(stage, LOG_GROUPS[name])
        kwargs: dict[str, Any] = {"logGroupName": group, "startTime": start}
        if pattern:
            kwargs["filterPattern"] = pattern
        try:
            for page in aws.logs.get_paginator("filter_log_events").paginate(**kwargs):
                lines += [(e["timestamp"], name, e["message"].rstrip()) for e in page["events"]]
                if len(lines) > limit * 4:
                    break
        except ClientError as e:
            if e.response["Error"]["Code"] != "ResourceNotFoundException":
                raise
            say(f"(no log group {group} yet)")
    for ts, name, message in sorted(lines)[-limit:]:
        say(f"{datetime.fromtimestamp(ts / 1000, UTC):%m-%d %H:%M:%S} {name:<10} {message}")
    if not lines:
        say(f"no log lines since {since} ago")


# ---- changing the stack -----------------------------------------------------------------------------


def rollback(stage: str, to: str | None) -> None:
    from infra import deploy

    aws = _connect(stage)
    stack = require_stack(aws, stage)
    state = stack["StackStatus"]
    since = time.time()
    if state == "UPDATE_IN_PROGRESS":
        step(f"cancelling the running update of {stack_name(stage)}")
        aws.cloudformation.cancel_update_stack(StackName=stack_name(stage))
        final = wait_for_stack(aws, stage, since)
        say(f"stack {final['StackStatus']}: the previous version is live")
        return
    if state == "UPDATE_ROLLBACK_FAILED":
        step(f"continuing the failed rollback of {stack_name(stage)}")
        aws.cloudformation.continue_update_rollback(StackName=stack_name(stage))
        final = wait_for_stack(aws, stage, since)
        say(f"stack {final['StackStatus']}")
        return
    if state.endswith("_IN_PROGRESS"):
        raise Refused(f"stack {stack_name(stage)} is busy ({state}): wait for it, then try again")

    account = aws.account()
    bucket = deploy.artifact_bucket(account, aws.region)
    from botocore.exceptions import ClientError

    try:
        history = json.loads(aws.s3.get_object(Bucket=bucket, Key=deploy.history_key(stage))["Body"].read())
    except ClientError as e:
        raise Refused(f"no deploy history in s3://{bucket}/{deploy.history_key(stage)}: nothing to roll back to") from e
    current = tags(stack).get("commit")
    target = rollback_target(history, current, to, stage)
    step(f"rolling {stack_name(stage)} back from {current} to {target['commit']} (deployed {target['time']})")
    values = parameters(stack)
    params = [{"ParameterKey": k, "ParameterValue": v} for k, v in sorted(values.items())]
    old = json.loads(aws.s3.get_object(Bucket=bucket, Key=urlparse(target["template_url"]).path.lstrip("/"))[
        "Body"].read())
    key = f"{stack_name(stage)}/templates/{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}-rollback-{target['commit']}.json"
    aws.s3.put_object(Bucket=bucket, Key=key,
                      Body=json.dumps(rollback_template(old, values), ensure_ascii=False).encode())
    final = deploy.deploy_stack(aws, stage, deploy.template_url(bucket, aws.region, key), target["commit"], params,
                                accepts=set(old.get("Parameters", {})))
    deploy.record(aws, bucket, stage, {**target, "time": datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ"),
                                       "rollback_from": current})
    say(f"stack {final['StackStatus']}: commit {target['commit']} is live")
    if target.get("web"):
        step(f"web client of {target['commit']}")
        deploy.restore_web(aws, bucket, target["web"], outputs(final))
    else:
        say("no web build was kept with that deploy: the web client stays as the last deploy left it")
    _smoke(stage, outputs(final))


def rollback_template(old: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    """The template a rollback deploys: `old` (as its deploy recorded it), its functions' versions named
    for the parameters the stage runs with now (template.pin_versions: a table restored since that
    deploy is kept, so the versions must be named for it, or a later use-table would find the names
    unchanged and leave `live` on the restored table), and shifted all at once, not stopped by the
    alarms that likely called for the rollback (template.urgent)."""
    return template.urgent(template.pin_versions(old, values))


def rollback_target(history: list[dict[str, Any]], current: str | None, to: str | None, stage: str) -> dict[str, Any]:
    """The deploy to go back to: `to`'s, or the newest one of another commit that was not itself rolled
    back from since it was deployed (so a second rollback goes further back, not to the bad commit)."""
    if to:
        candidates = [h for h in history if h["commit"].startswith(to)]
        if not candidates:
            raise Refused(f"no deploy of commit {to} in the history (known: "
                          f"{', '.join(sorted({h['commit'] for h in history})[-8:])})")
        return candidates[-1]
    abandoned: set[str] = set()
    for h in history:  # oldest first
        if h.get("rollback_from"):
            abandoned.add(h["rollback_from"])
        else:
            abandoned.discard(h["commit"])  # deployed again afresh
    candidates = [h for h in history if h["commit"] != current and h["commit"] not in abandoned]
    if not candidates:
        raise Refused(f"no recorded deploy of {stage} older than the current commit {current} to go back to")
    return candidates[-1]


def _smoke(stage: str, out: dict[str, str]) -> None:
    from infra.smoke import smoke

    url = os.environ.get("SHENGONG_SMOKE_URL") or out.get("EndpointURL")
    if not url:
        return
    step("smoke test")
    for line in smoke(url, None if os.environ.get("SHENGONG_SMOKE_URL") else stage):
        say(f"  {line}")


def _parse_time(text: str) -> datetime:
    m = re.fullmatch(r"-?(\d+)([mhd])", text)
    if m:
        return datetime.now(UTC) - timedelta(seconds=int(m.group(1)) * {"m": 60, "h": 3600, "d": 86400}[m.group(2)])
    try:
        when = datetime.fromisoformat(text)
    except ValueError as e:
        raise Refused(f"TIME {text!r}: use ISO 8601 with a zone (2026-11-30T12:00:00Z, 2026-11-30T20:00+08:00) "
                      "or how long ago (30m, 2h, 1d)") from e
    if when.tzinfo is None:
        raise Refused(f"TIME {text!r} has no time zone: add Z or +08:00")
    return when.astimezone(UTC)


def table_stream(aws: Aws, table: str) -> str:
    """The restored table's stream, turned on if it is not (a restore copies items and indexes, not
    the stream): what the room notices' function reads while the stage runs on that table."""
    described = aws.dynamodb.describe_table(TableName=table)["Table"]
    spec = described.get("StreamSpecification") or {}
    if not (spec.get("StreamEnabled") and spec.get("StreamViewType") == "NEW_AND_OLD_IMAGES"):
        if spec.get("StreamEnabled"):  # another view type: DynamoDB changes it only by off, then on
            aws.dynamodb.update_table(TableName=table, StreamSpecification={"StreamEnabled": False})
            _wait_active(aws, table)
        aws.dynamodb.update_table(TableName=table, StreamSpecification={
            "StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
        _wait_active(aws, table)
        described = aws.dynamodb.describe_table(TableName=table)["Table"]
    return str(described["LatestStreamArn"])


def _wait_active(aws: Aws, table: str, hours: float = 3) -> None:
    deadline = time.monotonic() + hours * 3600
    while aws.dynamodb.describe_table(TableName=table)["Table"]["TableStatus"] != "ACTIVE":
        if time.monotonic() > deadline:
            raise Refused(f"{table} is still not ACTIVE after {hours:g} h: see the DynamoDB console")
        time.sleep(poll_s())


def switch_table(aws: Aws, stage: str, table: str) -> dict[str, Any]:
    """Point the stage's functions (and alarms, and the room notices' stream) at `table` ("" = the
    stack's own): a parameter update."""
    stack = require_stack(aws, stage)
    params = parameters(stack)
    params["ActiveTableName"] = table
    if "ActiveStreamArn" in params:
        params["ActiveStreamArn"] = table_stream(aws, table) if table else ""
    else:  # a stack deployed before notices could follow a table: its template has no such parameter
        say("note: this stack predates notices following a restored table; redeploy it to have them follow")
    since = time.time()
    aws.cloudformation.update_stack(
        StackName=stack_name(stage), **_template_for(aws, stage, params),
        Parameters=[{"ParameterKey": k, "ParameterValue": v} for k, v in sorted(params.items())],
        Capabilities=["CAPABILITY_IAM", "CAPABILITY_AUTO_EXPAND"], Tags=stack.get("Tags", []))
    final = wait_for_stack(aws, stage, since)
    if final["StackStatus"] != "UPDATE_COMPLETE":
        raise Refused(f"switching tables failed ({final['StackStatus']}): the stage still uses its previous table")
    return final


def _template_for(aws: Aws, stage: str, params: dict[str, str]) -> dict[str, Any]:
    """The stack's own template, its functions' versions named for `params` (template.pin_versions): a
    new table is read by new versions, which the alias `live` then moves to. Unchanged names (nothing
    a function reads changed): the previous template as it is."""
    from infra import deploy  # (deploy imports this module's helpers: imported when used)

    body = aws.cloudformation.get_template(StackName=stack_name(stage), TemplateStage="Original")["TemplateBody"]
    current = body if isinstance(body, dict) else json.loads(body)
    pinned = template.pin_versions(current, params)
    if pinned == current:
        return {"UsePreviousTemplate": True}
    bucket = deploy.artifact_bucket(aws.account(), aws.region)
    key = f"{stack_name(stage)}/templates/{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}-switch.json"
    aws.s3.put_object(Bucket=bucket, Key=key, Body=json.dumps(pinned, ensure_ascii=False).encode())
    return {"TemplateURL": deploy.template_url(bucket, aws.region, key)}


def restore_table(stage: str, when_text: str, yes: bool) -> None:
    when = _parse_time(when_text)
    aws = _connect(stage)
    stack = require_stack(aws, stage)
    source = outputs(stack).get("TableName") or template.table_name(stage)
    target = template.restored_table_prefix(stage) + when.strftime("%Y%m%dt%H%M%S")
    say(f"restore {source} as of {when:%Y-%m-%d %H:%M:%S} UTC into {target}, then switch {stage} to it; "
        "writes after that moment are not in the new table (the old table is kept)")
    if not yes:
        if not sys.stdin.isatty():
            raise Refused("pass --yes to restore without a prompt")
        if input("type the stage name to go on: ").strip() != stage:
            raise Refused("not confirmed: nothing changed")
    step(f"restoring {target}")
    aws.dynamodb.restore_table_to_point_in_time(
        SourceTableName=source, TargetTableName=target, RestoreDateTime=when, BillingModeOverride="PAY_PER_REQUEST",
        SSESpecificationOverride={"Enabled": True})
    _wait_active(aws, target)
    say(f"{target} is ACTIVE")
    # a restore copies items and indexes, not these settings
    ttl = template.merge_template(stage)["Resources"][template.TABLE_RESOURCE]["Properties"]["TimeToLiveSpecification"]
    aws.dynamodb.update_time_to_live(TableName=target, TimeToLiveSpecification=ttl)
    aws.dynamodb.update_continuous_backups(TableName=target, PointInTimeRecoverySpecification={
        "PointInTimeRecoveryEnabled": True})
    aws.dynamodb.update_table(TableName=target, DeletionProtectionEnabled=True)
    _wait_active(aws, target)
    stream = table_stream(aws, target)
    say(f"TTL, point-in-time recovery, deletion protection and the room notices' stream set on it ({stream})")
    step(f"switching {stage} to {target}")
    final = switch_table(aws, stage, target)
    say(f"{stage} now uses {outputs(final).get('TableName')}; back to the stack's own table: "
        f"infra/ops.sh use-table {stage}")
    _smoke(stage, outputs(final))


def use_table(stage: str, table: str) -> None:
    aws = _connect(stage)
    if table:
        prefix = template.restored_table_prefix(stage)
        if not table.startswith(prefix) and table != template.table_name(stage):
            raise Refused(f"{table}: the functions may only use {template.table_name(stage)} or {prefix}*")
        aws.dynamodb.describe_table(TableName=table)
    if table == template.table_name(stage):
        table = ""
    final = switch_table(aws, stage, table)
    say(f"{stage} now uses {outputs(final).get('TableName')}")


# ---- command line -----------------------------------------------------------------------------------


def command_line() -> argparse.ArgumentParser:
    """The commands and their flags (the runbook's commands are checked against it)."""
    parser = argparse.ArgumentParser(prog="infra/ops.sh", description=__doc__.splitlines()[0] if __doc__ else "")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("status", help="what is deployed and whether it is well")
    p.add_argument("stage")
    p = sub.add_parser("logs", help="recent log lines")
    p.add_argument("stage")
    p.add_argument("function", nargs="?", help=", ".join(LOG_GROUPS))
    p.add_argument("--since", default="15m")
    p.add_argument("--filter", dest="pattern", help="a CloudWatch Logs filter pattern, e.g. ERROR")
    p.add_argument("--limit", type=int, default=200)
    p = sub.add_parser("rotate-token-key", help="new signing key; the previous one keeps verifying")
    p.add_argument("stage")
    p.add_argument("--force", action="store_true", help="rotate even within 2 h of the last rotation")
    for name in ("add-admin", "remove-admin"):
        p = sub.add_parser(name, help=f"{name.split('-')[0]} a 司礼 (admin) by WeChat openid")
        p.add_argument("stage")
        p.add_argument("openid")
    p = sub.add_parser("set-wechat", help="store the WeChat app id and secret (secret on stdin)")
    p.add_argument("stage")
    p.add_argument("appid")
    p = sub.add_parser("rollback", help="cancel a running update, or redeploy the previous deploy")
    p.add_argument("stage")
    p.add_argument("--to", help="a commit from the deploy history")
    p = sub.add_parser("restore-table", help="point-in-time restore into a new table and switch to it")
    p.add_argument("stage")
    p.add_argument("time", help="2026-11-30T12:00:00Z, 2026-11-30T20:00+08:00, or how long ago: 30m, 2h")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p = sub.add_parser("use-table", help="switch the stage to a table (none: the stack's own)")
    p.add_argument("stage")
    p.add_argument("table", nargs="?", default="")
    return parser


def main(argv: list[str]) -> int:
    args = command_line().parse_args(argv)

    if args.command == "status":
        status(args.stage)
    elif args.command == "logs":
        logs(args.stage, args.function, args.since, args.pattern, args.limit)
    elif args.command == "rotate-token-key":
        rotate_token_key(args.stage, args.force)
    elif args.command in ("add-admin", "remove-admin"):
        add_admin(args.stage, args.openid, remove=args.command == "remove-admin")
    elif args.command == "set-wechat":
        set_wechat(args.stage, args.appid)
    elif args.command == "rollback":
        rollback(args.stage, args.to)
    elif args.command == "restore-table":
        restore_table(args.stage, args.time, args.yes)
    elif args.command == "use-table":
        use_table(args.stage, args.table)
    return 0


if __name__ == "__main__":
    sys.exit(run(main, name="ops"))
