"""Where moto's CloudFormation stops: the resource types in our template it cannot create.

moto (5.2.5) skips a resource type it does not implement, and a resource that refers to a skipped one
fails (a Lambda permission on the alias, for instance). So for exactly these types the deploy tests
register a *stand-in*: it records the resource and hands out an id and the attributes the template
reads (`Fn::GetAtt`), and does nothing else. The alias stand-in also creates the alias through moto's
Lambda API (moto has aliases, only not in CloudFormation), so what refers to it resolves; likewise the
budget (moto's Budgets API) and the topic policy (set on the topic through moto's SNS API), so the
tests read them back. Everything else in the stack is created by moto itself. docs/operations.md lists the same types; a test keeps
this list equal to what moto lacks.
"""

from __future__ import annotations

import itertools
from typing import Any, ClassVar

from moto.cloudformation import parsing
from moto.core.common_models import CloudFormationModel

MOTO_LACKS = {
    "AWS::ApiGateway::Stage": "the stage (throttling, access logs, tracing): checked in the expanded template",
    "AWS::Lambda::Alias": "the alias `live`: stand-in creates it through moto's Lambda API",
    "AWS::Lambda::EventInvokeConfig": "the sweeps' on-failure queue: checked in the expanded template",
    "AWS::CodeDeploy::Application": "gradual deployments: not emulated",
    "AWS::CodeDeploy::DeploymentGroup": "gradual deployments and their rollback alarms: not emulated",
    "AWS::CloudWatch::Alarm": "alarms: checked in the expanded template",
    "AWS::CloudFront::Distribution": "the web distribution: not emulated (the upload goes to the bucket)",
    "AWS::CloudFront::OriginAccessControl": "origin access control: not emulated",
    "AWS::CloudFront::Function": "the web pages' viewer-request function: run in Node by the template tests",
    "AWS::S3::BucketPolicy": "the web bucket's CloudFront-only policy: checked in the expanded template",
    "AWS::SNS::Subscription": "the alarm e-mail subscription: not emulated",
    "AWS::ApiGatewayV2::Api": "the WebSocket API (room notices): checked in the expanded template",
    "AWS::ApiGatewayV2::Integration": "the WebSocket routes' calls to the functions' alias: expanded template",
    "AWS::ApiGatewayV2::Route": "the WebSocket routes $connect, $default, $disconnect: expanded template",
    "AWS::ApiGatewayV2::Deployment": "the WebSocket API's deployment: not emulated",
    "AWS::ApiGatewayV2::Stage": "the WebSocket API's stage v: expanded template",
    "AWS::Budgets::Budget": "the monthly budget: the stand-in makes it through moto's Budgets API",
    "AWS::SNS::TopicPolicy": "the alarm topic's policy: the stand-in sets it on the topic through moto's SNS API",
}
MOTO_PARTIAL = {
    "AWS::Lambda::LayerVersion": "moto makes the layer, but its Ref is the object, not the ARN, which breaks "
                                 "updating a function that uses it: the stand-in publishes the layer through "
                                 "moto's Lambda API and answers its ARN",
    "AWS::Lambda::Function": "moto creates the function but ignores Layers, TracingConfig and LoggingConfig "
                             "(no stand-in: checked in the expanded template)",
    "AWS::ApiGateway::Deployment": "moto makes the REST API but does not import its OpenAPI body, so deploying "
                                   "it fails ('no methods'): stand-in (the body is checked in the expanded template)",
    "AWS::Lambda::Version": "moto publishes a version but cannot give its number (Fn::GetAtt Version): the "
                            "stand-in publishes through moto's Lambda API and answers it",
    "AWS::Lambda::EventSourceMapping": "moto updates a mapping in place and keeps its old source; CloudFormation "
                                      "replaces one whose EventSourceArn changes (restore-table's stream): the "
                                      "tests make moto replace it too",
}
_ids = itertools.count(1)


