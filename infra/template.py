"""The CloudFormation pieces Chalice does not make, merged into its package with --merge-template.

    .venv/bin/python -m infra.template --stage dev > build/resources-dev.json
    .venv/bin/python -m infra.template --policies     # rewrite .chalice/policy-*.json

Table (from chalicelib/store/table.py, the single definition), the environment every function
needs (table name; secrets resolved by CloudFormation from Secrets Manager, never in the repo),
Gateway Responses that give API Gateway's own errors the API's error shape, and the least-privilege
IAM policy for the functions' role.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from chalicelib.store.table import cloudformation_resource

TABLE_RESOURCE = "GameTable"
THROTTLE_RATE = 200
"""Requests per second for the whole stage (a phone polls every few seconds; raise with traffic)."""
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

GATEWAY_ERRORS = {
    "UNAUTHORIZED": ("401", "UNAUTHENTICATED", "请先登录"),
    "ACCESS_DENIED": ("403", "FORBIDDEN", "无权访问"),
    "MISSING_AUTHENTICATION_TOKEN": ("404", "NOT_FOUND", "没有这个接口"),
    "THROTTLED": ("429", "RATE_LIMITED", "操作太频繁，请稍后再试"),
    "DEFAULT_4XX": (None, "BAD_REQUEST", "请求有误"),
    "DEFAULT_5XX": (None, "INTERNAL_ERROR", "服务器开小差了，请稍后再试"),
}


def table_name(stage: str) -> str:
    return f"shengong-{stage}"


def secret_id(stage: str, name: str) -> str:
    return f"shengong/{stage}/{name}"


def merge_template(stage: str) -> dict[str, Any]:
    table = cloudformation_resource()
    table["Properties"]["TableName"] = table_name(stage)
    resources: dict[str, Any] = {TABLE_RESOURCE: table}
    for kind, (status, code, message) in GATEWAY_ERRORS.items():
        response: dict[str, Any] = {
            "Type": "AWS::ApiGateway::GatewayResponse",
            "Properties": {
                "RestApiId": {"Ref": "RestAPI"},
                "ResponseType": kind,
                "ResponseTemplates": {
                    "application/json": json.dumps({"code": code, "message": message}, ensure_ascii=False)},
                "ResponseParameters": {"gatewayresponse.header.Access-Control-Allow-Origin": "'*'"},
            },
        }
        if status:
            response["Properties"]["StatusCode"] = status
        resources[f"GatewayResponse{''.join(p.title() for p in kind.split('_'))}"] = response
    secret = "{{resolve:secretsmanager:%s}}"
    table = {"TABLE_NAME": {"Ref": TABLE_RESOURCE}}
    token = {"TOKEN_SECRET": secret % secret_id(stage, "token-secret")}
    wechat = {env: secret % f"{secret_id(stage, 'wechat')}:SecretString:{key}"
              for env, key in (("WECHAT_APPID", "appid"), ("WECHAT_SECRET", "secret"),
                               ("ADMIN_OPENIDS", "admin_openids"))}
    # each function gets only what it uses: the authorizer no table, the sweeps no secrets
    function_env = {
        "APIHandler": {**table, **token, **wechat},
        "TokenAuthorizer": token,
        "SettleOverdue": table,
        "ExpireStalled": table,
    }
    for function, variables in function_env.items():
        resources[function] = {"Properties": {"Environment": {"Variables": variables}}}
    # per-stage throttling: a runaway client gets API Gateway's 429 (our shape, above) before it costs
    resources["RestAPI"] = {"Properties": {"MethodSettings": [{
        "ResourcePath": "/*", "HttpMethod": "*", "ThrottlingRateLimit": THROTTLE_RATE,
        "ThrottlingBurstLimit": THROTTLE_BURST, "MetricsEnabled": True,
    }]}}
    return {
        "Resources": resources,
        "Outputs": {"TableName": {"Value": {"Ref": TABLE_RESOURCE}}},
    }


def iam_policy(stage: str) -> dict[str, Any]:
    table_arn = f"arn:aws:dynamodb:*:*:table/{table_name(stage)}"
    return {
        "Version": "2012-10-17",
        "Statement": [
            {"Sid": "GameTable", "Effect": "Allow", "Action": DYNAMODB_ACTIONS,
             "Resource": [table_arn, f"{table_arn}/index/*"]},
            {"Sid": "Logs", "Effect": "Allow",
             "Action": ["logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents"],
             "Resource": "arn:aws:logs:*:*:*"},
        ],
    }


def authorizer_policy() -> dict[str, Any]:
    """The token authorizer verifies a signature: it needs nothing but its logs."""
    return {
        "Version": "2012-10-17",
        "Statement": [{"Sid": "Logs", "Effect": "Allow",
                       "Action": ["logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents"],
                       "Resource": "arn:aws:logs:*:*:*"}],
    }


def policy_files() -> dict[str, dict[str, Any]]:
    """Every checked-in policy file under .chalice/, by file name."""
    files = {f"policy-{stage}.json": iam_policy(stage) for stage in ("dev", "prod")}
    files["policy-authorizer.json"] = authorizer_policy()
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stage")
    parser.add_argument("--policies", action="store_true", help="rewrite the policy files under .chalice/")
    args = parser.parse_args(argv)
    if args.policies:
        from pathlib import Path

        chalice_dir = Path(__file__).resolve().parent.parent / ".chalice"
        for name, doc in policy_files().items():
            (chalice_dir / name).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        return 0
    if not args.stage:
        parser.error("--stage is required")
    doc = merge_template(args.stage)
    json.dump(doc, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
