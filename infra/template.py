"""The CloudFormation Chalice does not make, and the steps from its package to a deployable template.

    .venv/bin/python -m infra.template --stage dev > build/resources-dev.json   # the merge template
    .venv/bin/python -m infra.template --policies                              # rewrite .chalice/policy-*.json

Three steps, all used by `infra/deploy.py` and by the tests (which lint and inspect the result):

1. `merge_template(stage)`: merged into Chalice's SAM package with ``chalice package --merge-template``:
   the table (deletion protection, point-in-time recovery, retained), the gateway error shapes inside
   the REST API's own definition (so the SAM deployment hashes them and they reach the stage), one
   stage (``OpenApiVersion`` set: no extra ``Stage`` stage) with throttling, access logs and tracing,
   a log group with retention for every function, versioned functions behind the alias ``live`` with
   a gradual deployment that rolls back on the alarms, an on-failure queue for the scheduled
   functions, alarms and a dashboard, and the private web bucket behind CloudFront (``/v1/*`` to the
   API, so the H5 client needs no CORS), with an optional custom domain. Push (room notices): the
   table's stream (NEW_AND_OLD_IMAGES) feeding the stream function (filtered, bounded retries), the
   WebSocket API Chalice makes (``/v`` on the web domain too), each function with its own role. Cost:
   an optional monthly budget (``MonthlyBudgetUsd``) notifying the alarm topic, whose policy lets
   CloudWatch and Budgets publish.
2. `finalize(sam)`: what a deep merge cannot say: API Gateway (REST and WebSocket) calls the
   functions' alias (not ``$LATEST``), and the policies' ``*`` region and account become this stack's.
3. `expand(sam, region)`: the SAM transform, done here with aws-sam-translator, so the template that
   is uploaded, linted and tested is plain CloudFormation.

Secrets are never in a template or an environment: functions get the *names* of their secrets
(`chalicelib.secrets`) and IAM lets each read only its own.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import logging
import re
import sys
from pathlib import Path
from typing import Any

from chalicelib.config import DEFAULT_PUSH_VIEWS
from chalicelib.store.table import cloudformation_resource

ROOT = Path(__file__).resolve().parent.parent
TABLE_RESOURCE = "GameTable"
API_STAGE = "v"
ALIAS = "live"
STAGES = ("dev", "staging", "prod")
THROTTLE_RATE = 200
"""Requests per second for the whole stage (docs/operations.md: what that means in players, how to raise)."""
THROTTLE_BURST = 400
DYNAMODB_ACTIONS = [
    # exactly what chalicelib/store uses; transactions are authorised per item action
    "dynamodb:GetItem",
    "dynamodb:BatchGetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:ConditionCheckItem",
    "dynamodb:Query",
]
XRAY_ACTIONS = ["xray:PutTraceSegments", "xray:PutTelemetryRecords"]
"""X-Ray has no resource-level permissions: these two are the only statements on Resource "*"."""
WILDCARD_RESOURCE_ACTIONS = frozenset(XRAY_ACTIONS)

# Chalice's logical id -> its name in .chalice/config.json ("lambda_functions")
FUNCTIONS = {
    "APIHandler": "api_handler",
    "TokenAuthorizer": "token_authorizer",
    "SettleOverdue": "settle_overdue",
    "ExpireStalled": "expire_stalled",
    # push (chalicelib/push): the WebSocket API's three routes and the table's stream
    "WebsocketConnect": "websocket_connect",
    "WebsocketMessage": "websocket_message",
    "WebsocketDisconnect": "websocket_disconnect",
    "RoomStream": "room_stream",
}
WEBSOCKET_FUNCTIONS = ("WebsocketConnect", "WebsocketMessage", "WebsocketDisconnect")
STREAM_FUNCTION = "RoomStream"
STREAM_EVENT = "RoomStreamDynamodbEventSource"
"""The event Chalice names for `@on_dynamodb_record(name="room_stream")`."""
SCHEDULED = ("SettleOverdue", "ExpireStalled")
SECRETS = ("token-keys", "wechat", "admins")
SECRET_ENV = {"token-keys": "TOKEN_KEYS_SECRET_ID", "wechat": "WECHAT_SECRET_ID", "admins": "ADMINS_SECRET_ID"}
FUNCTION_SECRETS = {"APIHandler": SECRETS, "TokenAuthorizer": ("token-keys",), "SettleOverdue": (),
                    "ExpireStalled": (), "WebsocketConnect": ("token-keys",), "WebsocketMessage": (),
                    "WebsocketDisconnect": (), "RoomStream": ("wechat",)}
FUNCTION_TABLE = {"APIHandler": True, "TokenAuthorizer": False, "SettleOverdue": True, "ExpireStalled": True,
                  "WebsocketConnect": True, "WebsocketMessage": True, "WebsocketDisconnect": True,
                  "RoomStream": True}
# which policy file each function's role uses (.chalice/policy-<stage>-<role>.json)
FUNCTION_ROLE = {"APIHandler": "api", "TokenAuthorizer": "authorizer", "SettleOverdue": "sweeps",
                 "ExpireStalled": "sweeps", "WebsocketConnect": "ws-connect", "WebsocketMessage": "ws-message",
                 "WebsocketDisconnect": "ws-disconnect", "RoomStream": "stream"}
ROLE_TABLE_ACTIONS = {
    # exactly what each one's code calls (chalicelib/push, chalicelib/store/push.py; the stream function
    # also runs the chat helper's notices: dedupe put, credit updates, the WeChat token lease)
    "ws-connect": ["dynamodb:PutItem"],
    "ws-message": ["dynamodb:GetItem", "dynamodb:Query", "dynamodb:PutItem", "dynamodb:UpdateItem",
                   "dynamodb:DeleteItem"],
    "ws-disconnect": ["dynamodb:DeleteItem"],
    "stream": ["dynamodb:GetItem", "dynamodb:Query", "dynamodb:PutItem", "dynamodb:UpdateItem",
               "dynamodb:DeleteItem"],
}
"""Roles that do not use DYNAMODB_ACTIONS (the push roles never touch an index)."""
STREAM_ACTIONS = ["dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator",
                  "dynamodb:ListStreams"]
PUSH_ROLES = ("ws-message", "stream")
"""Roles that post to connections (the management API): replies, and the notices."""
PUSH_LAG_MS = 30_000
"""The stream function's iterator age that means notices are falling behind."""
NEAR_THROTTLE = 0.8
"""The share of the stage throttle (THROTTLE_RATE) that pages: players get 429 past it."""
LOGIN_ROUTES = ("/v1/auth/wechat", "/v1/auth/refresh")
"""Logging in and staying logged in: a few 5xx here lock players out (a WeChat app secret reset on
mp.weixin.qq.com but not with ops.sh set-wechat, an unreadable secret, WeChat unreachable), while
they are too few among all requests for the 5xx rate to notice."""
CONFLICT_STORM = 100
"""Conflicts (a room write lost to another writer: STALE_VERSION, cancelled transactions) in 5 minutes
that may page, when they also outnumber the room writes that went through (Transitions)."""
BUDGET_RESOURCE = "MonthlyBudget"
BUDGET_TYPE = "AWS::Budgets::Budget"
BUDGET_NOTICES = (("ACTUAL", 80), ("FORECASTED", 100))
"""The budget's notices to the alarm topic: (what is compared, percent of the monthly amount)."""