class _StandIn:
    """Mixed into a CloudFormationModel per type (moto finds models among its direct subclasses)."""

    TYPE = ""
    created: ClassVar[list[tuple[str, str]]] = []
    """(type, logical id) of every stand-in made, for the tests."""

    @classmethod
    def cloudformation_type(cls) -> str:
        return cls.TYPE

    def __init__(self, logical_id: str, properties: dict[str, Any], account_id: str, region: str) -> None:
        self.logical_id = logical_id
        self.properties = properties
        self.physical_resource_id = f"{logical_id}-standin{next(_ids)}"
        self.account_id = account_id
        self.region = region

    @staticmethod
    def cloudformation_name_type() -> str:
        return ""

    @classmethod
    def has_cfn_attr(cls, attr: str) -> bool:
        return True

    def get_cfn_attribute(self, attribute_name: str) -> Any:
        if attribute_name == "DomainName":
            return "d1234567890abc.cloudfront.net"
        if attribute_name in ("Arn", "FunctionMetadata.FunctionARN"):
            return f"arn:aws:standin:{self.region}:{self.account_id}:{self.physical_resource_id}"
        return self.physical_resource_id

    @classmethod
    def create_from_cloudformation_json(  # type: ignore[misc, override]
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str,
        **kwargs: Any,
    ) -> _StandIn:
        cls.created.append((cls.TYPE, resource_name))
        return cls(resource_name, dict(cloudformation_json.get("Properties", {})), account_id, region_name)

    @classmethod
    def update_from_cloudformation_json(  # type: ignore[misc, override]
        cls, original_resource: Any, new_resource_name: str, cloudformation_json: dict[str, Any], account_id: str,
        region_name: str,
    ) -> _StandIn:
        return cls.create_from_cloudformation_json(new_resource_name, cloudformation_json, account_id, region_name)

    @classmethod
    def delete_from_cloudformation_json(  # type: ignore[misc, override]
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str,
    ) -> None:
        return None

    def is_created(self) -> bool:
        return True


class _Alias(_StandIn, CloudFormationModel):
    TYPE = "AWS::Lambda::Alias"


    @classmethod
    def create_from_cloudformation_json(  # type: ignore[misc, override]
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str,
        **kwargs: Any,
    ) -> _StandIn:
        from moto.awslambda.models import lambda_backends

        made = super().create_from_cloudformation_json(resource_name, cloudformation_json, account_id, region_name)
        props = made.properties
        backend = lambda_backends[account_id][region_name]
        version = str(props.get("FunctionVersion") or "$LATEST")
        try:
            alias = backend.get_alias(props["Name"], props["FunctionName"])
            backend.update_alias(props["Name"], props["FunctionName"], version, "", None)
        except Exception:  # noqa: BLE001 - not there yet
            alias = backend.create_alias(props["Name"], props["FunctionName"], version, "", None)
        made.physical_resource_id = alias.arn
        return made


class _Version(_StandIn, CloudFormationModel):
    TYPE = "AWS::Lambda::Version"


    @classmethod
    def create_from_cloudformation_json(  # type: ignore[misc, override]
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str,
        **kwargs: Any,
    ) -> _StandIn:
        from moto.awslambda.models import lambda_backends

        made = super().create_from_cloudformation_json(resource_name, cloudformation_json, account_id, region_name)
        fn = lambda_backends[account_id][region_name].publish_version(made.properties["FunctionName"])
        made.version = str(fn.version)  # type: ignore[attr-defined]
        made.physical_resource_id = fn.function_arn
        return made

    def get_cfn_attribute(self, attribute_name: str) -> Any:
        return self.version if attribute_name == "Version" else super().get_cfn_attribute(attribute_name)  # type: ignore[attr-defined]


class _LayerVersion(_StandIn, CloudFormationModel):
    TYPE = "AWS::Lambda::LayerVersion"


    @classmethod
    def create_from_cloudformation_json(  # type: ignore[misc, override]
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str,
        **kwargs: Any,
    ) -> _StandIn:
        from moto.awslambda.models import lambda_backends

        made = super().create_from_cloudformation_json(resource_name, cloudformation_json, account_id, region_name)
        props = made.properties
        layer = lambda_backends[account_id][region_name].publish_layer_version({
            "LayerName": props.get("LayerName") or resource_name, "Content": props["Content"],
            "CompatibleRuntimes": props.get("CompatibleRuntimes", [])})
        made.physical_resource_id = layer.arn
        return made


