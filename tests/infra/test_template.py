"""The deployable template: packaged with Chalice, expanded with the SAM transform (as the deploy does),
linted with cfn-lint *after* the transform, and inspected: one stage, gateway error shapes on the API
itself, throttling, logs with retention, tracing, alarms, alias + gradual deployment, the sweeps'
failure queue, a protected table, private web hosting, least-privilege IAM and no secret anywhere."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

from infra import template

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _of(cfn, kind):
    return {k: v for k, v in cfn["Resources"].items() if v["Type"] == kind}


# ---- sources of truth -----------------------------------------------------------------------------


def test_requirements_txt_equals_pyproject_runtime_dependencies():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    lines = [ln.strip() for ln in (ROOT / "requirements.txt").read_text().splitlines()]
    assert sorted(ln for ln in lines if ln and not ln.startswith("#")) == sorted(pyproject["project"]["dependencies"])


def test_checked_in_policies_are_generated_and_chalice_uses_them():
    on_disk = {p.name for p in (ROOT / ".chalice").glob("policy-*.json")}
    assert on_disk == set(template.policy_files()), "run: python -m infra.template --policies"
    for name, expected in template.policy_files().items():
        assert json.loads((ROOT / ".chalice" / name).read_text()) == expected, f"regenerate .chalice/{name}"
    config = json.loads((ROOT / ".chalice" / "config.json").read_text())
    for stage in template.STAGES:
        functions = config["stages"][stage]["lambda_functions"]
        for fn, name in template.FUNCTIONS.items():
            assert functions[name]["iam_policy_file"] == template.policy_file(stage, template.FUNCTION_ROLE[fn])


def test_no_scan_anywhere_in_the_service():
    offenders = [p for p in (ROOT / "chalicelib").rglob("*.py") if ".scan(" in p.read_text()]
    assert offenders == []


def test_gateway_error_codes_come_from_the_catalogue_where_it_has_them():
    catalogue = template.error_catalogue()
    for kind, (status, code) in template.GATEWAY_ERRORS.items():
        spec = catalogue.get(code)
        if spec is None:
            # not (yet) in chalicelib/core/error_codes.py: only the configuration failure's code
            assert code == "SERVICE_UNAVAILABLE", (kind, code)
            continue
        assert template.gateway_error(code) == spec.message
        if status is not None:
            assert int(status) == spec.status, (kind, code)


# ---- the expanded template ------------------------------------------------------------------------


def test_expanded_template_passes_cfn_lint_after_the_transform(packaged):
    _, cfn, path = packaged
    assert "Transform" not in cfn and not any(r["Type"].startswith("AWS::Serverless") for r in cfn["Resources"].values())
    lint = subprocess.run([str(BIN / "cfn-lint"), "--format", "parseable", str(path)], capture_output=True, text=True,
                          check=False)
    errors = [ln for ln in lint.stdout.splitlines() if ":E" in ln]
    assert errors == [], lint.stdout + lint.stderr


def test_one_stage_carries_the_gateway_responses_throttling_access_logs_and_tracing(packaged):
    _, cfn, _ = packaged
    stages = _of(cfn, "AWS::ApiGateway::Stage")
    assert len(stages) == 1, stages  # no extra "Stage" stage from SAM
    (stage,) = stages.values()
    props = stage["Properties"]
    assert props["StageName"] == template.API_STAGE
    deployments = _of(cfn, "AWS::ApiGateway::Deployment")
    assert len(deployments) == 1 and "StageName" not in next(iter(deployments.values()))["Properties"]
    (throttle,) = props["MethodSettings"]
    assert throttle["ResourcePath"] == "/*" and throttle["HttpMethod"] == "*"
    assert throttle["ThrottlingRateLimit"] == template.THROTTLE_RATE
    assert throttle["ThrottlingBurstLimit"] >= throttle["ThrottlingRateLimit"]
    assert props["TracingEnabled"] is True
    assert props["AccessLogSetting"]["DestinationArn"] == {"Fn::GetAtt": ["ApiAccessLogs", "Arn"]}
    assert "$context.requestId" in props["AccessLogSetting"]["Format"]
    # the error shapes are part of the API definition the deployment is made from (so they reach stage v)
    assert _of(cfn, "AWS::ApiGateway::GatewayResponse") == {}
    (api,) = _of(cfn, "AWS::ApiGateway::RestApi").values()
    responses = api["Properties"]["Body"]["x-amazon-apigateway-gateway-responses"]
    assert set(responses) == set(template.GATEWAY_ERRORS)
    for kind, (status, code) in template.GATEWAY_ERRORS.items():
        body = json.loads(responses[kind]["responseTemplates"]["application/json"])
        assert body["code"] == code and body["message"] and all(ord(c) < 128 for c in code)
        assert responses[kind].get("statusCode") == status
    assert api["Properties"]["Name"] == "shengong-prod"
    assert api["Properties"]["EndpointConfiguration"]["Types"] == ["REGIONAL"]


def test_every_function_logs_to_its_own_group_and_every_group_has_retention(packaged):
    _, cfn, _ = packaged
    groups = _of(cfn, "AWS::Logs::LogGroup")
    assert groups and all("RetentionInDays" in g["Properties"] for g in groups.values())
    (layer,) = _of(cfn, "AWS::Lambda::LayerVersion")  # the dependencies, shared by every function
    for name, fn in _of(cfn, "AWS::Lambda::Function").items():
        assert fn["Properties"]["Layers"] == [{"Ref": layer}], name
        ref = fn["Properties"]["LoggingConfig"]["LogGroup"]["Ref"]
        assert ref in groups, name
        assert fn["Properties"]["TracingConfig"] == {"Mode": "Active"}, name
    assert template.merge_template("prod")["Parameters"]["LogRetentionDays"]["Default"] == 90


def test_api_gateway_calls_the_alias_and_functions_shift_gradually_with_rollback_alarms(packaged):
    _, cfn, _ = packaged
    aliases = _of(cfn, "AWS::Lambda::Alias")
    assert {a["Properties"]["FunctionName"]["Ref"] for a in aliases.values()} == set(template.FUNCTIONS)
    body = json.dumps(_of(cfn, "AWS::ApiGateway::RestApi")["RestAPI"]["Properties"]["Body"])
    assert "APIHandler.Arn" not in body and "TokenAuthorizer.Arn" not in body
    assert "${APIHandlerAliaslive}" in body and "${TokenAuthorizerAliaslive}" in body
    for perm in _of(cfn, "AWS::Lambda::Permission").values():
        assert perm["Properties"]["FunctionName"]["Ref"].endswith("Aliaslive")
    groups = _of(cfn, "AWS::CodeDeploy::DeploymentGroup")
    assert len(groups) == len(template.FUNCTIONS)
    api_group = groups["APIHandlerDeploymentGroup"]["Properties"]
    assert api_group["DeploymentConfigName"]["Fn::Sub"][1] == {"ConfigName": "Canary10Percent10Minutes"}
    assert api_group["AutoRollbackConfiguration"]["Enabled"] is True
    assert "DEPLOYMENT_STOP_ON_ALARM" in api_group["AutoRollbackConfiguration"]["Events"]
    assert {a["Name"]["Ref"] for a in api_group["AlarmConfiguration"]["Alarms"]} == {
        "ApiServerErrorRateAlarm", "ApiLatencyP99Alarm", "APIHandlerErrorsAlarm"}
    sweep_group = groups["SettleOverdueDeploymentGroup"]["Properties"]
    assert sweep_group["DeploymentConfigName"]["Fn::Sub"][1] == {"ConfigName": "AllAtOnce"}


def test_a_new_table_or_domain_publishes_versions_the_alias_moves_to(packaged):
    """API Gateway, the schedules and the stream call the alias `live`, which moves only when the template
    names a new version: restore-table / use-table (ActiveTableName) and a WebDomain change only
    parameters, so the versions are named for what each function reads (template.pin_versions)."""
    _, cfn, _ = packaged

    def versions(doc):
        return {k: v for k, v in doc["Resources"].items() if v["Type"] == "AWS::Lambda::Version"}

    base = template.pin_versions(cfn, {})
    assert template.pin_versions(base, {}) == base and len(versions(base)) == len(template.FUNCTIONS)
    restored = template.pin_versions(base, {"ActiveTableName": "shengong-prod-restored-20261201t000000"})
    moved = versions(base).keys() - versions(restored).keys()
    reads_table = {fn for fn in template.FUNCTIONS
                   if "ActiveTableName" in json.dumps(cfn["Resources"][fn]["Properties"])}
    assert {v.split("Version")[0] for v in moved} == reads_table and "APIHandler" in reads_table
    for alias in (r for r in restored["Resources"].values() if r["Type"] == "AWS::Lambda::Alias"):
        assert alias["Properties"]["FunctionVersion"]["Fn::GetAtt"][0] in versions(restored)  # follows the rename
    assert versions(template.pin_versions(base, {"WebDomain": "gong.example.cn"})).keys() != versions(base).keys()
    assert template.pin_versions(base, {"AlarmEmail": "ops@example.cn"}) == base  # nothing a function reads


def test_a_rollback_or_urgent_fix_is_not_stopped_by_the_alarms_it_answers(packaged):
    """Every function's shift is stopped by its alarms (DEPLOYMENT_STOP_ON_ALARM): a rollback made because
    an alarm fires would be rolled back by that alarm. `urgent` (ops.sh rollback, deploy.sh --urgent)
    shifts all at once with no alarm watching; the plain template is untouched."""
    _, cfn, _ = packaged
    fast = template.urgent(cfn)
    groups = {k: v["Properties"] for k, v in fast["Resources"].items() if v["Type"] == "AWS::CodeDeploy::DeploymentGroup"}
    assert len(groups) == len(template.FUNCTIONS)
    for props in groups.values():
        assert props["DeploymentConfigName"]["Fn::Sub"][1] == {"ConfigName": "AllAtOnce"}
        assert "AlarmConfiguration" not in props
        assert "DEPLOYMENT_STOP_ON_ALARM" not in props["AutoRollbackConfiguration"]["Events"]
    assert cfn["Resources"]["APIHandlerDeploymentGroup"]["Properties"]["AlarmConfiguration"]["Enabled"] is True


def test_a_rollback_names_its_versions_for_the_table_the_stage_runs_on_now(packaged):
    """A rollback redeploys an old template with the stage's current parameters (a restored table is
    kept). Its versions must be named for those parameters: named as when that deploy ran (the stack's
    own table), a later `use-table` back to the own table finds the names unchanged, deploys nothing
    new, and leaves the alias `live` on versions that still read the restored table."""
    from infra import ops

    _, cfn, _ = packaged
    recorded = template.pin_versions(cfn, {})  # what the deploy uploaded, on the stack's own table
    now = {"ActiveTableName": "shengong-prod-restored-20261201t000000"}

    def versions(doc):
        return {k for k, v in doc["Resources"].items() if v["Type"] == "AWS::Lambda::Version"}

    back = ops.rollback_template(recorded, now)
    assert versions(back) == versions(template.pin_versions(recorded, now)) != versions(recorded)
    assert versions(template.pin_versions(back, {})) != versions(back)  # use-table then moves `live` again
    assert back == template.urgent(template.pin_versions(recorded, now))  # and it shifts all at once


def test_alarms_cover_the_api_lambdas_dynamodb_and_sweeps_and_notify_a_topic(packaged):
    _, cfn, _ = packaged
    alarms = _of(cfn, "AWS::CloudWatch::Alarm")
    expected = {"ApiServerErrorRateAlarm", "ApiLatencyP99Alarm", "TableThrottlesAlarm", "TableSystemErrorsAlarm",
                "SweepFailuresAlarm", "PushLagAlarm", "PushErrorsAlarm", "WebsocketApiErrorsAlarm",
                "ApiNearThrottleAlarm", "LoginFailuresAlarm", "ConflictStormAlarm"} | {
        f"{fn}{kind}Alarm" for fn in template.FUNCTIONS for kind in ("Errors", "Throttles")}
    assert set(alarms) == expected
    # every DynamoDB operation the service calls (the sockets' store deletes) can raise a system error
    watched = {m["MetricStat"]["Metric"]["Dimensions"][1]["Value"]
               for m in alarms["TableSystemErrorsAlarm"]["Properties"]["Metrics"] if "MetricStat" in m}
    assert {"DeleteItem", "TransactWriteItems", "Query"} <= watched
    ws = [m["MetricStat"]["Metric"] for m in alarms["WebsocketApiErrorsAlarm"]["Properties"]["Metrics"]
          if "MetricStat" in m]
    assert {m["MetricName"] for m in ws} == {"IntegrationError", "ExecutionError"}
    assert all(m["Namespace"] == "AWS/ApiGateway" for m in ws)
    # capacity: pages before the stage throttle answers players 429
    near = alarms["ApiNearThrottleAlarm"]["Properties"]
    assert near["Threshold"] == template.THROTTLE_RATE * 60 * template.NEAR_THROTTLE < template.THROTTLE_RATE * 60
    # logins: the per-route 5xx of routes the API has (a wrong path would watch a metric nobody sends)
    spec = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    login = [m["MetricStat"]["Metric"] for m in alarms["LoginFailuresAlarm"]["Properties"]["Metrics"]
             if "MetricStat" in m]
    assert {m["MetricName"] for m in login} == {"5XXError"} and len(login) == len(template.LOGIN_ROUTES)
    for metric in login:
        dims = {d["Name"]: d["Value"] for d in metric["Dimensions"]}
        assert dims["Method"] == "POST" and "post" in spec["paths"][dims["Resource"]], dims
    storm = [m["MetricStat"]["Metric"]["MetricName"] for m in alarms["ConflictStormAlarm"]["Properties"]["Metrics"]
             if "MetricStat" in m]
    assert storm == ["Conflicts", "Transitions"]
    for name, alarm in alarms.items():
        assert alarm["Properties"]["AlarmActions"], name
        assert len(alarm["Properties"].get("Metrics", [])) <= 11, name  # 10 metrics + the expression
    assert _of(cfn, "AWS::CloudWatch::Dashboard")
    assert cfn["Parameters"]["AlarmTopicArn"]["Default"] == ""
    assert _of(cfn, "AWS::SNS::Topic")["AlarmTopic"]["Condition"] == "CreateAlarmTopic"


def _holds(cfn, condition, values):
    """A template condition's value for these parameter values (the rest at their defaults)."""
    def value(node):
        if isinstance(node, dict) and "Ref" in node:
            return values.get(node["Ref"], cfn["Parameters"][node["Ref"]].get("Default", ""))
        return node

    def holds(node):
        ((op, args),) = node.items()
        if op == "Condition":
            return holds(cfn["Conditions"][args])
        if op == "Fn::Not":
            return not holds(args[0])
        if op == "Fn::And":
            return all(holds(a) for a in args)
        if op == "Fn::Equals":
            return value(args[0]) == value(args[1])
        raise AssertionError(f"unexpected {op} in {condition}")

    return holds(cfn["Conditions"][condition])