# API Gateway's own answers (no function ran) in the API's error shape {code, message}: response type ->
# (status, or None to keep API Gateway's; code). Messages come from the error catalogue
# (chalicelib/core/error_codes.py) when it lists the code, else from FALLBACK_MESSAGES.
GATEWAY_ERRORS: dict[str, tuple[str | None, str]] = {
    "UNAUTHORIZED": ("401", "UNAUTHENTICATED"),
    "ACCESS_DENIED": ("403", "FORBIDDEN"),
    "MISSING_AUTHENTICATION_TOKEN": ("404", "NOT_FOUND"),
    # an unknown path called with our (non-SigV4) token in Authorization: still just an unknown path
    "INCOMPLETE_SIGNATURE": ("404", "NOT_FOUND"),
    "REQUEST_TOO_LARGE": ("413", "BODY_TOO_LARGE"),
    "THROTTLED": ("429", "RATE_LIMITED"),
    # the authorizer failed (e.g. its key secret is unreadable): the service is unavailable, not the caller wrong
    "AUTHORIZER_FAILURE": ("503", "SERVICE_UNAVAILABLE"),
    "AUTHORIZER_CONFIGURATION_ERROR": ("503", "SERVICE_UNAVAILABLE"),
    "DEFAULT_4XX": (None, "BAD_REQUEST"),
    "DEFAULT_5XX": (None, "INTERNAL_ERROR"),
}
FALLBACK_MESSAGES = {
    "UNAUTHENTICATED": "请先登录",
    "FORBIDDEN": "无权访问",
    "NOT_FOUND": "没有这个接口",
    "BODY_TOO_LARGE": "请求内容过大",
    "RATE_LIMITED": "操作太频繁，请稍后再试",
    "SERVICE_UNAVAILABLE": "服务暂不可用，请稍后再试",
    "BAD_REQUEST": "请求有误",
    "INTERNAL_ERROR": "服务器开小差了，请稍后再试",
}


def error_catalogue() -> dict[str, Any]:
    """The platform's error catalogue (code -> spec with .status and .message), if the code base has one."""
    try:
        from chalicelib.core.error_codes import PLATFORM_ERRORS
    except ImportError:
        return {}
    return dict(PLATFORM_ERRORS)


def gateway_error(code: str) -> str:
    spec = error_catalogue().get(code)
    return str(spec.message) if spec is not None else FALLBACK_MESSAGES[code]


# CloudFront managed policies (fixed ids, the same in every account)
CACHING_OPTIMIZED = "658327ea-f89d-4fab-a63d-7e88639e58f6"
CACHING_DISABLED = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad"
ALL_VIEWER_EXCEPT_HOST = "b689b0a8-53d0-40ab-baf2-68738e2966ac"
API_PATHS = ("/v1/*", "/openapi.json")
"""Paths CloudFront sends to the API (same origin as the H5 client: no CORS needed)."""

RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557,
                  2922, 3288, 3653]


def stage_settings(stage: str) -> dict[str, Any]:
    """What differs between stages: prod shifts traffic gradually and keeps logs longer."""
    prod = stage == "prod"
    return {
        "api_deployment": "Canary10Percent10Minutes" if prod else "AllAtOnce",
        "log_retention_days": 90 if prod else 30,
    }


def table_name(stage: str) -> str:
    return f"shengong-{stage}"


def restored_table_prefix(stage: str) -> str:
    """Tables made by `infra/ops.sh restore-table` are named <prefix><time>; the policies cover them."""
    return f"{table_name(stage)}-restored-"


def secret_id(stage: str, name: str) -> str:
    return f"shengong/{stage}/{name}"


def log_group_name(stage: str, function: str) -> str:
    return f"/shengong/{stage}/{function}"


def queue_name(stage: str) -> str:
    return f"shengong-{stage}-sweep-failures"


def api_name(stage: str) -> str:
    return f"shengong-{stage}"


def _gateway_responses() -> dict[str, Any]:
    responses: dict[str, Any] = {}
    for kind, (status, code) in GATEWAY_ERRORS.items():
        response: dict[str, Any] = {
            "responseParameters": {"gatewayresponse.header.Access-Control-Allow-Origin": "'*'",
                                   "gatewayresponse.header.Cache-Control": "'no-store'"},
            "responseTemplates": {"application/json": json.dumps({"code": code, "message": gateway_error(code)},
                                                                  ensure_ascii=False)},
        }
        if status:
            response["statusCode"] = status
        responses[kind] = response
    return responses


ACCESS_LOG_FORMAT = json.dumps({
    "requestId": "$context.requestId", "ip": "$context.identity.sourceIp", "time": "$context.requestTimeEpoch",
    "method": "$context.httpMethod", "resource": "$context.resourcePath", "status": "$context.status",
    "error": "$context.error.responseType", "length": "$context.responseLength",
    "latency": "$context.responseLatency", "integrationLatency": "$context.integration.latency",
    "user": "$context.authorizer.principalId", "userAgent": "$context.identity.userAgent",
}, separators=(",", ":"))


def _active_table() -> dict[str, Any]:
    """The table the functions use: the stack's, or the one `restore-table` switched the stage to."""
    return {"Fn::If": ["UseRestoredTable", {"Ref": "ActiveTableName"}, {"Ref": TABLE_RESOURCE}]}


def _alarm_topic() -> dict[str, Any]:
    """The stage's alarm topic: the operator's (ALARM_TOPIC_ARN) or the stack's own."""
    return {"Fn::If": ["HasAlarmTopic", {"Ref": "AlarmTopicArn"}, {"Ref": "AlarmTopic"}]}


def _alarm_actions() -> list[Any]:
    return [_alarm_topic()]


def _metric(namespace: str, name: str, dims: dict[str, Any], stat: str = "Sum", period: int = 60) -> dict[str, Any]:
    return {"Metric": {"Namespace": namespace, "MetricName": name,
                       "Dimensions": [{"Name": k, "Value": v} for k, v in dims.items()]},
            "Period": period, "Stat": stat}


def _sum_alarm(description: str, metrics: list[dict[str, Any]], threshold: float, *, period: int = 300,
               evaluation: int = 1, datapoints: int = 1) -> dict[str, Any]:
    """An alarm on the sum of several metrics (metric math), missing data = fine."""
    queries: list[dict[str, Any]] = [
        {"Id": f"m{i}", "MetricStat": {**m, "Period": period}, "ReturnData": False} for i, m in enumerate(metrics)]
    expression = " + ".join(f"FILL(m{i}, 0)" for i in range(len(metrics)))
    queries.append({"Id": "total", "Expression": expression, "Label": description, "ReturnData": True})
    return {"Type": "AWS::CloudWatch::Alarm", "Properties": {
        "AlarmDescription": description, "Metrics": queries, "ComparisonOperator": "GreaterThanOrEqualToThreshold",
        "Threshold": threshold, "EvaluationPeriods": evaluation, "DatapointsToAlarm": datapoints,
        "TreatMissingData": "notBreaching", "AlarmActions": _alarm_actions(), "OKActions": _alarm_actions()}}


def _ours(stage: str) -> dict[str, str]:
    """The dimensions of our own metrics, exactly as `chalicelib.observability` emits them: CloudWatch
    matches the whole set, so an alarm without the stage would watch a metric nobody sends."""
    return {"stage": stage, "service": "shengong"}


