"""Push in the deployable template (packaged, expanded, linted by test_template.py): the WebSocket
API's three routes calling the functions' alias, the table's stream feeding the stream function
through a filtered event source with bounded retries, each push function's least-privilege role,
the lag and error alarms, and the socket's address on the web domain."""

from __future__ import annotations

import json

from chalicelib.push.fanout import FILTER_PATTERNS
from infra import template


def _of(cfn, kind):
    return {k: v for k, v in cfn["Resources"].items() if v["Type"] == kind}


def _statements(cfn, fn):
    role = cfn["Resources"][fn]["Properties"]["Role"]["Fn::GetAtt"][0]
    return {st["Sid"]: st for p in cfn["Resources"][role]["Properties"]["Policies"]
            for st in p["PolicyDocument"]["Statement"]}


def test_the_websocket_api_routes_call_each_functions_alias(packaged):
    _, cfn, _ = packaged
    (api,) = _of(cfn, "AWS::ApiGatewayV2::Api").values()
    assert api["Properties"]["ProtocolType"] == "WEBSOCKET"
    routes = {r["Properties"]["RouteKey"] for r in _of(cfn, "AWS::ApiGatewayV2::Route").values()}
    assert routes == {"$connect", "$default", "$disconnect"}
    (stage,) = _of(cfn, "AWS::ApiGatewayV2::Stage").values()
    assert stage["Properties"]["StageName"] == template.API_STAGE
    for fn in template.WEBSOCKET_FUNCTIONS:
        uri = cfn["Resources"][f"{fn}APIIntegration"]["Properties"]["IntegrationUri"]
        assert uri["Fn::Sub"][1] == {"WebsocketHandler": {"Ref": f"{fn}Aliaslive"}}, fn
        perm = cfn["Resources"][f"{fn}InvokePermission"]["Properties"]
        assert perm["FunctionName"] == {"Ref": f"{fn}Aliaslive"} and perm["Principal"] == "apigateway.amazonaws.com"


def test_the_tables_stream_feeds_the_stream_function_filtered_with_bounded_retries(packaged):
    _, cfn, _ = packaged
    table = cfn["Resources"][template.TABLE_RESOURCE]["Properties"]
    assert table["StreamSpecification"] == {"StreamViewType": "NEW_AND_OLD_IMAGES"}
    (mapping,) = _of(cfn, "AWS::Lambda::EventSourceMapping").values()
    props = mapping["Properties"]
    # the stack's table's stream, or the restored table's while `restore-table` has the stage on it
    assert props["EventSourceArn"] == {"Fn::If": ["UseRestoredStream", {"Ref": "ActiveStreamArn"},
                                                  {"Fn::GetAtt": [template.TABLE_RESOURCE, "StreamArn"]}]}
    assert cfn["Conditions"]["UseRestoredStream"] == {"Fn::Not": [{"Fn::Equals": [{"Ref": "ActiveStreamArn"}, ""]}]}
    assert cfn["Parameters"]["ActiveStreamArn"]["Default"] == ""
    assert props["FunctionName"] == {"Ref": f"{template.STREAM_FUNCTION}Aliaslive"}
    assert props["StartingPosition"] == "LATEST" and props["MaximumRetryAttempts"] == 2
    assert props["BisectBatchOnFunctionError"] is True and props["MaximumRecordAgeInSeconds"] == 60
    assert [json.loads(f["Pattern"]) for f in props["FilterCriteria"]["Filters"]] == list(FILTER_PATTERNS)
    env = cfn["Resources"][template.STREAM_FUNCTION]["Properties"]["Environment"]["Variables"]
    assert env["WEBSOCKET_API_ID"] == {"Ref": "WebsocketAPI"} and env["WEBSOCKET_STAGE"] == template.API_STAGE
    assert env["WECHAT_SECRET_ID"] == "shengong/prod/wechat" and "TOKEN_KEYS_SECRET_ID" not in env