def test_a_monthly_budget_only_when_set_and_its_notices_go_to_the_alarm_topic(packaged):
    """MonthlyBudgetUsd (MONTHLY_BUDGET_USD) empty, the default: no budget. Set: a monthly cost budget of the
    account in US dollars, whose notices (actual past 80 %, forecast past 100 %) go to the topic the alarms
    notify (the stack's own, or ALARM_TOPIC_ARN)."""
    import re

    _, cfn, _ = packaged
    param = cfn["Parameters"]["MonthlyBudgetUsd"]
    assert param["Type"] == "String" and param["Default"] == ""
    pattern = re.compile(param["AllowedPattern"])
    assert all(pattern.match(v) for v in ("", "50", "12.50", "1200"))
    assert not any(pattern.match(v) for v in ("-5", "$50", "1e3", "12.345", "50 USD"))
    ((name, budget),) = _of(cfn, template.BUDGET_TYPE).items()
    assert name == template.BUDGET_RESOURCE and budget["Condition"] == "HasMonthlyBudget"
    assert not _holds(cfn, "HasMonthlyBudget", {})  # none by default
    assert _holds(cfn, "HasMonthlyBudget", {"MonthlyBudgetUsd": "50"})
    props = budget["Properties"]
    data = props["Budget"]
    assert (data["BudgetType"], data["TimeUnit"]) == ("COST", "MONTHLY")
    assert data["BudgetLimit"] == {"Amount": {"Ref": "MonthlyBudgetUsd"}, "Unit": "USD"}
    assert data["BudgetName"] == "shengong-prod-monthly"  # named after the stage (pin_budget adds a digest)
    assert "CostFilters" not in data and "FilterExpression" not in data  # the whole account (docs: Cost)
    assert data["CostTypes"] == {"IncludeCredit": False}  # credits do not hide a runaway
    notices = {(n["Notification"]["NotificationType"], n["Notification"]["ComparisonOperator"],
                n["Notification"]["Threshold"], n["Notification"]["ThresholdType"])
               for n in props["NotificationsWithSubscribers"]}
    assert notices == {("ACTUAL", "GREATER_THAN", 80, "PERCENTAGE"), ("FORECASTED", "GREATER_THAN", 100, "PERCENTAGE")}
    alarm_topic = cfn["Resources"]["ApiServerErrorRateAlarm"]["Properties"]["AlarmActions"]
    assert alarm_topic == [{"Fn::If": ["HasAlarmTopic", {"Ref": "AlarmTopicArn"}, {"Ref": "AlarmTopic"}]}]
    for notice in props["NotificationsWithSubscribers"]:
        assert notice["Subscribers"] == [{"SubscriptionType": "SNS", "Address": alarm_topic[0]}]
    assert cfn["Outputs"]["AlarmTopic"]["Value"] == alarm_topic[0]


