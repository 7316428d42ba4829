"""infra/deploy.sh and infra/ops.sh end to end, as an operator runs them, against a local moto server
(S3, CloudFormation, Secrets Manager, STS, IAM, Lambda, DynamoDB, SQS, CloudWatch Logs) with fake
credentials; the smoke test runs against the local API server.

Where moto's CloudFormation stops (tests/infra/moto_standins.py: MOTO_LACKS, MOTO_PARTIAL; the same
list is in docs/operations.md) a stand-in records the resource; those resources are checked in the
expanded template instead (test_template.py). Everything else is created by moto for real.

The shell wrappers run as the operator runs them (a subprocess each: the first deploy, one refusal,
set-wechat reading stdin); the other commands run in process through the same entry point
(`awsutil.run(main, argv)`), which keeps the folder fast.
"""

from __future__ import annotations

import io
import json
import os
import re
import socket
import subprocess
import sys
import time
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parents[2]
REGION = "ap-northeast-1"
ACCOUNT = "123456789012"  # moto's
APPID = "wx0123456789abcdef"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def moto_url():
    """A moto server in this process, with the stand-ins registered."""
    from moto.iam.models import AWSManagedPolicy, iam_backends
    from moto.server import ThreadedMotoServer

    from tests.infra import moto_standins  # imported here: moto's CloudFormation takes ~2 s to import

    moto_standins.install()
    # the deploy attaches one AWS managed policy; moto knows AWS's policies only when it loads all of them
    # (seconds): give it just that one
    iam = iam_backends[ACCOUNT]["global"]
    policy = AWSManagedPolicy.from_data("AmazonAPIGatewayPushToCloudWatchLogs", ACCOUNT, "us-east-1", {
        "DefaultVersionId": "v1", "Path": "/service-role/", "CreateDate": "2015-11-11T23:41:46+00:00",
        "UpdateDate": "2015-11-11T23:41:46+00:00", "Document": {"Version": "2012-10-17", "Statement": [{
            "Effect": "Allow", "Resource": "*", "Action": ["logs:CreateLogGroup", "logs:CreateLogStream",
                                                           "logs:PutLogEvents", "logs:DescribeLogGroups"]}]}})
    iam.managed_policies[policy.arn] = policy
    port = _free_port()
    moto = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    moto.start()
    yield f"http://127.0.0.1:{port}"
    moto.stop()


@pytest.fixture(scope="module")
def api_url(tmp_path_factory):
    """The local API server, booting in the background (the deploy's smoke test retries until it answers)."""
    port = _free_port()
    log = (tmp_path_factory.mktemp("api") / "server.log").open("w")
    env = {k: v for k, v in os.environ.items() if k not in ("AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL")}
    proc = subprocess.Popen([sys.executable, "-m", "infra.local_server", "--port", str(port), "--workers", "1",
                             "--tick", "3600", "--no-demo"], cwd=ROOT, env={**env, "PYTHONUNBUFFERED": "1"},
                            stdout=log, stderr=subprocess.STDOUT)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    try:
        proc.wait(timeout=15)
    finally:
        log.close()


@pytest.fixture(scope="module")
def env(moto_url, tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "SHENGONG_", "ALARM_", "WEB_"))}
    return {**base, "HOME": str(home), "AWS_ENDPOINT_URL": moto_url, "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": REGION, "AWS_DEFAULT_REGION": REGION,
            "AWS_EC2_METADATA_DISABLED": "true", "SHENGONG_POLL_S": "0.05", "SHENGONG_COMMIT": "c0ffee000001",
            "SHENGONG_WEB_DIR": str(home / "no-web-build"), "SHENGONG_BUILD_DIR": str(home / "build")}


def sh(env, *args, stdin="", **extra):
    return subprocess.run([str(ROOT / "infra" / args[0]), *args[1:]], cwd=ROOT, env={**env, **extra}, input=stdin,
                          capture_output=True, text=True, timeout=300, check=False)


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


@contextmanager
def environ(values):
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(values)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def inproc(env, module, *argv, stdin="", **extra):
    """`infra/<module>.sh argv…` through the same entry point, in this process."""
    from infra import awsutil, deploy, ops

    main = {"deploy": deploy.main, "ops": ops.main}[module]
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with environ({**env, **extra}), redirect_stdout(out), redirect_stderr(err):
            code = awsutil.run(main, list(argv), name=module)
    finally:
        sys.stdin = saved_stdin
    return Done(code, out.getvalue(), err.getvalue())


def ops(env, *argv, **kw):
    return inproc(env, "ops", *argv, **kw)


def one_line_failure(res, *needles):
    assert res.returncode == 1, res.stdout + res.stderr
    assert "Traceback" not in res.stderr and "Traceback" not in res.stdout, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def aws(moto_url):
    import boto3

    def client(name, region=REGION):
        return boto3.client(name, region_name=region, endpoint_url=moto_url, aws_access_key_id="testing",
                            aws_secret_access_key="testing")

    return client


# ---- refusals: one clear line each ------------------------------------------------------------------