def alarms(stage: str) -> dict[str, Any]:
    api = {"ApiName": api_name(stage), "Stage": API_STAGE}
    table = _active_table()
    out: dict[str, Any] = {}
    out["ApiServerErrorRateAlarm"] = {"Type": "AWS::CloudWatch::Alarm", "Properties": {
        "AlarmDescription": "API 5xx above 5% of requests (at least 20 requests a minute), 3 of 5 minutes",
        "Metrics": [
            {"Id": "errors", "MetricStat": _metric("AWS/ApiGateway", "5XXError", api), "ReturnData": False},
            {"Id": "requests", "MetricStat": _metric("AWS/ApiGateway", "Count", api), "ReturnData": False},
            {"Id": "rate", "Expression": "IF(requests >= 20, 100 * errors / requests, 0)",
             "Label": "5xx %", "ReturnData": True}],
        "ComparisonOperator": "GreaterThanThreshold", "Threshold": 5, "EvaluationPeriods": 5,
        "DatapointsToAlarm": 3, "TreatMissingData": "notBreaching",
        "AlarmActions": _alarm_actions(), "OKActions": _alarm_actions()}}
    out["ApiLatencyP99Alarm"] = {"Type": "AWS::CloudWatch::Alarm", "Properties": {
        "AlarmDescription": "API latency p99 above 3 s, 3 of 5 minutes",
        "Namespace": "AWS/ApiGateway", "MetricName": "Latency",
        "Dimensions": [{"Name": k, "Value": v} for k, v in api.items()],
        "ExtendedStatistic": "p99", "Period": 60, "EvaluationPeriods": 5, "DatapointsToAlarm": 3,
        "Threshold": 3000, "ComparisonOperator": "GreaterThanThreshold", "TreatMissingData": "notBreaching",
        "AlarmActions": _alarm_actions(), "OKActions": _alarm_actions()}}
    out["ApiNearThrottleAlarm"] = {"Type": "AWS::CloudWatch::Alarm", "Properties": {
        "AlarmDescription": f"API requests above {NEAR_THROTTLE:.0%} of the stage throttle ({THROTTLE_RATE} per "
                            "second), 3 of 5 minutes: past it players get 429 (docs/operations.md, Capacity)",
        "Namespace": "AWS/ApiGateway", "MetricName": "Count",
        "Dimensions": [{"Name": k, "Value": v} for k, v in api.items()],
        "Statistic": "Sum", "Period": 60, "EvaluationPeriods": 5, "DatapointsToAlarm": 3,
        "Threshold": THROTTLE_RATE * 60 * NEAR_THROTTLE, "ComparisonOperator": "GreaterThanThreshold",
        "TreatMissingData": "notBreaching", "AlarmActions": _alarm_actions(), "OKActions": _alarm_actions()}}
    # per-route metrics: the stage's MethodSettings turn on detailed metrics (MetricsEnabled)
    out["LoginFailuresAlarm"] = _sum_alarm(
        "Logins failing: 5xx from POST " + " and POST ".join(LOGIN_ROUTES) + " (the WeChat app secret, "
        "a secret unreadable, WeChat unreachable), at least 5 in 5 minutes, twice in 15 minutes",
        [_metric("AWS/ApiGateway", "5XXError", {**api, "Resource": route, "Method": "POST"})
         for route in LOGIN_ROUTES], 5, evaluation=3, datapoints=2)
    for fn in FUNCTIONS:
        dims = {"FunctionName": {"Ref": fn}}
        out[f"{fn}ErrorsAlarm"] = _sum_alarm(
            f"{fn}: Lambda errors (unhandled exceptions, timeouts) in 5 minutes",
            [_metric("AWS/Lambda", "Errors", dims)], 5 if fn == "APIHandler" else 1)
        out[f"{fn}ThrottlesAlarm"] = _sum_alarm(
            f"{fn}: Lambda throttles in 5 minutes (concurrency limit reached)",
            [_metric("AWS/Lambda", "Throttles", dims)], 1 if fn in SCHEDULED else 10)
    indexes = [g["IndexName"] for g in cloudformation_resource()["Properties"]["GlobalSecondaryIndexes"]]
    throttles = [_metric("AWS/DynamoDB", name, {"TableName": table})
                 for name in ("ReadThrottleEvents", "WriteThrottleEvents")]
    # an index that cannot keep up with writes throttles the table's writes: watch each index's writes
    throttles += [_metric("AWS/DynamoDB", "WriteThrottleEvents", {"TableName": table, "GlobalSecondaryIndexName": i})
                  for i in indexes]
    out["TableThrottlesAlarm"] = _sum_alarm("DynamoDB throttled requests (table and index writes) in 5 minutes",
                                            throttles, 1)
    out["TableSystemErrorsAlarm"] = _sum_alarm(
        "DynamoDB system errors (HTTP 500 from DynamoDB) in 5 minutes",
        [_metric("AWS/DynamoDB", "SystemErrors", {"TableName": table, "Operation": op})
         for op in ("GetItem", "BatchGetItem", "PutItem", "UpdateItem", "DeleteItem", "Query",
                    "TransactWriteItems")], 1)
    out["SweepFailuresAlarm"] = _sum_alarm(
        "Scheduled sweeps failing: function errors, SweepErrors (a room the sweep could not settle), "
        "or failed invocations waiting in the sweep-failures queue",
        [_metric("AWS/Lambda", "Errors", {"FunctionName": {"Ref": fn}}) for fn in SCHEDULED]
        + [_metric("Shengong", "SweepErrors", _ours(stage)),
           _metric("AWS/SQS", "ApproximateNumberOfMessagesVisible",
                   {"QueueName": {"Fn::GetAtt": ["SweepFailureQueue", "QueueName"]}}, stat="Maximum")], 1)
    out["ConflictStormAlarm"] = {"Type": "AWS::CloudWatch::Alarm", "Properties": {
        "AlarmDescription": f"Conflict storm: at least {CONFLICT_STORM} room writes lost to another writer "
                            "(Conflicts) in 5 minutes, more than the room writes that went through "
                            "(Transitions), twice in 15 minutes: players' actions answered 409 or BUSY",
        "Metrics": [
            {"Id": "conflicts", "MetricStat": _metric("Shengong", "Conflicts", _ours(stage), period=300),
             "ReturnData": False},
            {"Id": "writes", "MetricStat": _metric("Shengong", "Transitions", _ours(stage), period=300),
             "ReturnData": False},
            {"Id": "storm", "Label": "conflicts per 100 room writes",
             "Expression": f"IF(FILL(conflicts, 0) >= {CONFLICT_STORM}, "
                           "100 * FILL(conflicts, 0) / (FILL(writes, 0) + 1), 0)", "ReturnData": True}],
        "ComparisonOperator": "GreaterThanThreshold", "Threshold": 100, "EvaluationPeriods": 3,
        "DatapointsToAlarm": 2, "TreatMissingData": "notBreaching",
        "AlarmActions": _alarm_actions(), "OKActions": _alarm_actions()}}
    out["PushLagAlarm"] = {"Type": "AWS::CloudWatch::Alarm", "Properties": {
        "AlarmDescription": "Room notices falling behind: the stream function's iterator age above "
                            f"{PUSH_LAG_MS // 1000} s, 3 of 5 minutes (players fall back to polling)",
        "Namespace": "AWS/Lambda", "MetricName": "IteratorAge",
        "Dimensions": [{"Name": "FunctionName", "Value": {"Ref": STREAM_FUNCTION}}],
        "Statistic": "Maximum", "Period": 60, "EvaluationPeriods": 5, "DatapointsToAlarm": 3,
        "Threshold": PUSH_LAG_MS, "ComparisonOperator": "GreaterThanThreshold", "TreatMissingData": "notBreaching",
        "AlarmActions": _alarm_actions(), "OKActions": _alarm_actions()}}
    out["WebsocketApiErrorsAlarm"] = _sum_alarm(
        "The WebSocket API failing before or around our functions (IntegrationError, ExecutionError: a "
        "broken $connect integration or permission never reaches a function; phones fall back to polling)",
        [_metric("AWS/ApiGateway", name, {"ApiId": {"Ref": "WebsocketAPI"}, "Stage": API_STAGE})
         for name in ("IntegrationError", "ExecutionError")], 5)
    out["PushErrorsAlarm"] = _sum_alarm(
        "Room notices failing: PushErrors (a view or a record the fan-out could not handle) and "
        "PushSendErrors (the management API refused a post other than 410) in 5 minutes",
        [_metric("Shengong", name, _ours(stage)) for name in ("PushErrors", "PushSendErrors")], 10)
    return out