def test_the_budget_is_renamed_when_its_notices_change_and_left_out_where_cloudformation_has_none(packaged):
    """CloudFormation replaces a budget whose notices change (another topic), and Budgets refuses the new
    one while the old one holds the name: `pin_budget` (through pin_versions, so the deploy, a rollback
    and use-table agree) names it for its notices and their topic. A new amount keeps the name (updated in
    place). Where the region has no AWS::Budgets::Budget, the deploy leaves it out (`without_budget`)."""
    import re

    _, cfn, _ = packaged

    def name(doc):
        (budget,) = _of(doc, template.BUDGET_TYPE).values()
        return budget["Properties"]["Budget"]["BudgetName"]

    own = template.pin_versions(cfn, {})
    assert re.fullmatch(r"shengong-prod-monthly-[0-9a-f]{6}", name(own))
    assert template.pin_versions(own, {}) == own  # as use-table compares it: nothing changed
    assert name(template.pin_versions(own, {"MonthlyBudgetUsd": "80"})) == name(own)
    yours = template.pin_versions(own, {"AlarmTopicArn": "arn:aws:sns:ap-northeast-1:123456789012:pager"})
    other = template.pin_versions(own, {"AlarmTopicArn": "arn:aws:sns:ap-northeast-1:123456789012:pager2"})
    assert len({name(own), name(yours), name(other)}) == 3
    assert name(template.pin_versions(yours, {})) == name(own)
    left_out = template.without_budget(own)
    assert _of(left_out, template.BUDGET_TYPE) == {}
    assert set(own["Resources"]) - set(left_out["Resources"]) == {template.BUDGET_RESOURCE}
    assert f'"{template.BUDGET_RESOURCE}"' not in json.dumps(left_out)  # nothing refers to it (Ref, GetAtt, DependsOn)