class _Budget(_StandIn, CloudFormationModel):
    """Made through moto's Budgets API (moto has budgets, only not in CloudFormation), so the tests read it
    back as an operator would; its physical id is its name, as CloudFormation's Ref gives it."""

    TYPE = "AWS::Budgets::Budget"


    @staticmethod
    def _backend(account_id: str, region_name: str) -> Any:
        from moto.budgets.models import budgets_backends
        from moto.utilities.utils import get_partition

        return budgets_backends[account_id][get_partition(region_name)]

    @classmethod
    def create_from_cloudformation_json(  # type: ignore[misc, override]
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str,
        **kwargs: Any,
    ) -> _StandIn:
        made = super().create_from_cloudformation_json(resource_name, cloudformation_json, account_id, region_name)
        budget = dict(made.properties["Budget"])
        backend = cls._backend(account_id, region_name)
        backend.budgets[account_id].pop(budget["BudgetName"], None)  # moto made it once already (its update)
        backend.create_budget(account_id, budget, list(made.properties.get("NotificationsWithSubscribers", [])))
        made.physical_resource_id = budget["BudgetName"]
        return made

    @classmethod
    def update_from_cloudformation_json(  # type: ignore[misc, override]
        cls, original_resource: Any, new_resource_name: str, cloudformation_json: dict[str, Any], account_id: str,
        region_name: str,
    ) -> _StandIn:
        cls._backend(account_id, region_name).budgets[account_id].pop(original_resource.physical_resource_id, None)
        return cls.create_from_cloudformation_json(new_resource_name, cloudformation_json, account_id, region_name)

    @classmethod
    def delete_from_cloudformation_json(  # type: ignore[misc, override]
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str,
    ) -> None:
        cls._backend(account_id, region_name).budgets[account_id].pop(resource_name, None)


class _TopicPolicy(_StandIn, CloudFormationModel):
    """Sets the policy on each topic through moto's SNS API, so the tests read it back from the topic."""

    TYPE = "AWS::SNS::TopicPolicy"


    @classmethod
    def create_from_cloudformation_json(  # type: ignore[misc, override]
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str,
        **kwargs: Any,
    ) -> _StandIn:
        import json

        from moto.sns.models import sns_backends

        made = super().create_from_cloudformation_json(resource_name, cloudformation_json, account_id, region_name)
        for topic in made.properties["Topics"]:
            sns_backends[account_id][region_name].set_topic_attribute(
                topic, "policy", json.dumps(made.properties["PolicyDocument"]))
        return made


_INSTALLED: set[str] = set()


MOTO_LACKS_OPERATIONS = {
    "lambda:GetAccountSettings": "the deploy's concurrency check: answered from moto's own reservations and "
                                 "MOTO_LAMBDA_CONCURRENCY_QUOTA (moto's quota for PutFunctionConcurrency, "
                                 "default 1000)",
    "cloudformation:DescribeType": "the deploy's check that the region makes budgets: answered from cfn-lint's "
                                   "per-region lists of CloudFormation's resource types (ap-east-1 has no "
                                   "AWS::Budgets::Budget)",
    "cloudformation:UpdateStack (conditions)": "moto's update ignores a resource's Condition: it updates one whose "
                                               "condition is false and never makes one whose condition turned "
                                               "true; the tests make it create and delete them as CloudFormation "
                                               "does (MONTHLY_BUDGET_USD set by a later deploy)",
}


def _account_settings(self: Any) -> tuple[int, dict[str, str], str]:
    """GetAccountSettings as Lambda answers it, from the reservations moto holds."""
    import json
    import os

    from moto.awslambda.models import lambda_backends

    quota = int(os.environ.get("MOTO_LAMBDA_CONCURRENCY_QUOTA", "1000"))
    functions = lambda_backends[self.current_account][self.region].list_functions()
    reserved = sum(int(f.reserved_concurrency or 0) for f in functions)
    return 200, {}, json.dumps({"AccountLimit": {
        "TotalCodeSize": 80530636800, "CodeSizeUnzipped": 262144000, "CodeSizeZipped": 52428800,
        "ConcurrentExecutions": quota, "UnreservedConcurrentExecutions": quota - reserved},
        "AccountUsage": {"TotalCodeSize": 0, "FunctionCount": len(functions)}})