# alarms that stop a gradual deployment and roll the alias back, per function
DEPLOYMENT_ALARMS = {
    "APIHandler": ["ApiServerErrorRateAlarm", "ApiLatencyP99Alarm", "APIHandlerErrorsAlarm"],
    "TokenAuthorizer": ["ApiServerErrorRateAlarm", "TokenAuthorizerErrorsAlarm"],
    "SettleOverdue": ["SettleOverdueErrorsAlarm"],
    "ExpireStalled": ["ExpireStalledErrorsAlarm"],
    "WebsocketConnect": ["WebsocketConnectErrorsAlarm"],
    "WebsocketMessage": ["WebsocketMessageErrorsAlarm"],
    "WebsocketDisconnect": ["WebsocketDisconnectErrorsAlarm"],
    "RoomStream": ["RoomStreamErrorsAlarm", "PushErrorsAlarm"],
}


def dashboard(stage: str) -> dict[str, Any]:
    region = "${AWS::Region}"
    api = ["ApiName", api_name(stage), "Stage", API_STAGE]

    def widget(title: str, metrics: list[list[Any]], stat: str = "Sum", x: int = 0, y: int = 0) -> dict[str, Any]:
        return {"type": "metric", "x": x, "y": y, "width": 12, "height": 6,
                "properties": {"title": title, "region": region, "stat": stat, "period": 60, "metrics": metrics}}

    fns = list(FUNCTIONS)
    widgets = [
        widget("API requests and errors", [["AWS/ApiGateway", "Count", *api], ["AWS/ApiGateway", "4XXError", *api],
                                           ["AWS/ApiGateway", "5XXError", *api]]),
        widget("API latency p50 / p99 (ms)", [["AWS/ApiGateway", "Latency", *api, {"stat": "p50"}],
                                             ["AWS/ApiGateway", "Latency", *api, {"stat": "p99"}]], x=12),
        widget("Lambda errors", [["AWS/Lambda", "Errors", "FunctionName", "${" + fn + "}"] for fn in fns], y=6),
        widget("Lambda concurrency", [["AWS/Lambda", "ConcurrentExecutions", "FunctionName", "${" + fn + "}"]
                                      for fn in fns], stat="Maximum", x=12, y=6),
        widget("DynamoDB capacity", [["AWS/DynamoDB", "ConsumedReadCapacityUnits", "TableName", "${Table}"],
                                     ["AWS/DynamoDB", "ConsumedWriteCapacityUnits", "TableName", "${Table}"]], y=12),
        widget("DynamoDB throttles and errors", [["AWS/DynamoDB", "ReadThrottleEvents", "TableName", "${Table}"],
                                                 ["AWS/DynamoDB", "WriteThrottleEvents", "TableName", "${Table}"],
                                                 ["AWS/DynamoDB", "SystemErrors", "TableName", "${Table}",
                                                  "Operation", "TransactWriteItems"]], x=12, y=12),
        widget("Game flow (Shengong)", [["Shengong", name, "stage", stage, "service", "shengong"] for name in
                                        ("Transitions", "MovesSubmitted", "Conflicts", "SweepErrors", "Throttled")],
               y=18),
        widget("Failed sweeps waiting", [["AWS/SQS", "ApproximateNumberOfMessagesVisible", "QueueName",
                                          "${Queue}"]], stat="Maximum", x=12, y=18),
        widget("Room notices (push)", [["Shengong", name, "stage", stage, "service", "shengong"] for name in
                                       ("PushNotices", "SocketConnects", "SocketsGone", "PushErrors")], y=24),
        widget("Notice lag: stream iterator age (ms)", [["AWS/Lambda", "IteratorAge", "FunctionName",
                                                          "${" + STREAM_FUNCTION + "}"]], stat="Maximum", x=12, y=24),
    ]
    body = json.dumps({"widgets": widgets}, ensure_ascii=False)
    return {"Type": "AWS::CloudWatch::Dashboard", "Properties": {
        "DashboardName": f"shengong-{stage}",
        "DashboardBody": {"Fn::Sub": [body, {"Table": _active_table(),
                                             "Queue": {"Fn::GetAtt": ["SweepFailureQueue", "QueueName"]}}]}}}


def budget_name(stage: str) -> str:
    """The budget's name before `pin_budget` adds its notices' digest (budget names are per account)."""
    return f"shengong-{stage}-monthly"


def monthly_budget(stage: str) -> dict[str, Any]:
    """An AWS Budget of the account's monthly cost, when MonthlyBudgetUsd is set: its notices (actual
    spend past 80 %, the month's forecast past 100 %) go to the alarm topic, as the alarms' do.

    Account-wide, not filtered: a tag filter sees nothing until the tag is activated by hand as a
    cost-allocation tag (Billing, payer account), and a budget that silently sees $0 is worse than one
    that also counts the account's other costs (docs/operations.md, Cost). Credits are left out, so a
    runaway shows while credits still pay for it."""
    notices = [{"Notification": {"NotificationType": kind, "ComparisonOperator": "GREATER_THAN",
                                 "Threshold": percent, "ThresholdType": "PERCENTAGE"},
                "Subscribers": [{"SubscriptionType": "SNS", "Address": _alarm_topic()}]}
               for kind, percent in BUDGET_NOTICES]
    return {"Type": BUDGET_TYPE, "Condition": "HasMonthlyBudget", "Properties": {
        "Budget": {"BudgetName": budget_name(stage), "BudgetType": "COST", "TimeUnit": "MONTHLY",
                   "BudgetLimit": {"Amount": {"Ref": "MonthlyBudgetUsd"}, "Unit": "USD"},
                   "CostTypes": {"IncludeCredit": False}},
        "NotificationsWithSubscribers": notices}}


def alarm_topic_policy() -> dict[str, Any]:
    """Who may publish to the stack's own alarm topic: this stage's alarms and this account's budgets.
    A topic policy replaces SNS's default one, so CloudWatch needs its own statement too (without it the
    alarms' notices would be refused); the account's people reach the topic through IAM as before."""
    topic = {"Ref": "AlarmTopic"}
    return {"Type": "AWS::SNS::TopicPolicy", "Condition": "CreateAlarmTopic", "Properties": {
        "Topics": [topic],
        "PolicyDocument": {"Version": "2012-10-17", "Statement": [
            {"Sid": "AlarmsPublish", "Effect": "Allow", "Principal": {"Service": "cloudwatch.amazonaws.com"},
             "Action": "sns:Publish", "Resource": topic,
             "Condition": {"ArnLike": {"aws:SourceArn": {
                 "Fn::Sub": "arn:${AWS::Partition}:cloudwatch:${AWS::Region}:${AWS::AccountId}:alarm:${AWS::StackName}-*"}}}},
            {"Sid": "BudgetsPublish", "Effect": "Allow", "Principal": {"Service": "budgets.amazonaws.com"},
             "Action": "sns:Publish", "Resource": topic,
             "Condition": {"StringEquals": {"aws:SourceAccount": {"Ref": "AWS::AccountId"}},
                           "ArnLike": {"aws:SourceArn": {"Fn::Sub": "arn:${AWS::Partition}:budgets::${AWS::AccountId}:*"}}}},
        ]}}}