def test_the_alarm_topic_lets_this_stages_alarms_and_this_accounts_budgets_publish(packaged):
    """A topic policy replaces SNS's default one: CloudWatch needs its own statement (or the alarms'
    notices are refused), Budgets one scoped to this account (aws:SourceAccount), and nobody else any."""
    _, cfn, _ = packaged
    (policy,) = _of(cfn, "AWS::SNS::TopicPolicy").values()
    assert policy["Condition"] == "CreateAlarmTopic"  # the stack's own topic; ALARM_TOPIC_ARN's is the operator's
    assert policy["Properties"]["Topics"] == [{"Ref": "AlarmTopic"}]
    statements = {st["Sid"]: st for st in policy["Properties"]["PolicyDocument"]["Statement"]}
    assert set(statements) == {"AlarmsPublish", "BudgetsPublish"}
    for st in statements.values():
        assert st["Effect"] == "Allow" and st["Action"] == "sns:Publish" and st["Resource"] == {"Ref": "AlarmTopic"}
        assert st["Condition"] and "*" not in json.dumps(st["Principal"])
    budgets = statements["BudgetsPublish"]
    assert budgets["Principal"] == {"Service": "budgets.amazonaws.com"}
    assert budgets["Condition"]["StringEquals"] == {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}
    assert budgets["Condition"]["ArnLike"]["aws:SourceArn"]["Fn::Sub"].endswith(":budgets::${AWS::AccountId}:*")
    alarms = statements["AlarmsPublish"]
    assert alarms["Principal"] == {"Service": "cloudwatch.amazonaws.com"}
    assert alarms["Condition"]["ArnLike"]["aws:SourceArn"]["Fn::Sub"].endswith(
        ":cloudwatch:${AWS::Region}:${AWS::AccountId}:alarm:${AWS::StackName}-*")