def test_each_push_function_may_do_exactly_its_job(packaged):
    _, cfn, _ = packaged
    connect = _statements(cfn, "WebsocketConnect")
    assert connect["GameTable"]["Action"] == ["dynamodb:PutItem"]
    assert "token-keys" in json.dumps(connect["Secrets"]) and "PostToConnections" not in connect
    disconnect = _statements(cfn, "WebsocketDisconnect")
    assert disconnect["GameTable"]["Action"] == ["dynamodb:DeleteItem"] and set(disconnect) == {
        "GameTable", "Logs", "Tracing"}
    message = _statements(cfn, "WebsocketMessage")
    assert "Secrets" not in message and "PostToConnections" in message
    stream = _statements(cfn, template.STREAM_FUNCTION)
    assert stream["TableStream"]["Action"] == template.STREAM_ACTIONS
    streams = [r["Fn::Sub"] if isinstance(r, dict) else r for r in stream["TableStream"]["Resource"]]
    assert [r.split(":table/")[1] for r in streams] == ["shengong-prod/stream/*",
                                                         "shengong-prod-restored-*/stream/*"]  # restore-table
    for statements, methods in ((message, ["POST"]), (stream, ["POST", "DELETE"])):  # the fan-out closes too
        post = statements["PostToConnections"]
        assert post["Action"] == ["execute-api:ManageConnections"]
        resources = post["Resource"] if isinstance(post["Resource"], list) else [post["Resource"]]
        assert [r["Fn::Sub"].rsplit(":", 1)[1] for r in resources] == [  # this API only
            f"${{WebsocketAPI}}/v/{m}/@connections/*" for m in methods]
    for fn in (*template.WEBSOCKET_FUNCTIONS, template.STREAM_FUNCTION):
        table = _statements(cfn, fn)["GameTable"]
        assert not any("index" in r["Fn::Sub"] for r in table["Resource"]), fn  # push never reads an index
        assert "dynamodb:Scan" not in table["Action"] and "dynamodb:BatchWriteItem" not in table["Action"]


def test_notice_lag_and_errors_raise_alarms_and_roll_a_deployment_back(packaged):
    _, cfn, _ = packaged
    lag = cfn["Resources"]["PushLagAlarm"]["Properties"]
    assert (lag["MetricName"], lag["Statistic"], lag["Threshold"]) == ("IteratorAge", "Maximum", template.PUSH_LAG_MS)
    assert lag["Dimensions"] == [{"Name": "FunctionName", "Value": {"Ref": template.STREAM_FUNCTION}}]
    errors = json.dumps(cfn["Resources"]["PushErrorsAlarm"]["Properties"]["Metrics"])
    assert "PushErrors" in errors and "PushSendErrors" in errors
    group = cfn["Resources"][f"{template.STREAM_FUNCTION}DeploymentGroup"]["Properties"]
    assert {a["Name"]["Ref"] for a in group["AlarmConfiguration"]["Alarms"]} == {
        "RoomStreamErrorsAlarm", "PushErrorsAlarm"}


def test_clients_learn_the_sockets_address_on_the_web_domain(packaged):
    _, cfn, _ = packaged
    live = cfn["Resources"]["APIHandler"]["Properties"]["Environment"]["Variables"]["LIVE_URL"]
    assert live["Fn::If"][0] == "HasWebDomain" and live["Fn::If"][1] == {"Fn::Sub": "wss://${WebDomain}/v"}
    assert "${WebsocketAPI}.execute-api" in live["Fn::If"][2]["Fn::Sub"]
    dist = cfn["Resources"]["WebDistribution"]["Properties"]["DistributionConfig"]
    origins = {o["Id"]: o for o in dist["Origins"]}
    assert "OriginPath" not in origins["live"]  # /v is the stage itself
    paths = {b["PathPattern"]: b for b in dist["CacheBehaviors"]}
    assert paths["/v"]["TargetOriginId"] == "live" and paths["/v"]["CachePolicyId"] == template.CACHING_DISABLED
    assert paths["/v"]["OriginRequestPolicyId"] == template.ALL_VIEWER_EXCEPT_HOST  # the token's query string
    assert cfn["Outputs"]["LiveURL"]["Value"] == live