WEB_PAGES_FUNCTION = """function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) { request.uri = '/index.html'; }
  return request;
}
"""
"""The H5 client routes in the browser (`/pages/room-baohuang/index?id=…`, what an invitation links to):
no such object is in the bucket, so a path without a file extension is the app's page, served by
index.html (as the local server does). Files (/js/…, /css/…, index.html) pass as they are."""


def web_resources(stage: str) -> dict[str, Any]:
    """Private bucket + CloudFront (origin access control); /v1/* and /openapi.json go to the API."""
    api_domain = {"Fn::Sub": "${RestAPI}.execute-api.${AWS::Region}.${AWS::URLSuffix}"}
    api_behaviours = [{
        "PathPattern": path, "TargetOriginId": "api", "ViewerProtocolPolicy": "https-only",
        "AllowedMethods": ["GET", "HEAD", "OPTIONS", "PUT", "PATCH", "POST", "DELETE"],
        "CachedMethods": ["GET", "HEAD"], "CachePolicyId": CACHING_DISABLED,
        "OriginRequestPolicyId": ALL_VIEWER_EXCEPT_HOST, "Compress": True,
    } for path in API_PATHS]
    api_behaviours.append({
        "PathPattern": "/" + API_STAGE, "TargetOriginId": "live", "ViewerProtocolPolicy": "https-only",
        "AllowedMethods": ["GET", "HEAD"], "CachedMethods": ["GET", "HEAD"], "CachePolicyId": CACHING_DISABLED,
        "OriginRequestPolicyId": ALL_VIEWER_EXCEPT_HOST, "Compress": False,
    })
    return {
        "WebBucket": {"Type": "AWS::S3::Bucket", "DeletionPolicy": "Retain", "UpdateReplacePolicy": "Retain",
                      "Properties": {
                          "PublicAccessBlockConfiguration": {"BlockPublicAcls": True, "BlockPublicPolicy": True,
                                                             "IgnorePublicAcls": True, "RestrictPublicBuckets": True},
                          "OwnershipControls": {"Rules": [{"ObjectOwnership": "BucketOwnerEnforced"}]},
                          "BucketEncryption": {"ServerSideEncryptionConfiguration": [
                              {"ServerSideEncryptionByDefault": {"SSEAlgorithm": "AES256"}}]},
                          "VersioningConfiguration": {"Status": "Enabled"},
                          "LifecycleConfiguration": {"Rules": [{
                              "Id": "old-versions", "Status": "Enabled",
                              "NoncurrentVersionExpiration": {"NoncurrentDays": 30}}]},
                          "Tags": [{"Key": "app", "Value": "shengong"}, {"Key": "stage", "Value": stage}]}},
        "WebOriginAccessControl": {"Type": "AWS::CloudFront::OriginAccessControl", "Properties": {
            "OriginAccessControlConfig": {"Name": f"shengong-{stage}-web", "OriginAccessControlOriginType": "s3",
                                          "SigningBehavior": "always", "SigningProtocol": "sigv4"}}},
        "WebDistribution": {"Type": "AWS::CloudFront::Distribution", "Properties": {"DistributionConfig": {
            "Comment": f"shengong {stage}: H5 client and API",
            "Enabled": True, "HttpVersion": "http2and3", "IPV6Enabled": True, "PriceClass": "PriceClass_200",
            "DefaultRootObject": "index.html",
            "Aliases": {"Fn::If": ["HasWebDomain", [{"Ref": "WebDomain"}], {"Ref": "AWS::NoValue"}]},
            "ViewerCertificate": {"Fn::If": [
                "HasWebDomain",
                {"AcmCertificateArn": {"Ref": "WebCertificateArn"}, "SslSupportMethod": "sni-only",
                 "MinimumProtocolVersion": "TLSv1.2_2021"},
                {"CloudFrontDefaultCertificate": True}]},
            "Origins": [
                {"Id": "web", "DomainName": {"Fn::GetAtt": ["WebBucket", "RegionalDomainName"]},
                 "S3OriginConfig": {"OriginAccessIdentity": ""},
                 "OriginAccessControlId": {"Fn::GetAtt": ["WebOriginAccessControl", "Id"]}},
                {"Id": "api", "DomainName": api_domain, "OriginPath": f"/{API_STAGE}",
                 "CustomOriginConfig": {"OriginProtocolPolicy": "https-only", "OriginSSLProtocols": ["TLSv1.2"]}},
                {"Id": "live", "DomainName": {"Fn::Sub": "${WebsocketAPI}.execute-api.${AWS::Region}.${AWS::URLSuffix}"},
                 "CustomOriginConfig": {"OriginProtocolPolicy": "https-only", "OriginSSLProtocols": ["TLSv1.2"]}},
            ],
            "DefaultCacheBehavior": {"TargetOriginId": "web", "ViewerProtocolPolicy": "redirect-to-https",
                                     "AllowedMethods": ["GET", "HEAD"], "CachedMethods": ["GET", "HEAD"],
                                     "CachePolicyId": CACHING_OPTIMIZED, "Compress": True,
                                     "FunctionAssociations": [{
                                         "EventType": "viewer-request",
                                         "FunctionARN": {"Fn::GetAtt": ["WebPagesFunction",
                                                                        "FunctionMetadata.FunctionARN"]}}]},
            "CacheBehaviors": api_behaviours,
        }}},
        "WebPagesFunction": {"Type": "AWS::CloudFront::Function", "Properties": {
            "Name": f"shengong-{stage}-web-pages", "AutoPublish": True, "FunctionCode": WEB_PAGES_FUNCTION,
            "FunctionConfig": {"Comment": "the H5 router's pages are index.html", "Runtime": "cloudfront-js-2.0"}}},
        "WebBucketPolicy": {"Type": "AWS::S3::BucketPolicy", "Properties": {
            "Bucket": {"Ref": "WebBucket"},
            "PolicyDocument": {"Version": "2012-10-17", "Statement": [{
                "Sid": "CloudFrontReadsTheSite", "Effect": "Allow",
                "Principal": {"Service": "cloudfront.amazonaws.com"}, "Action": "s3:GetObject",
                "Resource": {"Fn::Sub": "${WebBucket.Arn}/*"},
                "Condition": {"StringEquals": {"AWS:SourceArn": {
                    "Fn::Sub": "arn:${AWS::Partition}:cloudfront::${AWS::AccountId}:distribution/${WebDistribution}"}}},
            }]}}},
    }


def live_url() -> dict[str, Any]:
    """Where clients open their socket (GET /v1/live): on the web domain when there is one (the
    mini-program may use only its filed domain), else the WebSocket API's own endpoint."""
    return {"Fn::If": ["HasWebDomain", {"Fn::Sub": "wss://${WebDomain}/" + API_STAGE},
                       {"Fn::Sub": "wss://${WebsocketAPI}.execute-api.${AWS::Region}.${AWS::URLSuffix}/" + API_STAGE}]}


def stream_event() -> dict[str, Any]:
    """The stream function's event source mapping: the stack's table (Chalice needs an ARN when the
    decorator runs; this replaces it, Chalice issue 1882), only the records the fan-out reads, and
    bounded retries: a batch that fails is split to find the bad record, and nothing older than a
    minute is retried (a late notice is worth less than the client's own fetch)."""
    from chalicelib.push.fanout import FILTER_PATTERNS

    return {
        # the stack's table's stream, or (ops restore-table / use-table) the restored table's
        "Stream": {"Fn::If": ["UseRestoredStream", {"Ref": "ActiveStreamArn"},
                              {"Fn::GetAtt": [TABLE_RESOURCE, "StreamArn"]}]},
        "StartingPosition": "LATEST", "BatchSize": 100, "MaximumBatchingWindowInSeconds": 0,
        "MaximumRetryAttempts": 2, "BisectBatchOnFunctionError": True, "MaximumRecordAgeInSeconds": 60,
        "FilterCriteria": {"Filters": [{"Pattern": json.dumps(p, separators=(",", ":"))} for p in FILTER_PATTERNS]},
    }