def test_every_alarm_has_a_runbook_row_whose_commands_exist():
    """docs/operations.md, "Reading alarms": one row per alarm (`<Function>…` for each function's own)
    and per budget notice (the budget's rows name each notice's threshold), and every `ops.sh …` the
    rows tell the on-call to run parses with ops.sh's own command line."""
    import re
    import shlex

    import pytest

    from infra import ops

    docs = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    rows = [ln for ln in docs.split("## Reading alarms", 1)[1].split("\n## ", 1)[0].splitlines()
            if ln.startswith("| `")]
    named = {re.match(r"\| `([^`]+)`", row).group(1) for row in rows}  # type: ignore[union-attr]
    alarms = set(template.alarms("prod"))
    per_function = re.compile("^(" + "|".join(template.FUNCTIONS) + ")(?=(Errors|Throttles)Alarm$)")
    for alarm in alarms:
        assert alarm in named or per_function.sub("<Function>", alarm) in named, f"no runbook row for {alarm}"
    assert named <= alarms | {"<Function>ErrorsAlarm", "<Function>ThrottlesAlarm", template.BUDGET_RESOURCE}, (
        named - alarms)
    budget_rows = [row for row in rows if row.startswith(f"| `{template.BUDGET_RESOURCE}`")]
    for kind, percent in template.BUDGET_NOTICES:
        word = "forecast" if kind == "FORECASTED" else "actual"
        assert any(f"{word} above {percent} %" in row.split("|")[1] for row in budget_rows), (kind, percent)
    parser = ops.command_line()
    commands = [c for row in rows for c in re.findall(r"`ops\.sh ([^`]+)`", row)]
    assert len(commands) >= 10
    for command in commands:
        argv = shlex.split(command.replace("STAGE", "dev").replace("<fn>", "api").replace("wx…", "wx0123456789abcdef"))
        try:
            parser.parse_args(argv)
        except SystemExit:
            pytest.fail(f"the runbook says `ops.sh {command}`, which ops.sh does not take")