def test_deploy_refuses_bad_stages_and_foreign_accounts_in_one_line(env):
    one_line_failure(sh(env, "deploy.sh", "Prod!"), "deploy:", "bad stage name")  # the wrapper itself

    def deploy(*argv, **extra):
        return inproc(env, "deploy", *argv, **extra)

    one_line_failure(deploy("local"), "infra/dev.sh serve")
    one_line_failure(deploy("qa"), "unknown stage 'qa'", "dev, prod, staging")
    one_line_failure(deploy("prod"), "refusing to deploy prod to an unpinned account")
    one_line_failure(deploy("prod", SHENGONG_EXPECTED_ACCOUNT="111122223333"),
                     f"from account {ACCOUNT}", "lives in account 111122223333")
    no_creds = {k: v for k, v in env.items() if k not in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")}
    one_line_failure(inproc(no_creds, "deploy", "dev", AWS_SHARED_CREDENTIALS_FILE="/nonexistent",
                            AWS_CONFIG_FILE="/nonexistent"), "no AWS credentials")
    no_region = {k: v for k, v in env.items() if k not in ("AWS_REGION", "AWS_DEFAULT_REGION")}
    one_line_failure(inproc(no_region, "deploy", "dev", AWS_CONFIG_FILE="/nonexistent"), "no AWS region")


def test_the_wrappers_usage_names_every_flag_the_deploy_takes():
    """`infra/deploy.sh` alone prints its usage: it names every flag (the runbook's --urgent too)."""
    usage = subprocess.run([str(ROOT / "infra" / "deploy.sh")], cwd=ROOT, capture_output=True, text=True,
                           timeout=60, check=False)
    assert usage.returncode == 2 and usage.stderr.startswith("usage: infra/deploy.sh STAGE")
    helped = subprocess.run([sys.executable, "-m", "infra.deploy", "--help"], cwd=ROOT, capture_output=True,
                            text=True, timeout=60, check=True).stdout
    flags = {f for f in re.findall(r"(--[a-z-]+)", helped) if f != "--help"}
    assert flags >= {"--urgent", "--no-lint", "--no-smoke"}
    assert {f for f in flags if f not in usage.stderr} == set()


def test_deploy_without_the_wechat_secret_stops_before_packaging_and_says_what_to_run(env):
    res = inproc(env, "deploy", "staging", AWS_REGION="eu-west-1", AWS_DEFAULT_REGION="eu-west-1")
    one_line_failure(res, "missing secret shengong/staging/wechat", "infra/ops.sh set-wechat staging")
    assert "packaging" not in res.stdout


def test_a_custom_domain_without_its_certificate_is_refused_before_anything_is_touched(env, aws):
    """CloudFront refuses an alias without a certificate minutes into the stack update, and the stage
    rolls back: the deploy says what is missing before the first change (even the artifact bucket)."""
    from infra import deploy
    from infra.awsutil import Refused

    res = inproc(env, "deploy", "dev", WEB_DOMAIN="game.example.cn", AWS_REGION="us-west-2",
                 AWS_DEFAULT_REGION="us-west-2")
    one_line_failure(res, "WEB_DOMAIN game.example.cn needs WEB_CERTIFICATE_ARN", "us-east-1")
    assert "secrets" not in res.stdout and "packaging" not in res.stdout
    assert f"shengong-artifacts-{ACCOUNT}-us-west-2" not in [b["Name"] for b in aws("s3").list_buckets()["Buckets"]]

    def params(**values):
        return [{"ParameterKey": k, "ParameterValue": v} for k, v in values.items()]

    deploy.check_parameters(params(WebDomain="", WebCertificateArn=""))
    deploy.check_parameters(params(WebDomain="game.example.cn",
                                   WebCertificateArn="arn:aws:acm:us-east-1:123456789012:certificate/abc"))
    with pytest.raises(Refused, match="needs WEB_CERTIFICATE_ARN"):  # a certificate unset on a later deploy
        deploy.check_parameters(params(WebDomain="game.example.cn", WebCertificateArn=""))
    # an alarm e-mail goes to the stage's own topic only: with a topic of the operator's it would be dropped
    deploy.check_parameters(params(AlarmEmail="ops@example.com", AlarmTopicArn=""))
    deploy.check_parameters(params(AlarmEmail="", AlarmTopicArn="arn:aws:sns:us-west-2:123456789012:pager"))
    with pytest.raises(Refused, match="ALARM_EMAIL ops@example.com is subscribed to the stage's own alarm topic only"):
        deploy.check_parameters(params(AlarmEmail="ops@example.com", AlarmTopicArn="arn:aws:sns:us-west-2:123456789012:pager"))
    # views on the socket name game families; a typo would stop the stream function, so it stops the deploy
    deploy.check_parameters(params(PushViews="baohuang,zhenhuan"))
    deploy.check_parameters(params(PushViews=""))
    deploy.check_parameters(params(PushViews="none"))  # bare notices only
    with pytest.raises(Refused, match="not none"):  # "none" stands alone
        deploy.check_parameters(params(PushViews="baohuang,none"))
    with pytest.raises(Refused, match="PUSH_VIEWS may name baohuang, zhenhuan, not baohaung"):
        deploy.check_parameters(params(PushViews="baohaung"))
    with pytest.raises(Refused, match="not shengong"):  # 深宫杀's page fetches its view with its 战报 anyway
        deploy.check_parameters(params(PushViews="baohuang,shengong"))


def _params(**values):
    return [{"ParameterKey": k, "ParameterValue": v} for k, v in values.items()]


def test_a_budget_that_is_not_a_positive_amount_or_notifies_another_account_is_refused_first(env, aws):
    """MONTHLY_BUDGET_USD is checked with the other settings, before anything is touched: CloudFormation
    would take "0" (every notice firing), and Budgets notifies only a topic of its own account."""
    from infra import deploy
    from infra.awsutil import Refused

    res = inproc(env, "deploy", "dev", MONTHLY_BUDGET_USD="0", AWS_REGION="us-east-2", AWS_DEFAULT_REGION="us-east-2")
    one_line_failure(res, "MONTHLY_BUDGET_USD '0' is not a budget", "e.g. 50 or 12.50", "Nothing was deployed")
    assert "secrets" not in res.stdout and "packaging" not in res.stdout
    assert f"shengong-artifacts-{ACCOUNT}-us-east-2" not in [b["Name"] for b in aws("s3").list_buckets()["Buckets"]]
    for good in ("50", "12.50", "0.5", "1200", ""):
        deploy.check_parameters(_params(MonthlyBudgetUsd=good), ACCOUNT)
    for bad in ("0", "0.00", "-5", "$50", "1e3", "12.345", " 50", "50 USD", "fifty"):
        with pytest.raises(Refused, match=r"MONTHLY_BUDGET_USD .* is not a budget: a positive number of US dollars"):
            deploy.check_parameters(_params(MonthlyBudgetUsd=bad), ACCOUNT)
    theirs = "arn:aws:sns:us-east-2:111122223333:pager"
    with pytest.raises(Refused, match=f"only a topic of its own account \\({ACCOUNT}\\).*in account 111122223333"):
        deploy.check_parameters(_params(MonthlyBudgetUsd="50", AlarmTopicArn=theirs), ACCOUNT)
    deploy.check_parameters(_params(MonthlyBudgetUsd="50", AlarmTopicArn=f"arn:aws:sns:us-east-2:{ACCOUNT}:pager"),
                            ACCOUNT)
    deploy.check_parameters(_params(MonthlyBudgetUsd="", AlarmTopicArn=theirs), ACCOUNT)  # alarms may go anywhere


def test_a_budget_where_cloudformation_makes_none_is_refused_and_otherwise_left_out(env, aws):
    """CloudFormation has no AWS::Budgets::Budget in some regions (ap-east-1, which the runbook suggests):
    a budget asked for there is refused before anything is touched; with none asked for, the deploy goes
    on and leaves the budget out of the template (template.without_budget)."""
    from infra import deploy
    from infra.awsutil import Aws, Refused

    res = inproc(env, "deploy", "dev", MONTHLY_BUDGET_USD="50", AWS_REGION="ap-east-1", AWS_DEFAULT_REGION="ap-east-1")
    one_line_failure(res, "CloudFormation in ap-east-1 cannot make budgets", "Billing console", "MONTHLY_BUDGET_USD=")
    assert "secrets" not in res.stdout
    assert f"shengong-artifacts-{ACCOUNT}-ap-east-1" not in [b["Name"] for b in aws("s3").list_buckets()["Buckets"]]
    with environ(env):
        assert deploy.budgets_here(Aws("ap-east-1"), _params(MonthlyBudgetUsd="")) is False
        assert deploy.budgets_here(Aws(REGION), _params(MonthlyBudgetUsd="50")) is True
        with pytest.raises(Refused, match="cannot make budgets"):
            deploy.budgets_here(Aws("ap-east-1"), _params(MonthlyBudgetUsd="50"))


def test_a_deployer_who_may_not_ask_about_budgets_deploys_without_one():
    """A deploy role without cloudformation:DescribeType: with no budget asked for the deploy goes on
    and leaves the budget out (nothing to ask about); with one asked for, the refusal stands."""
    from types import SimpleNamespace

    from botocore.exceptions import ClientError

    from infra import deploy

    def denied(**_):
        raise ClientError({"Error": {"Code": "AccessDenied", "Message": "not allowed"}}, "DescribeType")

    aws = SimpleNamespace(region="us-east-2", cloudformation=SimpleNamespace(describe_type=denied))
    assert deploy.budgets_here(aws, _params(MonthlyBudgetUsd="")) is False
    with pytest.raises(ClientError):
        deploy.budgets_here(aws, _params(MonthlyBudgetUsd="50"))


# ---- a stage, deployed and operated -----------------------------------------------------------------


@pytest.mark.full  # a whole deploy on moto; the refusals run by default
def test_a_stage_deployed_from_scratch_and_operated(env, api_url, aws, moto_url, monkeypatch, tmp_path,
                                                   packaged):
    """The runbook's path in order, on one fresh account (one test, so one deploy however tests are
    spread over workers): set the WeChat secret, deploy, then every ops command. Each step's checks are
    a function below. (`packaged` first: the dependency layer is then built once, not by two
    concurrent packagings.)"""
    env = {**env, "SHENGONG_SMOKE_URL": api_url}
    wechat = sh(env, "ops.sh", "set-wechat", "dev", APPID, stdin="0123456789abcdef0123456789abcdef\n")
    assert wechat.returncode == 0 and "created" in wechat.stdout, wechat.stderr
    first = sh(env, "deploy.sh", "dev", "--no-lint")  # test_template.py lints the same expansion
    assert first.returncode == 0, first.stdout + first.stderr
    check_first_deploy_made_the_bucket_secrets_and_stack_and_passed_the_smoke_test(first.stdout, aws)
    check_moto_built_everything_it_implements_and_the_rest_is_named(env, aws)
    check_status_reports_the_stack_aliases_alarms_queue_keys_and_admins(env)
    check_admins_are_added_and_removed_in_the_secret(env, aws)
    check_token_rotation_keeps_old_tokens_valid_and_new_tokens_carry_the_new_key_id(env, moto_url, monkeypatch)
    check_logs_shows_recent_lines_of_a_function(env, aws)
    check_an_update_uploads_the_web_client_and_rollback_goes_back(env, aws, tmp_path)
    budget = check_a_budget_set_later_notifies_the_alarm_topic_and_is_kept(env, aws)
    check_restore_table_makes_a_new_table_and_switches_the_stage_and_back(env, aws)
    assert [b["BudgetName"] for b in aws("budgets").describe_budgets(AccountId=ACCOUNT)["Budgets"]] == [budget]
    check_the_smoke_test_refuses_a_stage_that_is_not_the_one_deployed(api_url)


# ---- the first deploy -------------------------------------------------------------------------------


def check_first_deploy_made_the_bucket_secrets_and_stack_and_passed_the_smoke_test(deployed, aws):
    out = deployed
    assert f"artifact bucket s3://shengong-artifacts-{ACCOUNT}-{REGION} (created, private)" in out
    assert "secret shengong/dev/token-keys (created" in out and "secret shengong/dev/admins (created" in out
    assert "creating stack shengong-dev" in out
    # moto's quota (1000) with nothing reserved yet; the sweeps' two units are asked for
    assert "Lambda concurrency: 1000 unreserved of 1000, the stage reserves 2" in out
    assert "web client not built" in out and "skipping the upload" in out
    assert "GET /v1/health: ok" in out and "GET /openapi.json: OpenAPI 3.1" in out
    lines = out.strip().splitlines()
    assert lines[-2].startswith("API: https://") and ".execute-api.ap-northeast-1.amazonaws.com/v/" in lines[-2]
    assert lines[-1].startswith("Web: https://")

    s3 = aws("s3")
    bucket = f"shengong-artifacts-{ACCOUNT}-{REGION}"
    assert all(s3.get_public_access_block(Bucket=bucket)["PublicAccessBlockConfiguration"].values())
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"]]
    templates = [k for k in keys if k.startswith("shengong-dev/templates/")]
    assert len(templates) == 1
    assert any(k.startswith("shengong-dev/code/deployment-") for k in keys)
    assert any(k.startswith("shengong-dev/code/layer-deployment-") for k in keys)
    size = s3.head_object(Bucket=bucket, Key=templates[0])["ContentLength"]
    assert size > 51_200  # too big to pass inline: it went through S3

    stack = aws("cloudformation").describe_stacks(StackName="shengong-dev")["Stacks"][0]
    assert stack["StackStatus"] == "CREATE_COMPLETE"
    assert {t["Key"]: t["Value"] for t in stack["Tags"]} == {"app": "shengong", "stage": "dev",
                                                             "commit": "c0ffee000001"}
    keys_doc = json.loads(aws("secretsmanager").get_secret_value(SecretId="shengong/dev/token-keys")["SecretString"])
    from chalicelib import secrets

    assert secrets.parse_token_keys(keys_doc).kid == keys_doc["current"]


def template_functions() -> tuple[str, ...]:
    from infra import template

    return tuple(template.FUNCTIONS)


def check_moto_built_everything_it_implements_and_the_rest_is_named(env, aws):
    from tests.infra import moto_standins

    template = json.loads((Path(env["SHENGONG_BUILD_DIR"]) / "dev" / "template.json").read_text())
    types = {r["Type"] for r in template["Resources"].values()}
    lacking = types - moto_standins.native_types()
    assert lacking == set(moto_standins.MOTO_LACKS), "update MOTO_LACKS and docs/operations.md"
    assert set(moto_standins.MOTO_PARTIAL) <= types
    docs = (ROOT / "docs" / "operations.md").read_text()
    for kind in (*moto_standins.MOTO_LACKS, *moto_standins.MOTO_PARTIAL):
        assert kind in docs, kind

    resources = aws("cloudformation").list_stack_resources(StackName="shengong-dev")["StackResourceSummaries"]
    made = {r["LogicalResourceId"]: r["PhysicalResourceId"] for r in resources}
    assert made["GameTable"] == "shengong-dev"
    table = aws("dynamodb").describe_table(TableName="shengong-dev")["Table"]
    assert {g["IndexName"] for g in table["GlobalSecondaryIndexes"]} == {"lobby", "due", "idle", "board"}
    fn = aws("lambda").get_function(FunctionName=made["APIHandler"])["Configuration"]
    assert fn["Environment"]["Variables"]["TOKEN_KEYS_SECRET_ID"] == "shengong/dev/token-keys"
    assert "TOKEN_SECRET" not in fn["Environment"]["Variables"]
    # the dependency layer exists (made from the uploaded zip), though moto does not attach it
    assert [la["LayerName"] for la in aws("lambda").list_layers()["Layers"]] == ["shengong-dev-managed-layer"]
    assert aws("lambda").get_alias(FunctionName=made["APIHandler"], Name="live")["FunctionVersion"] == "1"
    groups = {g["logGroupName"]: g for g in aws("logs").describe_log_groups(logGroupNamePrefix="/shengong/dev/")[
        "logGroups"]}
    assert set(groups) == {f"/shengong/dev/{n}" for n in (*template_functions(), "api-access")}
    assert all(g.get("retentionInDays") == 30 for g in groups.values())
    assert aws("sqs").get_queue_url(QueueName="shengong-dev-sweep-failures")["QueueUrl"]
    role = aws("apigateway").get_account()["cloudwatchRoleArn"]
    assert role.endswith("role/shengong-apigateway-cloudwatch")
    # no budget unless MONTHLY_BUDGET_USD is set; the alarm topic lets the stage's alarms and the account's
    # budgets publish (the stand-in set the policy on the topic, resolved for this account)
    assert "AWS::Budgets::Budget" in types and not aws("budgets").describe_budgets(AccountId=ACCOUNT).get("Budgets")
    stack = aws("cloudformation").describe_stacks(StackName="shengong-dev")["Stacks"][0]
    topic = {o["OutputKey"]: o["OutputValue"] for o in stack["Outputs"]}["AlarmTopic"]
    assert topic == f"arn:aws:sns:{REGION}:{ACCOUNT}:shengong-dev-alarms"
    policy = json.loads(aws("sns").get_topic_attributes(TopicArn=topic)["Attributes"]["Policy"])
    statements = {st["Sid"]: st for st in policy["Statement"]}
    assert set(statements) == {"AlarmsPublish", "BudgetsPublish"}
    assert statements["BudgetsPublish"]["Condition"]["StringEquals"] == {"aws:SourceAccount": ACCOUNT}
    assert statements["BudgetsPublish"]["Resource"] == topic
    assert statements["AlarmsPublish"]["Condition"]["ArnLike"] == {
        "aws:SourceArn": f"arn:aws:cloudwatch:{REGION}:{ACCOUNT}:alarm:shengong-dev-*"}


# ---- the operator's commands ------------------------------------------------------------------------


def check_status_reports_the_stack_aliases_alarms_queue_keys_and_admins(env):
    res = ops(env, "status", "dev")
    assert res.returncode == 0, res.stderr
    for needle in ("stack shengong-dev:", "commit c0ffee000001", "table: shengong-dev", "APIHandler: live -> v1",
                   "alarms firing: none", "budget: none (MONTHLY_BUDGET_USD", "failed sweeps waiting: 0",
                   "token keys: k", f"WeChat: app {APPID}", "司礼: 0"):
        assert needle in res.stdout, (needle, res.stdout)
    one_line_failure(ops(env, "status", "staging"), "stack shengong-staging does not exist")


def check_admins_are_added_and_removed_in_the_secret(env, aws):
    assert "now a 司礼 of dev (1 in all)" in ops(env, "add-admin", "dev", "oTxkR5Kd9Lw0nq2b").stdout
    assert "already a 司礼" in ops(env, "add-admin", "dev", "oTxkR5Kd9Lw0nq2b").stdout
    ops(env, "add-admin", "dev", "oSecondAdmin42")
    doc = json.loads(aws("secretsmanager").get_secret_value(SecretId="shengong/dev/admins")["SecretString"])
    assert doc == {"openids": ["oSecondAdmin42", "oTxkR5Kd9Lw0nq2b"]}
    assert "no longer a 司礼" in ops(env, "remove-admin", "dev", "oSecondAdmin42").stdout
    one_line_failure(ops(env, "add-admin", "dev", "not an openid!"), "does not look like a WeChat openid")


def check_token_rotation_keeps_old_tokens_valid_and_new_tokens_carry_the_new_key_id(env, moto_url, monkeypatch):
    from chalicelib import secrets
    from chalicelib.auth import tokens
    from chalicelib.config import load_settings
    from chalicelib.core.identity import Caller, Role

    monkeypatch.setenv("AWS_ENDPOINT_URL", moto_url)  # the runtime reads the secret through powertools
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    secrets.clear_cache()
    lambda_env = {"AWS_LAMBDA_FUNCTION_NAME": "fn", "STAGE": "dev", "TOKEN_KEYS_SECRET_ID": "shengong/dev/token-keys"}
    caller = Caller(user_id="u1", name="甄嬛", role=Role.PLAYER)
    try:
        before = load_settings(lambda_env).token_secret
        old_token, _ = tokens.issue(before, caller, int(time.time()), 7200)

        res = ops(env, "rotate-token-key", "dev")
        assert res.returncode == 0, res.stderr
        assert "nobody is logged out" in res.stdout

        secrets.clear_cache()  # as an instance whose cache expired (or a new one)
        after = load_settings(lambda_env).token_secret
        assert after.kid != before.kid and set(after.keys) == {before.kid, after.kid}
        assert tokens.verify(after, old_token, int(time.time())).kid == before.kid  # still logged in
        new_token, _ = tokens.issue(after, caller, int(time.time()), 7200)
        assert tokens.verify(after, new_token, int(time.time())).kid == after.kid
        # an instance still holding the old ring accepts the new token too (it re-fetches once)
        assert tokens.verify(before.__class__(before.kid, before.keys, fallback=secrets.token_keys(
            "shengong/dev/token-keys").fallback), new_token, int(time.time())).kid == after.kid
    finally:
        secrets.clear_cache()
    # a second rotation within the token lifetime would drop keys still in use: refused unless forced
    one_line_failure(ops(env, "rotate-token-key", "dev"), "Wait until", "--force")


def check_logs_shows_recent_lines_of_a_function(env, aws):
    logs = aws("logs")
    group = "/shengong/dev/APIHandler"
    logs.create_log_stream(logGroupName=group, logStreamName="s1")
    now = int(time.time() * 1000)
    logs.put_log_events(logGroupName=group, logStreamName="s1", logEvents=[
        {"timestamp": now - 2000, "message": '{"level":"INFO","message":"request","status":200}'},
        {"timestamp": now - 1000, "message": '{"level":"ERROR","message":"unhandled error","status":500}'}])
    res = ops(env, "logs", "dev", "api", "--since", "5m")
    assert res.returncode == 0 and "unhandled error" in res.stdout and "request" in res.stdout, res.stderr
    only = ops(env, "logs", "dev", "api", "--filter", "ERROR")
    assert "unhandled error" in only.stdout and '"request"' not in only.stdout
    one_line_failure(ops(env, "logs", "dev", "nope"), "unknown function 'nope'")
    stream = "/shengong/dev/RoomStream"  # the notice function's lines, by its short name or its own
    logs.create_log_stream(logGroupName=stream, logStreamName="s1")
    logs.put_log_events(logGroupName=stream, logStreamName="s1", logEvents=[
        {"timestamp": now - 500, "message": '{"level":"ERROR","message":"push record unreadable"}'}])
    for name in ("stream", "RoomStream"):
        assert "push record unreadable" in ops(env, "logs", "dev", name, "--since", "5m").stdout


def check_an_update_uploads_the_web_client_and_rollback_goes_back(env, aws, tmp_path):
    from infra import awsutil, deploy

    web = tmp_path / "h5"
    (web / "assets").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html><title>深宫</title>", encoding="utf-8")
    (web / "assets" / "app.3f2a.js").write_text("console.log('深宫')", encoding="utf-8")
    bucket = f"shengong-artifacts-{ACCOUNT}-{REGION}"
    history = json.loads(aws("s3").get_object(Bucket=bucket, Key="shengong-dev/deploys.json")["Body"].read())
    assert [h["commit"] for h in history] == ["c0ffee000001"]
    out, err = io.StringIO(), io.StringIO()
    with environ(env), redirect_stdout(out), redirect_stderr(err):  # deploy.py's last steps, as a new commit
        session = awsutil.Aws(REGION)
        stack = deploy.deploy_stack(session, "dev", history[0]["template_url"], "c0ffee000002")
        kept = deploy.archive_web(session, bucket, "dev", "c0ffee000002", web)
        deploy.record(session, bucket, "dev", {**history[0], "commit": "c0ffee000002", "web": kept})
        deploy.upload_web(session, awsutil.outputs(stack), web)
    assert "updating stack shengong-dev" in out.getvalue() and "UPDATE_COMPLETE" in out.getvalue()
    assert "web client: 2 files to s3://" in out.getvalue()
    # moto cannot make the distribution (a stand-in), so the invalidation fails: a line, not a failure
    assert "CloudFront invalidation failed" in out.getvalue()

    cfn = aws("cloudformation")
    stack = cfn.describe_stacks(StackName="shengong-dev")["Stacks"][0]
    outputs = {o["OutputKey"]: o["OutputValue"] for o in stack["Outputs"]}
    index = aws("s3").get_object(Bucket=outputs["WebBucketName"], Key="index.html")
    assert index["ContentType"] == "text/html; charset=utf-8" and index["CacheControl"] == "no-cache"
    asset = aws("s3").head_object(Bucket=outputs["WebBucketName"], Key="assets/app.3f2a.js")
    assert "immutable" in asset["CacheControl"]
    assert {t["Key"]: t["Value"] for t in stack["Tags"]}["commit"] == "c0ffee000002"

    back = ops(env, "rollback", "dev")
    assert back.returncode == 0, back.stdout + back.stderr
    assert "from c0ffee000002 to c0ffee000001" in back.stdout and "GET /v1/health: ok" in back.stdout
    # the rollback shifted all at once, with no alarm to stop it (template.urgent)
    body = cfn.get_template(StackName="shengong-dev")["TemplateBody"]
    shifted = (body if isinstance(body, dict) else json.loads(body))["Resources"]["APIHandlerDeploymentGroup"]
    assert "AlarmConfiguration" not in shifted["Properties"]
    stack = cfn.describe_stacks(StackName="shengong-dev")["Stacks"][0]
    assert {t["Key"]: t["Value"] for t in stack["Tags"]}["commit"] == "c0ffee000001"
    assert "no web build was kept with that deploy" in back.stdout  # the first deploy had none
    # forward again to the commit whose build was kept: its web client comes back with it
    s3 = aws("s3")
    s3.put_object(Bucket=outputs["WebBucketName"], Key="index.html", Body=b"stale")
    again = ops(env, "rollback", "dev", "--to", "c0ffee000002")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "web client: 2 files to s3://" in again.stdout
    index = s3.get_object(Bucket=outputs["WebBucketName"], Key="index.html")["Body"].read().decode()
    assert index == "<!doctype html><title>深宫</title>"
    one_line_failure(ops(env, "rollback", "dev", "--to", "deadbeef"), "no deploy of commit deadbeef")


def check_a_budget_set_later_notifies_the_alarm_topic_and_is_kept(env, aws) -> str:
    """MONTHLY_BUDGET_USD on a later deploy: the budget is made (through moto's Budgets API) with both
    notices on the stage's alarm topic, `status` shows it, and a deploy without the variable keeps it."""
    from moto.budgets.models import budgets_backends

    from infra import awsutil, deploy

    bucket = f"shengong-artifacts-{ACCOUNT}-{REGION}"
    history = json.loads(aws("s3").get_object(Bucket=bucket, Key="shengong-dev/deploys.json")["Body"].read())
    cfn = aws("cloudformation")
    current = {t["Key"]: t["Value"] for t in cfn.describe_stacks(StackName="shengong-dev")["Stacks"][0]["Tags"]}
    out = io.StringIO()
    with environ({**env, "MONTHLY_BUDGET_USD": "50"}), redirect_stdout(out), redirect_stderr(io.StringIO()):
        stack = deploy.deploy_stack(awsutil.Aws(REGION), "dev", history[-1]["template_url"], current["commit"])
    assert stack["StackStatus"] == "UPDATE_COMPLETE", out.getvalue()
    (budget,) = aws("budgets").describe_budgets(AccountId=ACCOUNT)["Budgets"]
    name = budget["BudgetName"]
    assert re.fullmatch(r"shengong-dev-monthly-[0-9a-f]{6}", name)
    assert budget["BudgetLimit"] == {"Amount": "50", "Unit": "USD"}
    assert (budget["BudgetType"], budget["TimeUnit"]) == ("COST", "MONTHLY")
    notices = aws("budgets").describe_notifications_for_budget(AccountId=ACCOUNT, BudgetName=name)["Notifications"]
    assert {(n["NotificationType"], n["Threshold"]) for n in notices} == {("ACTUAL", 80), ("FORECASTED", 100)}
    topic = awsutil.outputs(stack)["AlarmTopic"]
    held = budgets_backends[ACCOUNT]["aws"].budgets[ACCOUNT][name]  # moto's Budgets API lists no subscribers
    assert [n.subscribers for n in held.notifications] == [[{"SubscriptionType": "SNS", "Address": topic}]] * 2
    assert f"budget {name}: $0.00 of $50.00 this month (the whole account), $0.00 forecast" in ops(
        env, "status", "dev").stdout
    with environ(env):  # the next deploy, MONTHLY_BUDGET_USD unset: kept
        kept = {p["ParameterKey"]: p["ParameterValue"] for p in deploy.stack_parameters(stack)}
    assert kept["MonthlyBudgetUsd"] == "50"
    return str(name)


def _versions(aws) -> dict[str, str]:
    """Each function's published version in the stack, by logical id (what the alias `live` points at)."""
    found = aws("cloudformation").list_stack_resources(StackName="shengong-dev")["StackResourceSummaries"]
    return {r["LogicalResourceId"].split("Version")[0]: r["LogicalResourceId"] for r in found
            if r.get("ResourceType") == "AWS::Lambda::Version"}


def check_restore_table_makes_a_new_table_and_switches_the_stage_and_back(env, aws):
    ddb = aws("dynamodb")
    ddb.put_item(TableName="shengong-dev", Item={"pk": {"S": "USER#u1"}, "sk": {"S": "PROFILE"}})
    one_line_failure(ops(env, "restore-table", "dev", "yesterday", "--yes"), "TIME 'yesterday'")
    one_line_failure(ops(env, "restore-table", "dev", "1m"), "--yes")  # no terminal: must say so
    before = _versions(aws)
    res = ops(env, "restore-table", "dev", "1m", "--yes")
    assert res.returncode == 0, res.stdout + res.stderr
    restored = next(t for t in ddb.list_tables()["TableNames"] if t.startswith("shengong-dev-restored-"))
    assert f"dev now uses {restored}" in res.stdout
    assert ddb.describe_continuous_backups(TableName=restored)["ContinuousBackupsDescription"][
        "PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "ENABLED"
    assert ddb.describe_time_to_live(TableName=restored)["TimeToLiveDescription"]["AttributeName"] == "expires_at"
    assert ddb.describe_table(TableName=restored)["Table"]["DeletionProtectionEnabled"] is True
    status = ops(env, "status", "dev").stdout
    assert f"table: {restored} (restored; the stack's own is shengong-dev)" in status
    # room notices follow: the restored table's stream (turned on by the restore) feeds the stream function
    stream = ddb.describe_table(TableName=restored)["Table"]["LatestStreamArn"]
    assert stream.startswith(f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{restored}/stream/")
    assert {m["EventSourceArn"] for m in aws("lambda").list_event_source_mappings()["EventSourceMappings"]} == {stream}
    # a later deploy keeps the restored table
    params = aws("cloudformation").describe_stacks(StackName="shengong-dev")["Stacks"][0]["Parameters"]
    kept = {p["ParameterKey"]: p["ParameterValue"] for p in params}
    assert (kept["ActiveTableName"], kept["ActiveStreamArn"]) == (restored, stream)
    # the functions that read the table run new versions, which the alias `live` moved to
    switched = _versions(aws)
    assert switched["APIHandler"] != before["APIHandler"] and switched["TokenAuthorizer"] == before["TokenAuthorizer"]
    # a rollback made on the restored table keeps it, its versions named for it (ops.rollback_template) …
    rolled = ops(env, "rollback", "dev", "--to", "c0ffee000001")
    assert rolled.returncode == 0, rolled.stdout + rolled.stderr
    params = aws("cloudformation").describe_stacks(StackName="shengong-dev")["Stacks"][0]["Parameters"]
    assert {p["ParameterKey"]: p["ParameterValue"] for p in params}["ActiveTableName"] == restored
    after_rollback = _versions(aws)
    # … so going back to the stack's own table afterwards moves `live` to new versions again
    back = ops(env, "use-table", "dev")
    assert back.returncode == 0 and "dev now uses shengong-dev" in back.stdout, back.stderr
    assert _versions(aws)["APIHandler"] not in (switched["APIHandler"], after_rollback["APIHandler"])
    own = ddb.describe_table(TableName="shengong-dev")["Table"]["LatestStreamArn"]
    assert {m["EventSourceArn"] for m in aws("lambda").list_event_source_mappings()["EventSourceMappings"]} == {own}
    one_line_failure(ops(env, "use-table", "dev", "someone-elses-table"), "may only use")


def check_the_smoke_test_refuses_a_stage_that_is_not_the_one_deployed(api):
    from infra.awsutil import Refused
    from infra.smoke import smoke

    assert any("no API Gateway error shape" in line for line in smoke(api))
    with pytest.raises(Refused, match="reports stage 'local', expected 'dev'"):
        smoke(api, "dev")
    with pytest.raises(Refused, match="GET /v1/health answered 0"):
        smoke(f"http://127.0.0.1:{_free_port()}", attempts=1)


def test_a_crashing_cfn_lint_stops_the_deploy(monkeypatch, tmp_path):
    """cfn-lint exits 1 when it fails itself: that is no clean template."""
    import subprocess as sp

    from infra import deploy
    from infra.awsutil import Refused

    crash = sp.CompletedProcess([], 1, stdout="", stderr="Traceback …\nKeyError: 'Resources'\n")
    monkeypatch.setattr(deploy.subprocess, "run", lambda *a, **k: crash)
    with pytest.raises(Refused, match="cfn-lint failed.*KeyError"):
        deploy.lint(tmp_path / "template.json")
    warned = sp.CompletedProcess([], 4, stdout="t.json:1:1:W1020:a warning\n", stderr="")
    monkeypatch.setattr(deploy.subprocess, "run", lambda *a, **k: warned)
    deploy.lint(tmp_path / "template.json")  # warnings alone pass


def test_a_web_build_older_than_the_client_sources_is_refused_before_anything_is_deployed(tmp_path):
    """The H5 build is not in git: the deploy compares it with the client's sources, as infra/dev.sh
    does, so it never ships (and keeps for a rollback) a client of another commit."""
    import os

    from infra import deploy

    web, root = tmp_path / "h5", tmp_path / "repo"
    (root / "client" / "src").mkdir(parents=True)
    source = root / "client" / "src" / "app.ts"
    source.write_text("x")
    assert deploy.stale_web_build(web, root) is None  # no build: nothing to ship (the upload says so)
    web.mkdir()
    (web / "index.html").write_text("<!doctype html>")
    os.utime(source, (1_000, 1_000))
    assert deploy.stale_web_build(web, root) is None
    os.utime(source, None)
    os.utime(web / "index.html", (1_000, 1_000))
    assert deploy.stale_web_build(web, root) == source


def test_the_web_pages_are_uploaded_after_their_scripts(tmp_path):
    from types import SimpleNamespace

    from infra import deploy

    for name in ("index.html", "js/app.1a2b.js", "css/app.3c4d.css", "static/logo.png"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    sent: list[str] = []
    s3 = SimpleNamespace(upload_file=lambda path, bucket, key, ExtraArgs: sent.append(key))
    deploy.upload_web(SimpleNamespace(s3=s3), {"WebBucketName": "b"}, tmp_path)
    assert sent[-1] == "index.html" and len(sent) == 4


def test_a_deploys_web_build_is_kept_and_a_rollback_uploads_it_again(tmp_path):
    """The web client goes with its commit: the deploy keeps the build in the artifact bucket, and a
    rollback to that commit uploads exactly those files again (pages last)."""
    from types import SimpleNamespace

    from infra import deploy

    build = tmp_path / "h5"
    files = {"index.html": "<title>v1</title>", "js/app.1a2b.js": "v1()", "static/深宫.png": "png"}
    for name, text in files.items():
        (build / name).parent.mkdir(parents=True, exist_ok=True)
        (build / name).write_text(text, encoding="utf-8")
    stored: dict[str, bytes] = {}
    uploaded: dict[str, str] = {}
    s3 = SimpleNamespace(
        put_object=lambda Bucket, Key, Body, ContentType: stored.__setitem__(Key, Body),
        get_object=lambda Bucket, Key: {"Body": SimpleNamespace(read=lambda: stored[Key])},
        upload_file=lambda path, bucket, key, ExtraArgs: uploaded.__setitem__(key, Path(path).read_text("utf-8")),
    )
    aws = SimpleNamespace(s3=s3)
    assert deploy.archive_web(aws, "artifacts", "dev", "c0ffee000009", tmp_path / "none") is None  # no build
    key = deploy.archive_web(aws, "artifacts", "dev", "c0ffee000009", build)
    assert key == "shengong-dev/web/c0ffee000009.zip" and list(stored) == [key]
    deploy.restore_web(aws, "artifacts", key, {"WebBucketName": "web"})
    assert uploaded == files and list(uploaded)[-1] == "index.html"


def test_status_names_a_missing_unreadable_or_malformed_secret_and_never_prints_a_value():
    """The runbook sends a 503 SERVICE_UNAVAILABLE to `ops.sh status`: it reports each of the three
    secrets as the functions would find it, with what to run, and goes on past a bad one."""
    from types import SimpleNamespace

    from botocore.exceptions import ClientError

    from chalicelib import secrets
    from infra import ops

    keys = secrets.new_token_keys(1_790_000_000)
    stored: dict[str, object] = {
        "shengong/dev/token-keys": json.dumps(keys),
        "shengong/dev/wechat": json.dumps({"appid": APPID, "secret": "0123456789abcdef0123456789abcdef"}),
        "shengong/dev/admins": json.dumps({"openids": ["oTxkR5Kd9Lw0nq2b"]}),
    }

    def get_secret_value(SecretId):
        value = stored[SecretId]
        if isinstance(value, str):
            return {"SecretString": value}
        raise ClientError({"Error": {"Code": value[0], "Message": "…"}}, "GetSecretValue")  # type: ignore[index]

    aws = SimpleNamespace(secretsmanager=SimpleNamespace(get_secret_value=get_secret_value))

    def lines():
        return [ops.secret_line(aws, "dev", name) for name in ("token-keys", "wechat", "admins")]

    good = lines()
    assert good[0].startswith(f"token keys: {keys['current']} signs")
    assert good[1:] == [f"WeChat: app {APPID} (its secret set)", "司礼: 1"]
    stored["shengong/dev/wechat"] = ("ResourceNotFoundException",)
    stored["shengong/dev/token-keys"] = json.dumps({"current": "k1", "keys": {"k1": "short"}})
    stored["shengong/dev/admins"] = ("AccessDeniedException",)
    bad = lines()
    assert "MALFORMED" in bad[0] and "token key k1" in bad[0]
    assert "MISSING" in bad[1] and "infra/ops.sh set-wechat dev <appid>" in bad[1]
    assert "UNREADABLE" in bad[2] and "AccessDeniedException" in bad[2]
    stored["shengong/dev/wechat"] = json.dumps({"appid": APPID})
    assert "MALFORMED (needs appid and secret)" in lines()[1]
    stored["shengong/dev/admins"] = "not json"
    assert "MALFORMED (not a JSON object)" in lines()[2]
    printed = "\n".join(good + bad)
    assert "0123456789abcdef0123456789abcdef" not in printed and "short" not in printed
    assert all(k not in printed for k in keys["keys"].values())


def test_status_says_what_the_budget_spent_or_why_it_cannot():
    """`ops.sh status`'s budget line (the runbook's first look at a budget notice): the month's spend and
    forecast against the amount, none set, set but not in the stack, or unreadable with these credentials."""
    from types import SimpleNamespace

    from botocore.exceptions import ClientError

    from infra import ops

    asked: list[dict[str, str]] = []

    def describe_budget(**kw):
        asked.append(kw)
        if kw["BudgetName"] == "denied":
            raise ClientError({"Error": {"Code": "AccessDeniedException", "Message": "…"}}, "DescribeBudget")
        return {"Budget": {"BudgetName": kw["BudgetName"], "BudgetLimit": {"Amount": "50.0", "Unit": "USD"},
                           "CalculatedSpend": {"ActualSpend": {"Amount": "41.234", "Unit": "USD"},
                                               "ForecastedSpend": {"Amount": "1260.5", "Unit": "USD"}}}}

    aws = SimpleNamespace(budgets=SimpleNamespace(describe_budget=describe_budget))

    def stack(amount):
        return {"StackId": f"arn:aws:cloudformation:{REGION}:{ACCOUNT}:stack/shengong-dev/1",
                "Parameters": [{"ParameterKey": "MonthlyBudgetUsd", "ParameterValue": amount}]}

    line = ops.budget_line(aws, stack("50"), "shengong-dev-monthly-abc123")
    assert line == ("budget shengong-dev-monthly-abc123: $41.23 of $50.00 this month (the whole account), "
                    "$1,260.50 forecast")
    assert asked == [{"AccountId": ACCOUNT, "BudgetName": "shengong-dev-monthly-abc123"}]
    assert ops.budget_line(aws, stack(""), None).startswith("budget: none (MONTHLY_BUDGET_USD")
    assert "holds no budget" in ops.budget_line(aws, stack("50"), None)
    assert "UNREADABLE with these credentials (AccessDeniedException)" in ops.budget_line(aws, stack("50"), "denied")


def test_a_second_rollback_goes_further_back_not_to_the_commit_just_left():
    from infra import ops
    from infra.awsutil import Refused

    a, b, c = ({"commit": x, "time": t} for x, t in (("aaa", "1"), ("bbb", "2"), ("ccc", "3")))
    history = [a, b, c]
    assert ops.rollback_target(history, "ccc", None, "dev")["commit"] == "bbb"
    history.append({"commit": "bbb", "time": "4", "rollback_from": "ccc"})  # rolled back: bbb is live
    assert ops.rollback_target(history, "bbb", None, "dev")["commit"] == "aaa"  # not ccc again
    history.append({"commit": "aaa", "time": "5", "rollback_from": "bbb"})
    with pytest.raises(Refused, match="no recorded deploy"):
        ops.rollback_target(history, "aaa", None, "dev")
    history.append({"commit": "ccc", "time": "6"})  # ccc deployed afresh (fixed elsewhere): it counts again
    assert ops.rollback_target(history, "aaa", None, "dev")["commit"] == "ccc"
    assert ops.rollback_target(history, "aaa", "bb", "dev")["commit"] == "bbb"  # --to names one


def _stubbed_aws(monkeypatch, limit: int, unreserved: int, stack_reserves: dict[str, int | None] | None,
                 status: str = "UPDATE_COMPLETE"):
    """An Aws whose Lambda and CloudFormation clients answer from botocore stubs (the real service
    models check every request and answer), with `stack_reserves` the deployed stack's reservations."""
    import boto3
    from botocore.stub import Stubber

    from infra.awsutil import Aws

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "x")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "x")
    aws = Aws("ap-northeast-1")
    lam, cfn = boto3.client("lambda", region_name=aws.region), boto3.client("cloudformation", region_name=aws.region)
    aws._clients.update({"lambda": lam, "cloudformation": cfn})
    lam_stub, cfn_stub = Stubber(lam), Stubber(cfn)
    lam_stub.add_response("get_account_settings", {"AccountLimit": {
        "ConcurrentExecutions": limit, "UnreservedConcurrentExecutions": unreserved}})
    if stack_reserves is None:
        cfn_stub.add_client_error("describe_stacks", "ValidationError", "Stack with id shengong-dev does not exist")
    else:
        cfn_stub.add_response("describe_stacks", {"Stacks": [{
            "StackName": "shengong-dev", "CreationTime": "2026-11-01T00:00:00Z", "StackStatus": status}]})
        if status != "ROLLBACK_COMPLETE":  # a first create that failed: no functions to ask about
            cfn_stub.add_response("list_stack_resources", {"StackResourceSummaries": [{
                "LogicalResourceId": name, "PhysicalResourceId": f"shengong-dev-{name}", "ResourceType":
                "AWS::Lambda::Function", "LastUpdatedTimestamp": "2026-11-01T00:00:00Z", "ResourceStatus":
                "UPDATE_COMPLETE"} for name in stack_reserves]})
        for name, n in stack_reserves.items():
            if n is None:  # listed by the stack, gone from Lambda
                lam_stub.add_client_error("get_function_concurrency", "ResourceNotFoundException",
                                          "Function not found", 404,
                                          expected_params={"FunctionName": f"shengong-dev-{name}"})
                continue
            lam_stub.add_response("get_function_concurrency", {"ReservedConcurrentExecutions": n} if n else {},
                                  {"FunctionName": f"shengong-dev-{name}"})
    lam_stub.activate()
    cfn_stub.activate()
    return aws, (lam_stub, cfn_stub)


def test_the_deploy_refuses_before_the_stack_when_lambda_concurrency_cannot_cover_the_reservations(monkeypatch):
    """A new account (limit 10) cannot reserve the sweeps' one unit each: refused with what to ask for,
    before CloudFormation would fail half-way and roll the stage back."""
    from infra import deploy
    from infra.awsutil import Refused

    cfn = {"Resources": {
        "SettleOverdue": {"Type": "AWS::Lambda::Function", "Properties": {"ReservedConcurrentExecutions": 1}},
        "ExpireStalled": {"Type": "AWS::Lambda::Function", "Properties": {"ReservedConcurrentExecutions": 1}},
        "APIHandler": {"Type": "AWS::Lambda::Function", "Properties": {}},
        "GameTable": {"Type": "AWS::DynamoDB::Table", "Properties": {}}}}
    assert deploy.reservations(cfn) == {"SettleOverdue": 1, "ExpireStalled": 1}

    aws, stubs = _stubbed_aws(monkeypatch, limit=10, unreserved=10, stack_reserves=None)
    with pytest.raises(Refused, match=r"reserves 2 .*has 10 unreserved of 10 and Lambda keeps 10 unreserved.*"
                                      r"Service Quotas"):
        deploy.check_concurrency(aws, "dev", cfn)
    for s in stubs:
        s.assert_no_pending_responses()

    # an account at the edge: 101 unreserved of 1000, a new stack needs 2 → 99 left, below Lambda's 100
    aws, _ = _stubbed_aws(monkeypatch, limit=1000, unreserved=101, stack_reserves=None)
    with pytest.raises(Refused, match="2 more than now"):
        deploy.check_concurrency(aws, "dev", cfn)
    aws, _ = _stubbed_aws(monkeypatch, limit=1000, unreserved=102, stack_reserves=None)
    deploy.check_concurrency(aws, "dev", cfn)

    # an update: what the stack's functions already reserve is theirs to keep (101 left is enough when
    # only one more unit is asked for)
    aws, stubs = _stubbed_aws(monkeypatch, limit=1000, unreserved=101, stack_reserves={"SettleOverdue": 1,
                                                                                       "ExpireStalled": 0})
    deploy.check_concurrency(aws, "dev", cfn)
    for s in stubs:
        s.assert_no_pending_responses()
    aws, _ = _stubbed_aws(monkeypatch, limit=1000, unreserved=100, stack_reserves={"SettleOverdue": 1,
                                                                                   "ExpireStalled": 0})
    with pytest.raises(Refused, match="1 more than now"):
        deploy.check_concurrency(aws, "dev", cfn)


def test_the_smoke_test_refuses_a_stage_whose_table_or_secrets_cannot_be_read():
    """A stage whose code answers but whose table (or a secret) is unreadable — a wrong table switch,
    a missing IAM grant — fails the smoke test naming what, where /v1/health alone said ok."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from infra.awsutil import Refused
    from infra.smoke import smoke

    class Stage(BaseHTTPRequestHandler):
        def do_GET(self):
            deep = self.path.endswith("deep=true")
            body = ({"ok": False, "stage": "dev", "checks": {"table": "unavailable", "token_keys": "ok",
                                                                "admins": "ok", "wechat": "ok"}}
                    if deep else {"ok": True, "stage": "dev"})
            raw = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Stage)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(Refused, match=r"deep=true: table unavailable"):
            smoke(f"http://127.0.0.1:{server.server_address[1]}", "dev", attempts=1)
    finally:
        server.shutdown()


def test_the_concurrency_check_counts_nothing_held_by_a_stack_that_failed_or_lost_a_function(monkeypatch):
    """A failed first create (ROLLBACK_COMPLETE) holds no functions, and a function the stack still lists
    but Lambda no longer has holds nothing: counted as 0, never a crash (the deploy then says what to do)."""
    from infra import deploy

    cfn = {"Resources": {"SettleOverdue": {"Type": "AWS::Lambda::Function",
                                           "Properties": {"ReservedConcurrentExecutions": 1}}}}
    aws, stubs = _stubbed_aws(monkeypatch, limit=1000, unreserved=1000, stack_reserves={},
                              status="ROLLBACK_COMPLETE")
    deploy.check_concurrency(aws, "dev", cfn)
    aws, stubs = _stubbed_aws(monkeypatch, limit=1000, unreserved=1000, stack_reserves={"SettleOverdue": None})
    deploy.check_concurrency(aws, "dev", cfn)
    for s in stubs:
        s.assert_no_pending_responses()