def merge_template(stage: str) -> dict[str, Any]:
    settings = stage_settings(stage)
    table = cloudformation_resource()
    table["Properties"]["TableName"] = table_name(stage)
    table["Properties"]["DeletionProtectionEnabled"] = True
    table["DeletionPolicy"] = "RetainExceptOnCreate"
    table["UpdateReplacePolicy"] = "Retain"
    # every committed change, old and new image, for the room notices' fan-out (chalicelib/push/fanout.py)
    table["Properties"]["StreamSpecification"] = {"StreamViewType": "NEW_AND_OLD_IMAGES"}
    resources: dict[str, Any] = {TABLE_RESOURCE: table}

    resources["RestAPI"] = {"Properties": {
        "Name": api_name(stage),
        "OpenApiVersion": "2.0",  # any value: SAM then makes no extra "Stage" stage (SAM issue 191)
        "DefinitionBody": {"x-amazon-apigateway-gateway-responses": _gateway_responses()},
        # throttling on the one stage: a runaway client gets API Gateway's 429 (our shape) before it costs
        "MethodSettings": [{"ResourcePath": "/*", "HttpMethod": "*", "ThrottlingRateLimit": THROTTLE_RATE,
                            "ThrottlingBurstLimit": THROTTLE_BURST, "MetricsEnabled": True,
                            "DataTraceEnabled": False}],
        "TracingEnabled": True,
        "AccessLogSetting": {"DestinationArn": {"Fn::GetAtt": ["ApiAccessLogs", "Arn"]},
                             "Format": ACCESS_LOG_FORMAT},
    }}
    resources["ApiAccessLogs"] = {"Type": "AWS::Logs::LogGroup", "Properties": {
        "LogGroupName": log_group_name(stage, "api-access"), "RetentionInDays": {"Ref": "LogRetentionDays"}}}

    for fn in FUNCTIONS:
        env: dict[str, Any] = {"SECRET_MAX_AGE_S": "300"}
        if FUNCTION_TABLE[fn]:
            env["TABLE_NAME"] = _active_table()
        for name in FUNCTION_SECRETS[fn]:
            env[SECRET_ENV[name]] = secret_id(stage, name)
        if fn == "APIHandler":
            # with a custom domain, browsers may call the API only from the web client's origin (the
            # mini-program does not use CORS; the H5 client is same-origin through CloudFront anyway)
            env["CORS_ORIGIN"] = {"Fn::If": ["HasWebDomain", {"Fn::Sub": "https://${WebDomain}"}, "*"]}
            env["LIVE_URL"] = live_url()
        if fn == STREAM_FUNCTION:
            env["WEBSOCKET_API_ID"] = {"Ref": "WebsocketAPI"}
            env["WEBSOCKET_STAGE"] = API_STAGE
            env["PUSH_VIEWS"] = {"Ref": "PushViews"}
        deployment = settings["api_deployment"] if fn in ("APIHandler", "TokenAuthorizer") else "AllAtOnce"
        props: dict[str, Any] = {
            "Environment": {"Variables": env},
            "Tracing": "Active",
            "LoggingConfig": {"LogGroup": {"Ref": f"{fn}Logs"}, "LogFormat": "Text"},
            "AutoPublishAlias": ALIAS,
            "DeploymentPreference": {"Type": deployment,
                                     "Alarms": [{"Ref": a} for a in DEPLOYMENT_ALARMS[fn]]},
        }
        if fn in SCHEDULED:
            # a failed sweep goes somewhere: no retry (the next tick sweeps again), the event to a queue
            props["EventInvokeConfig"] = {"MaximumRetryAttempts": 0, "DestinationConfig": {
                "OnFailure": {"Type": "SQS", "Destination": {"Fn::GetAtt": ["SweepFailureQueue", "Arn"]}}}}
        if fn == STREAM_FUNCTION:
            props["Events"] = {STREAM_EVENT: {"Type": "DynamoDB", "Properties": stream_event()}}
        resources[fn] = {"Properties": props}
        resources[f"{fn}Logs"] = {"Type": "AWS::Logs::LogGroup", "Properties": {
            "LogGroupName": log_group_name(stage, fn), "RetentionInDays": {"Ref": "LogRetentionDays"}}}

    resources["SweepFailureQueue"] = {"Type": "AWS::SQS::Queue", "Properties": {
        "QueueName": queue_name(stage), "MessageRetentionPeriod": 1209600, "SqsManagedSseEnabled": True}}
    resources["AlarmTopic"] = {"Type": "AWS::SNS::Topic", "Condition": "CreateAlarmTopic", "Properties": {
        "TopicName": f"shengong-{stage}-alarms", "DisplayName": f"shengong {stage} alarms"}}
    resources["AlarmEmailSubscription"] = {"Type": "AWS::SNS::Subscription", "Condition": "SubscribeAlarmEmail",
                                           "Properties": {"TopicArn": {"Ref": "AlarmTopic"}, "Protocol": "email",
                                                          "Endpoint": {"Ref": "AlarmEmail"}}}
    resources["AlarmTopicPolicy"] = alarm_topic_policy()
    resources.update(alarms(stage))
    resources[BUDGET_RESOURCE] = monthly_budget(stage)
    resources["Dashboard"] = dashboard(stage)
    resources.update(web_resources(stage))

    parameters = {
        "AlarmTopicArn": {"Type": "String", "Default": "",
                          "Description": "An existing SNS topic for alarms; empty: the stack makes one"},
        "AlarmEmail": {"Type": "String", "Default": "",
                       "Description": "Subscribe this address to the stack's alarm topic (confirm the mail)"},
        "LogRetentionDays": {"Type": "Number", "Default": settings["log_retention_days"],
                             "AllowedValues": RETENTION_DAYS},
        "WebDomain": {"Type": "String", "Default": "",
                      "Description": "Custom domain for the H5 client and API (ICP-filed for mainland users)"},
        "WebCertificateArn": {"Type": "String", "Default": "",
                              "AllowedPattern": r"^(arn:aws[a-zA-Z-]*:acm:us-east-1:\d{12}:certificate/.+)?$",
                              "Description": "ACM certificate for WebDomain, in us-east-1 (CloudFront)"},
        "PushViews": {"Type": "String", "Default": ",".join(sorted(DEFAULT_PUSH_VIEWS)),
                      "AllowedPattern": r"^([a-z]+(,[a-z]+)*)?$",
                      "Description": "Game families whose room notices carry each subscriber's own view "
                                     "(empty: baohuang,zhenhuan); none: notices say only that the room changed"},
        "MonthlyBudgetUsd": {"Type": "String", "Default": "", "AllowedPattern": r"^([0-9]+(\.[0-9]{1,2})?)?$",
                             "Description": "A monthly cost budget for the whole account, in US dollars, notifying "
                                            "the alarm topic (actual past 80 %, forecast past 100 %); empty: none"},
        "ActiveTableName": {"Type": "String", "Default": "",
                            "Description": "Set by infra/ops.sh restore-table; empty: the stack's own table"},
        "ActiveStreamArn": {"Type": "String", "Default": "",
                            "AllowedPattern": r"^(arn:aws[a-zA-Z-]*:dynamodb:[a-z0-9-]+:\d{12}:table/.+/stream/.+)?$",
                            "Description": "The restored table's stream (room notices), set with ActiveTableName"},
    }
    conditions = {
        "HasAlarmTopic": {"Fn::Not": [{"Fn::Equals": [{"Ref": "AlarmTopicArn"}, ""]}]},
        "CreateAlarmTopic": {"Fn::Equals": [{"Ref": "AlarmTopicArn"}, ""]},
        "SubscribeAlarmEmail": {"Fn::And": [{"Condition": "CreateAlarmTopic"},
                                            {"Fn::Not": [{"Fn::Equals": [{"Ref": "AlarmEmail"}, ""]}]}]},
        "HasWebDomain": {"Fn::Not": [{"Fn::Equals": [{"Ref": "WebDomain"}, ""]}]},
        "HasMonthlyBudget": {"Fn::Not": [{"Fn::Equals": [{"Ref": "MonthlyBudgetUsd"}, ""]}]},
        "UseRestoredTable": {"Fn::Not": [{"Fn::Equals": [{"Ref": "ActiveTableName"}, ""]}]},
        "UseRestoredStream": {"Fn::Not": [{"Fn::Equals": [{"Ref": "ActiveStreamArn"}, ""]}]},
    }
    outputs = {
        "TableName": {"Value": _active_table()},
        "StackTableName": {"Value": {"Ref": TABLE_RESOURCE}},
        "WebURL": {"Value": {"Fn::If": ["HasWebDomain", {"Fn::Sub": "https://${WebDomain}"},
                                        {"Fn::Sub": "https://${WebDistribution.DomainName}"}]}},
        "WebBucketName": {"Value": {"Ref": "WebBucket"}},
        "WebDistributionId": {"Value": {"Ref": "WebDistribution"}},
        "SweepFailureQueueUrl": {"Value": {"Ref": "SweepFailureQueue"}},
        "LiveURL": {"Value": live_url()},
        "AlarmTopic": {"Value": _alarm_topic()},
        "DashboardURL": {"Value": {"Fn::Sub": "https://${AWS::Region}.console.aws.amazon.com/cloudwatch/home"
                                              f"?region=${{AWS::Region}}#dashboards:name=shengong-{stage}"}},
    }
    return {"Parameters": parameters, "Conditions": conditions, "Resources": resources, "Outputs": outputs}