def test_alarms_and_graphs_of_our_metrics_ask_for_the_dimensions_the_code_emits(packaged):
    """CloudWatch matches a metric's whole dimension set: our metrics carry the stage and the service
    (`chalicelib.observability`), so an alarm asking for the service alone would never fire."""
    from chalicelib.observability import metrics

    emitted = {"service", *metrics.default_dimensions}
    _, cfn, _ = packaged
    asked = [m["MetricStat"]["Metric"] for alarm in _of(cfn, "AWS::CloudWatch::Alarm").values()
             for m in alarm["Properties"].get("Metrics", []) if "MetricStat" in m]
    ours = [m for m in asked if m["Namespace"] == "Shengong"]
    assert {m["MetricName"] for m in ours} >= {"SweepErrors", "PushErrors", "PushSendErrors", "Conflicts"}
    # and by the names the code emits them under
    import re

    code = "".join(f.read_text(encoding="utf-8") for f in (ROOT / "chalicelib").rglob("*.py"))
    sent = set(re.findall(r'metrics_count\("(\w+)"', code))
    assert {m["MetricName"] for m in ours} <= sent, {m["MetricName"] for m in ours} - sent
    for metric in ours:
        dims = {d["Name"]: d["Value"] for d in metric["Dimensions"]}
        assert set(dims) == emitted and dims["stage"] == "prod", metric
    (board,) = _of(cfn, "AWS::CloudWatch::Dashboard").values()
    widgets = json.loads(board["Properties"]["DashboardBody"]["Fn::Sub"][0])["widgets"]
    graphed = [m for w in widgets for m in w["properties"]["metrics"] if m[0] == "Shengong"]
    assert graphed and all(dict(zip(m[2::2], m[3::2], strict=False)) == {"stage": "prod", "service": "shengong"}
                           for m in graphed), graphed


def test_ops_logs_reaches_every_function():
    """`ops.sh logs STAGE <fn>` is the runbook's first step for every function's errors alarm."""
    from infra import ops

    assert set(template.FUNCTIONS) <= set(ops.LOG_GROUPS.values())


def test_the_fan_out_may_close_the_sockets_it_finds_expired():
    """`sender.close` is the management API's DeleteConnection: the stream role needs DELETE as well
    as POST on @connections (an AccessDenied would be swallowed and the socket left open)."""
    policy = template.iam_policy("prod", template.FUNCTION_ROLE[template.STREAM_FUNCTION])
    (manage,) = [st for st in policy["Statement"] if st["Sid"] == "PostToConnections"]
    assert {r.split("/")[-3] for r in manage["Resource"]} == {"POST", "DELETE"}
    others = {r for fn, r in template.FUNCTION_ROLE.items() if r in template.PUSH_ROLES and fn != template.STREAM_FUNCTION}
    for role in others:
        (st,) = [x for x in template.iam_policy("prod", role)["Statement"] if x["Sid"] == "PostToConnections"]
        assert "/POST/@connections/" in st["Resource"]  # replies only