def _describe_type(self: Any) -> Any:
    """DescribeType of a resource type as CloudFormation answers in this region: the type, or
    TypeNotFoundException where the region has no such type (cfn-lint keeps each region's list)."""
    from cfnlint.schema import PROVIDER_SCHEMA_MANAGER, ResourceNotFoundError
    from moto.cloudformation.exceptions import CloudFormationError
    from moto.core.responses import ActionResult

    class TypeNotFound(CloudFormationError):
        code = "TypeNotFoundException"

    name = self._get_param("TypeName")
    try:
        PROVIDER_SCHEMA_MANAGER.get_resource_schema(self.region, name)
    except ResourceNotFoundError as e:  # not in this region
        raise TypeNotFound(f"The type '{name}' cannot be found.") from e
    arn = f"arn:aws:cloudformation:{self.region}::type/resource/{name.replace('::', '-')}"
    return ActionResult({"Arn": arn, "Type": "RESOURCE", "TypeName": name, "Visibility": "PUBLIC",
                         "ProvisioningType": "FULLY_MUTABLE", "DeprecatedStatus": "LIVE"})


_moto_update = parsing.parse_and_update_resource


def _conditional_update(logical_id: str, resource_json: dict[str, Any], resources_map: Any, account_id: str,
                        region_name: str) -> Any:
    """A resource in an update, as CloudFormation treats its Condition: false, it is deleted (if it was
    made); turned true, it is made now; true before and after, updated as moto does."""
    condition = resource_json.get("Condition")
    made = resources_map._parsed_resources.get(logical_id)
    if condition and not resources_map.lazy_condition_map[condition]:
        if made is not None:
            resources_map._delete_resource(made, resource_json)
        resources_map._parsed_resources.pop(logical_id, None)
        return None
    if made is None:
        resources_map._parsed_resources.pop(logical_id, None)
        return resources_map[logical_id]  # (ResourceMap makes a resource on its first look-up)
    return _moto_update(logical_id, resource_json, resources_map, account_id, region_name)


def _replacing_update(cls: Any, original_resource: Any, new_resource_name: str, cloudformation_json: dict[str, Any],
                      account_id: str, region_name: str) -> Any:
    """AWS::Lambda::EventSourceMapping updated as CloudFormation does: a new source means a new mapping."""
    from moto.awslambda.models import lambda_backends

    backend = lambda_backends[account_id][region_name]
    props = cloudformation_json["Properties"]
    if props.get("EventSourceArn") == original_resource.event_source_arn:
        return backend.update_event_source_mapping(original_resource.uuid, props)
    backend.delete_event_source_mapping(original_resource.uuid)
    return cls.create_from_cloudformation_json(new_resource_name, cloudformation_json, account_id, region_name)


def _install_operations() -> None:
    from moto.awslambda import urls
    from moto.awslambda.models import EventSourceMapping
    from moto.awslambda.responses import LambdaResponse
    from moto.cloudformation.responses import CloudFormationResponse

    urls.url_paths.setdefault(r"{0}/(?P<api_version>[^/]+)/account-settings/?$", LambdaResponse.dispatch)
    LambdaResponse.get_account_settings = _account_settings  # type: ignore[attr-defined]
    CloudFormationResponse.describe_type = _describe_type  # type: ignore[attr-defined]
    parsing.parse_and_update_resource = _conditional_update
    EventSourceMapping.update_from_cloudformation_json = classmethod(_replacing_update)  # type: ignore[method-assign, assignment]


def install() -> None:
    """Register a stand-in for each type moto lacks (idempotent); later models win in moto's type map."""
    _install_operations()
    for kind in (*MOTO_LACKS, *MOTO_PARTIAL):
        if kind in (_Alias.TYPE, _Version.TYPE, _LayerVersion.TYPE, _Budget.TYPE, _TopicPolicy.TYPE,
                    "AWS::Lambda::Function", "AWS::Lambda::EventSourceMapping", *_INSTALLED):
            continue
        _INSTALLED.add(kind)
        type(f"StandIn{kind.replace('::', '')}", (_StandIn, CloudFormationModel), {
            "TYPE": kind, "cloudformation_type": staticmethod(lambda kind=kind: kind)})
    parsing.get_model_list.cache_clear()
    parsing.get_model_map.cache_clear()
    parsing.get_name_type_map.cache_clear()


def native_types() -> set[str]:
    """Types moto's CloudFormation implements itself (fully or, see MOTO_PARTIAL, in part)."""
    return {m.cloudformation_type() for m in CloudFormationModel.__subclasses__()
            if not issubclass(m, _StandIn)} | set(parsing.NULL_MODELS)