# ---- after chalice package ----------------------------------------------------------------------

_WILD_ARN = re.compile(r"^arn:aws:([a-z0-9-]+):\*:\*:(.*)$")


def _scoped(resource: Any) -> Any:
    """``arn:aws:<svc>:*:*:<rest>`` (as in .chalice/policy-*.json) -> this stack's partition, region, account."""
    if isinstance(resource, str):
        m = _WILD_ARN.match(resource)
        if m:
            return {"Fn::Sub": f"arn:${{AWS::Partition}}:{m.group(1)}:${{AWS::Region}}:${{AWS::AccountId}}:{m.group(2)}"}
        return resource
    if isinstance(resource, list):
        return [_scoped(r) for r in resource]
    return resource


def _to_alias(node: Any) -> Any:
    """API Gateway must call (and may invoke) the alias, where gradual deployments shift traffic."""
    if isinstance(node, dict):
        return {k: _to_alias(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_to_alias(v) for v in node]
    if isinstance(node, str):
        for fn in ("APIHandler", "TokenAuthorizer"):
            node = node.replace("${" + fn + ".Arn}", "${" + fn + ".Alias}")
    return node


def finalize(sam: dict[str, Any]) -> dict[str, Any]:
    """Chalice's package (merged) -> the SAM template we deploy."""
    sam = copy.deepcopy(sam)
    res = sam["Resources"]
    res["RestAPI"]["Properties"]["DefinitionBody"]["paths"] = _to_alias(
        res["RestAPI"]["Properties"]["DefinitionBody"]["paths"])
    res["RestAPI"]["Properties"]["DefinitionBody"]["securityDefinitions"] = _to_alias(
        res["RestAPI"]["Properties"]["DefinitionBody"].get("securityDefinitions", {}))
    for fn in WEBSOCKET_FUNCTIONS:
        integration = res.get(f"{fn}APIIntegration")
        if integration is not None:
            integration["Properties"]["IntegrationUri"] = {"Fn::Sub": [
                ("arn:${AWS::Partition}:apigateway:${AWS::Region}:lambda:path/2015-03-31/functions/"
                 "${WebsocketHandler}/invocations"), {"WebsocketHandler": {"Ref": f"{fn}.Alias"}}]}
    for resource in res.values():
        if resource["Type"] == "AWS::Lambda::Permission":
            target = resource["Properties"]["FunctionName"]
            fn = target.get("Ref") or (target.get("Fn::GetAtt") or [None])[0]
            if fn in FUNCTIONS:
                resource["Properties"]["FunctionName"] = {"Ref": f"{fn}.Alias"}
        if resource["Type"] == "AWS::IAM::Role":
            for policy in resource["Properties"].get("Policies", []):
                for statement in policy["PolicyDocument"]["Statement"]:
                    statement["Resource"] = _scoped(statement["Resource"])
    return sam


def _refs(node: Any) -> set[str]:
    """Every name a template fragment refers to: Ref targets, ${...} in Fn::Sub, Fn::If conditions."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "Ref" and isinstance(value, str):
                found.add(value)
            elif key == "Fn::If" and isinstance(value, list) and value and isinstance(value[0], str):
                found.add(value[0])
            found |= _refs(value)
    elif isinstance(node, list):
        for value in node:
            found |= _refs(value)
    elif isinstance(node, str):
        found |= {name.split(".")[0] for name in re.findall(r"\$\{([^}!]+)\}", node)}
    return found


def pin_versions(cfn: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    """Name each function's published version after everything it runs with, for these parameter values.

    The alias `live` (what API Gateway, the schedules and the stream call) moves only when the template
    names a new `AWS::Lambda::Version`. SAM names it from the function as written, so a parameter the
    function reads (ActiveTableName by restore-table / use-table, WebDomain) could change $LATEST and
    leave `live` on the old version, still on the old table. Here the name hashes the function's
    properties (code, layer, timeout, environment) and the values of the parameters they (or their
    conditions) read; a version whose name did not change is left as it is. The budget is named for
    these values too (`pin_budget`)."""
    resources, params = cfn["Resources"], cfn.get("Parameters", {})
    conditions = cfn.get("Conditions", {})
    renames: dict[str, str] = {}
    for vid, version in resources.items():
        if version.get("Type") != "AWS::Lambda::Version":
            continue
        fn = version["Properties"]["FunctionName"]["Ref"]
        props = resources[fn]["Properties"]
        names = _refs(props)
        names |= set().union(*(_refs(conditions[c]) for c in names & conditions.keys()))
        read = {p: values.get(p, str(params[p].get("Default", ""))) for p in sorted(names & params.keys())}
        digest = hashlib.sha256(json.dumps([props, read], sort_keys=True).encode()).hexdigest()[:10]
        if vid != f"{fn}Version{digest}":
            renames[vid] = f"{fn}Version{digest}"
    text = json.dumps(cfn, ensure_ascii=False)
    for old, new in renames.items():
        text = text.replace(f'"{old}"', f'"{new}"').replace("${" + old + "}", "${" + new + "}")
        text = text.replace("${" + old + ".", "${" + new + ".")
    return pin_budget(dict(json.loads(text)), values)


def pin_budget(cfn: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    """Name the budget after its notices and the topic they go to, for these parameter values.

    CloudFormation cannot change a budget's notices in place: it makes a new budget, then deletes the old
    one, and Budgets refuses a second budget of the same name (the stage's whole update rolls back). So
    the name ends in a digest of the notices and their topic (ALARM_TOPIC_ARN, or the stack's own):
    moving to another topic, or new BUDGET_NOTICES, makes a budget of a new name; a new amount is
    changed in place, name kept."""
    out = copy.deepcopy(cfn)
    default = str(out.get("Parameters", {}).get("AlarmTopicArn", {}).get("Default", ""))
    for resource in out["Resources"].values():
        if resource.get("Type") != BUDGET_TYPE:
            continue
        props = resource["Properties"]
        topic = values.get("AlarmTopicArn", default)
        digest = hashlib.sha256(json.dumps([props["NotificationsWithSubscribers"], topic],
                                           sort_keys=True).encode()).hexdigest()[:6]
        base = re.sub(r"-[0-9a-f]{6}$", "", props["Budget"]["BudgetName"])
        props["Budget"]["BudgetName"] = f"{base}-{digest}"
    return out


def without_budget(cfn: dict[str, Any]) -> dict[str, Any]:
    """The same template with no budget in it: for a region whose CloudFormation has no
    AWS::Budgets::Budget (ap-east-1 among them), where no budget is set, so nothing names the type."""
    out = copy.deepcopy(cfn)
    out["Resources"] = {k: v for k, v in out["Resources"].items() if v.get("Type") != BUDGET_TYPE}
    return out


def urgent(cfn: dict[str, Any]) -> dict[str, Any]:
    """The same template, its functions shifted all at once with no alarm stopping the shift: for a
    rollback or a forward fix made *because* an alarm fires. Otherwise CodeDeploy would stop that very
    shift on the alarm (DEPLOYMENT_STOP_ON_ALARM) and roll the fix back; the next plain deploy brings the
    canary and its alarms back."""
    out = copy.deepcopy(cfn)
    for resource in out["Resources"].values():
        if resource.get("Type") != "AWS::CodeDeploy::DeploymentGroup":
            continue
        props = resource["Properties"]
        props["DeploymentConfigName"] = {"Fn::Sub": ["CodeDeployDefault.Lambda${ConfigName}", {"ConfigName": "AllAtOnce"}]}
        props.pop("AlarmConfiguration", None)
        rollback = props.get("AutoRollbackConfiguration", {})
        rollback["Events"] = [e for e in rollback.get("Events", []) if e != "DEPLOYMENT_STOP_ON_ALARM"]
    return out


def expand(sam: dict[str, Any], region: str) -> dict[str, Any]:
    """The SAM transform, locally (aws-sam-translator): the plain template CloudFormation would run."""
    import boto3
    from samtranslator.parser.parser import Parser
    from samtranslator.translator.arn_generator import ArnGenerator
    from samtranslator.translator.translator import Translator

    ArnGenerator.BOTO_SESSION_REGION_NAME = region
    translator = Translator(managed_policy_map={}, sam_parser=Parser(),
                            boto_session=boto3.session.Session(region_name=region))
    logging.getLogger("samtranslator").setLevel(logging.ERROR)  # feature-toggle chatter
    return translator.translate(sam_template=copy.deepcopy(sam), parameter_values={})


# ---- IAM (the policy files Chalice attaches to each function's role) ------------------------------


def _logs(stage: str, functions: list[str]) -> dict[str, Any]:
    return {"Sid": "Logs", "Effect": "Allow", "Action": ["logs:CreateLogStream", "logs:PutLogEvents"],
            "Resource": [f"arn:aws:logs:*:*:log-group:{log_group_name(stage, fn)}:*" for fn in functions]}


def _table(stage: str, role: str = "api") -> dict[str, Any]:
    arns = []
    for name in (table_name(stage), restored_table_prefix(stage) + "*"):
        arns.append(f"arn:aws:dynamodb:*:*:table/{name}")
        if role not in ROLE_TABLE_ACTIONS:
            arns.append(f"arn:aws:dynamodb:*:*:table/{name}/index/*")
    return {"Sid": "GameTable", "Effect": "Allow", "Action": ROLE_TABLE_ACTIONS.get(role, DYNAMODB_ACTIONS),
            "Resource": arns}


def _secrets(stage: str, names: tuple[str, ...]) -> dict[str, Any]:
    # a secret's ARN ends in -<6 random characters>
    return {"Sid": "Secrets", "Effect": "Allow", "Action": ["secretsmanager:GetSecretValue"],
            "Resource": [f"arn:aws:secretsmanager:*:*:secret:{secret_id(stage, n)}-??????" for n in names]}


def _xray() -> dict[str, Any]:
    return {"Sid": "Tracing", "Effect": "Allow", "Action": XRAY_ACTIONS, "Resource": "*"}


def iam_policy(stage: str, role: str = "api") -> dict[str, Any]:
    """The least-privilege policy of one role: api, authorizer or sweeps."""
    functions = [fn for fn, r in FUNCTION_ROLE.items() if r == role]
    statements: list[dict[str, Any]] = []
    if any(FUNCTION_TABLE[fn] for fn in functions):
        statements.append(_table(stage, role))
    if STREAM_FUNCTION in functions:
        statements.append({"Sid": "TableStream", "Effect": "Allow", "Action": STREAM_ACTIONS,
                           "Resource": [f"arn:aws:dynamodb:*:*:table/{name}/stream/*"
                                        for name in (table_name(stage), restored_table_prefix(stage) + "*")]})
    if role in PUSH_ROLES:
        # this stack's WebSocket API only (finalize turns ${WebsocketAPI} into its id); the fan-out also
        # closes the sockets of expired connections (DELETE)
        methods = ("POST", "DELETE") if STREAM_FUNCTION in functions else ("POST",)
        connections = [f"arn:aws:execute-api:*:*:${{WebsocketAPI}}/{API_STAGE}/{m}/@connections/*" for m in methods]
        statements.append({"Sid": "PostToConnections", "Effect": "Allow", "Action": ["execute-api:ManageConnections"],
                           "Resource": connections if len(connections) > 1 else connections[0]})
    names = tuple(n for n in SECRETS if any(n in FUNCTION_SECRETS[fn] for fn in functions))
    if names:
        statements.append(_secrets(stage, names))
    if any(fn in SCHEDULED for fn in functions):
        statements.append({"Sid": "FailedSweeps", "Effect": "Allow", "Action": ["sqs:SendMessage"],
                           "Resource": f"arn:aws:sqs:*:*:{queue_name(stage)}"})
    statements += [_logs(stage, functions), _xray()]
    return {"Version": "2012-10-17", "Statement": statements}


def policy_file(stage: str, role: str) -> str:
    return f"policy-{stage}-{role}.json"


def policy_files() -> dict[str, dict[str, Any]]:
    """Every checked-in policy file under .chalice/, by file name."""
    return {policy_file(stage, role): iam_policy(stage, role)
            for stage in STAGES for role in sorted(set(FUNCTION_ROLE.values()))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stage")
    parser.add_argument("--policies", action="store_true", help="rewrite the policy files under .chalice/")
    args = parser.parse_args(argv)
    if args.policies:
        chalice_dir = ROOT / ".chalice"
        for old in chalice_dir.glob("policy-*.json"):
            if old.name not in policy_files():
                old.unlink()
        for name, doc in policy_files().items():
            (chalice_dir / name).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        return 0
    if not args.stage:
        parser.error("--stage is required")
    json.dump(merge_template(args.stage), sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