def test_scheduled_functions_send_failures_to_a_queue(packaged):
    _, cfn, _ = packaged
    configs = _of(cfn, "AWS::Lambda::EventInvokeConfig")
    assert {c["Properties"]["FunctionName"]["Ref"] for c in configs.values()} == set(template.SCHEDULED)
    for c in configs.values():
        assert c["Properties"]["Qualifier"] == template.ALIAS
        assert c["Properties"]["DestinationConfig"]["OnFailure"]["Destination"] == {
            "Fn::GetAtt": ["SweepFailureQueue", "Arn"]}
    rules = _of(cfn, "AWS::Events::Rule")
    assert sorted(r["Properties"]["ScheduleExpression"] for r in rules.values()) == ["rate(1 minute)",
                                                                                     "rate(5 minutes)"]
    for fn in template.SCHEDULED:
        assert cfn["Resources"][fn]["Properties"]["ReservedConcurrentExecutions"] == 1


def test_the_table_is_protected_and_recoverable(packaged):
    _, cfn, _ = packaged
    table = cfn["Resources"]["GameTable"]
    assert table["DeletionPolicy"] == "RetainExceptOnCreate" and table["UpdateReplacePolicy"] == "Retain"
    props = table["Properties"]
    assert props["DeletionProtectionEnabled"] is True
    assert props["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert {g["IndexName"] for g in props["GlobalSecondaryIndexes"]} == {"lobby", "due", "idle", "board"}
    assert props["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}


def test_no_secret_in_any_environment_only_the_names_of_secrets(packaged):
    _, cfn, _ = packaged
    for name, fn in _of(cfn, "AWS::Lambda::Function").items():
        env = fn["Properties"]["Environment"]["Variables"]
        assert not {"TOKEN_SECRET", "WECHAT_SECRET", "WECHAT_APPID", "ADMIN_OPENIDS"} & set(env), name
        assert "resolve:secretsmanager" not in json.dumps(env), name
        assert env["STAGE"] == "prod"
    api = cfn["Resources"]["APIHandler"]["Properties"]["Environment"]["Variables"]
    assert api["TOKEN_KEYS_SECRET_ID"] == "shengong/prod/token-keys"
    assert api["ADMINS_SECRET_ID"] == "shengong/prod/admins" and api["WECHAT_SECRET_ID"] == "shengong/prod/wechat"
    authorizer = cfn["Resources"]["TokenAuthorizer"]["Properties"]["Environment"]["Variables"]
    assert "TABLE_NAME" not in authorizer and "WECHAT_SECRET_ID" not in authorizer


def test_only_the_stream_function_reads_push_views_and_it_defaults_to_the_games_that_take_one(packaged):
    """PUSH_VIEWS (which games' notices carry the subscriber's own view) is the stream function's alone,
    from a stack parameter whose default is 保皇 and 血染 (empty is the default too; "none" turns it off)."""
    import re

    _, cfn, _ = packaged
    readers = [name for name, fn in _of(cfn, "AWS::Lambda::Function").items()
               if "PUSH_VIEWS" in fn["Properties"]["Environment"]["Variables"]]
    assert readers == [template.STREAM_FUNCTION]
    env = cfn["Resources"][template.STREAM_FUNCTION]["Properties"]["Environment"]["Variables"]
    assert env["PUSH_VIEWS"] == {"Ref": "PushViews"}
    param = cfn["Parameters"]["PushViews"]
    assert param["Default"] == "baohuang,zhenhuan"
    pattern = re.compile(param["AllowedPattern"])
    assert pattern.match("baohuang") and pattern.match("baohuang,zhenhuan") and pattern.match("")
    assert pattern.match("none")
    assert not pattern.match("baohuang;rm") and not pattern.match(",baohuang")


def test_iam_has_no_star_action_and_no_star_resource_beyond_what_a_service_requires(packaged):
    _, cfn, _ = packaged
    for name, role in _of(cfn, "AWS::IAM::Role").items():
        for arn in role["Properties"].get("ManagedPolicyArns", []):
            # SAM's CodeDeploy role: AWS's policy for shifting Lambda aliases
            assert "AWSCodeDeployRoleForLambda" in json.dumps(arn), (name, arn)
        for policy in role["Properties"].get("Policies", []):
            for st in policy["PolicyDocument"]["Statement"]:
                actions = st["Action"] if isinstance(st["Action"], list) else [st["Action"]]
                assert not any(a == "*" or a.endswith(":*") for a in actions), (name, st)
                resources = st["Resource"] if isinstance(st["Resource"], list) else [st["Resource"]]
                if "*" in resources:
                    assert set(actions) <= template.WILDCARD_RESOURCE_ACTIONS, (name, st)
                for r in resources:
                    # region and account are this stack's, never "*"
                    assert r == "*" or "Fn::Sub" in r or r.startswith("arn:aws:iam"), (name, r)
    api = cfn["Resources"]["ApiHandlerRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"]
    actions = {a for st in api for a in st["Action"]}
    assert "dynamodb:Scan" not in actions and "dynamodb:DeleteItem" not in actions
    authorizer = json.dumps(cfn["Resources"]["TokenAuthorizerRole"]["Properties"]["Policies"])
    assert "dynamodb" not in authorizer and "token-keys" in authorizer and "wechat" not in authorizer


def test_the_web_client_is_private_behind_cloudfront_with_the_api_on_the_same_domain(packaged):
    _, cfn, _ = packaged
    bucket = cfn["Resources"]["WebBucket"]["Properties"]
    assert all(bucket["PublicAccessBlockConfiguration"].values())
    dist = cfn["Resources"]["WebDistribution"]["Properties"]["DistributionConfig"]
    origins = {o["Id"]: o for o in dist["Origins"]}
    assert origins["web"]["OriginAccessControlId"] == {"Fn::GetAtt": ["WebOriginAccessControl", "Id"]}
    assert origins["api"]["OriginPath"] == "/v"
    paths = {b["PathPattern"]: b for b in dist["CacheBehaviors"]}
    assert paths["/v1/*"]["TargetOriginId"] == "api" and paths["/v1/*"]["CachePolicyId"] == template.CACHING_DISABLED
    assert dist["ViewerCertificate"]["Fn::If"][0] == "HasWebDomain"
    (statement,) = cfn["Resources"]["WebBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    assert statement["Principal"] == {"Service": "cloudfront.amazonaws.com"}
    assert "AWS:SourceArn" in statement["Condition"]["StringEquals"]
    assert {"WebURL", "WebBucketName", "WebDistributionId", "EndpointURL"} <= set(cfn["Outputs"])
    cors = cfn["Resources"]["APIHandler"]["Properties"]["Environment"]["Variables"]["CORS_ORIGIN"]
    assert cors == {"Fn::If": ["HasWebDomain", {"Fn::Sub": "https://${WebDomain}"}, "*"]}


def test_an_invitation_link_to_a_page_is_served_the_app(packaged):
    """The H5 client routes in the browser: an invitation (`/pages/room-baohuang/index?id=…`) names no
    object in the bucket. The distribution's viewer-request function serves index.html for a path
    without a file extension and lets files through — run here in Node, as CloudFront would run it."""
    _, cfn, _ = packaged
    behaviour = cfn["Resources"]["WebDistribution"]["Properties"]["DistributionConfig"]["DefaultCacheBehavior"]
    (assoc,) = behaviour["FunctionAssociations"]
    assert assoc["EventType"] == "viewer-request" and assoc["FunctionARN"]["Fn::GetAtt"][0] == "WebPagesFunction"
    code = cfn["Resources"]["WebPagesFunction"]["Properties"]["FunctionCode"]
    uris = ["/pages/room-baohuang/index", "/pages/lobby/index", "/", "/js/app.3f2a.js", "/index.html", "/css/a.css"]
    calls = "console.log(JSON.stringify(URIS.map((u) => handler({request: {uri: u}}).uri)))"
    script = code + calls.replace("URIS", json.dumps(uris))
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == ["/index.html", "/index.html", "/index.html", "/js/app.3f2a.js", "/index.html",
                                       "/css/a.css"]


def test_the_template_goes_through_s3_so_its_size_is_not_a_problem(packaged):
    _, _, path = packaged
    assert 51_200 < path.stat().st_size < 1_000_000  # over the inline limit, under the S3 TemplateURL limit
