"""Secrets at run time and failing closed: token keys with ids and rotation overlap, secrets read from
Secrets Manager (moto) and cached, and a Lambda with missing configuration answering 503, never
falling back to the local secret or the development login."""

from __future__ import annotations

import json
import os

import pytest

from chalicelib import secrets
from chalicelib.auth import tokens
from chalicelib.config import LOCAL_SECRET, ConfigurationError, load_settings
from chalicelib.core.errors import Unauthenticated
from chalicelib.core.identity import Caller, Role

ZHEN = Caller(user_id="u1", name="甄嬛", role=Role.PLAYER)
KEYS_ID = "shengong/dev/token-keys"


@pytest.fixture
def sm():
    import boto3
    from moto import mock_aws

    secrets.clear_cache()
    with mock_aws():
        yield boto3.client("secretsmanager", region_name=os.environ["AWS_DEFAULT_REGION"])
    secrets.clear_cache()


def test_a_key_ring_signs_with_its_current_key_and_verifies_each_key_by_id():
    old = tokens.KeyRing("k1", {"k1": b"a" * 40})
    token, _ = tokens.issue(old, ZHEN, 1000, 60)
    assert tokens.verify(old, token, 1001).kid == "k1"
    both = tokens.KeyRing("k2", {"k1": b"a" * 40, "k2": b"b" * 40})
    assert tokens.verify(both, token, 1001).caller == ZHEN  # the old token survives the rotation
    new, _ = tokens.issue(both, ZHEN, 1000, 60)
    assert tokens.verify(both, new, 1001).kid == "k2"
    with pytest.raises(Unauthenticated) as e:
        tokens.verify(tokens.KeyRing("k3", {"k3": b"c" * 40}), token, 1001)  # a key dropped: logged out
    assert e.value.code == "BAD_TOKEN"
    assert "aaaa" not in repr(both) and "k1" in repr(both)  # a ring never prints a key


def test_a_forged_kid_cannot_pick_another_key():
    ring = tokens.KeyRing("k2", {"k1": b"a" * 40, "k2": b"b" * 40})
    token, _ = tokens.issue(ring, ZHEN, 1000, 60)
    body = json.loads(tokens._unb64(token.split(".")[1]))
    body["kid"] = "k1"
    forged = f"v1.{tokens._b64(json.dumps(body).encode())}.{token.split('.')[2]}"
    with pytest.raises(Unauthenticated):
        tokens.verify(ring, forged, 1001)


def test_plain_secrets_still_work_for_callers_that_pass_bytes():
    token, expires = tokens.issue(b"s" * 40, ZHEN, 1000, 60)
    assert expires == 1060 and tokens.verify(b"s" * 40, token, 1001).kid is None


def test_token_keys_come_from_secrets_manager_and_rotation_keeps_old_tokens_valid(sm):
    doc = secrets.new_token_keys(1_700_000_000)
    sm.create_secret(Name=KEYS_ID, SecretString=json.dumps(doc))
    before = secrets.token_keys(KEYS_ID)
    old_token, _ = tokens.issue(before, ZHEN, 1000, 7200)

    rotated = secrets.rotated_token_keys(doc, 1_700_000_100)
    assert set(rotated["keys"]) == {doc["current"], rotated["current"]} and rotated["current"] != doc["current"]
    sm.put_secret_value(SecretId=KEYS_ID, SecretString=json.dumps(rotated))

    # a warm instance still holds the old ring (cached) ...
    assert secrets.token_keys(KEYS_ID).kid == doc["current"]
    fresh = secrets.parse_token_keys(rotated)
    new_token, _ = tokens.issue(fresh, ZHEN, 1000, 7200)
    assert tokens.verify(fresh, old_token, 1001).kid == doc["current"]  # old tokens work during the overlap
    assert tokens.verify(fresh, new_token, 1001).kid == rotated["current"]  # new ones carry the new key id
    # ... and a token signed with the key it has not fetched yet makes it fetch once
    assert tokens.verify(secrets.token_keys(KEYS_ID), new_token, 1001).kid == rotated["current"]
    assert secrets.token_keys(KEYS_ID).kid == rotated["current"]
    # a second rotation drops the first key: only current + previous verify
    again = secrets.rotated_token_keys(rotated, 1_700_000_200)
    with pytest.raises(Unauthenticated):
        tokens.verify(secrets.parse_token_keys(again), old_token, 1001)


def test_broken_or_local_keys_are_refused():
    with pytest.raises(ValueError):
        secrets.parse_token_keys({"current": "k1", "keys": {"k1": "short"}})
    with pytest.raises(ValueError):
        secrets.parse_token_keys({"current": "k1", "keys": {"k1": LOCAL_SECRET}})
    with pytest.raises(ValueError):
        secrets.parse_token_keys({"current": "k9", "keys": {"k1": "x" * 40}})


def test_deployed_settings_read_every_secret_from_secrets_manager(sm):
    sm.create_secret(Name=KEYS_ID, SecretString=json.dumps(secrets.new_token_keys(1_700_000_000)))
    sm.create_secret(Name="shengong/dev/wechat", SecretString=json.dumps({"appid": "wx1", "secret": "app-secret"}))
    sm.create_secret(Name="shengong/dev/admins", SecretString=json.dumps({"openids": ["o-admin"]}))
    s = load_settings({"AWS_LAMBDA_FUNCTION_NAME": "fn", "STAGE": "dev", "TABLE_NAME": "t",
                       "TOKEN_KEYS_SECRET_ID": KEYS_ID, "WECHAT_SECRET_ID": "shengong/dev/wechat",
                       "ADMINS_SECRET_ID": "shengong/dev/admins"})
    assert not s.is_local and isinstance(s.token_secret, tokens.KeyRing)
    assert s.current_admins() == {"o-admin"} and s.wechat_credentials() == ("wx1", "app-secret")
    # a new admin reaches the instance when its cache expires (here: cleared)
    sm.put_secret_value(SecretId="shengong/dev/admins", SecretString=json.dumps({"openids": ["o-admin", "o-2"]}))
    assert s.current_admins() == {"o-admin"}
    secrets.clear_cache()
    assert s.current_admins() == {"o-admin", "o-2"}


def test_a_missing_secret_is_a_503_configuration_error(sm):
    s = load_settings({"AWS_LAMBDA_FUNCTION_NAME": "fn", "STAGE": "dev", "TOKEN_KEYS_SECRET_ID": "nope"})
    with pytest.raises(ConfigurationError) as e:
        _ = s.token_secret
    assert e.value.status == 503 and e.value.code == "SERVICE_UNAVAILABLE"


@pytest.mark.parametrize("env,why", [
    ({}, "STAGE"),
    ({"STAGE": "local"}, "local stage"),
    ({"STAGE": "dev", "TOKEN_SECRET": "x" * 40}, "TOKEN_SECRET"),
    ({"STAGE": "Dev!"}, "STAGE"),
])
def test_lambda_refuses_a_missing_stage_the_local_stage_and_secrets_in_the_environment(env, why):
    with pytest.raises(ConfigurationError) as e:
        load_settings({"AWS_LAMBDA_FUNCTION_NAME": "fn", **env})
    assert why in e.value.detail and e.value.status == 503


def test_lambda_without_secret_names_fails_closed_never_local():
    s = load_settings({"AWS_LAMBDA_FUNCTION_NAME": "fn", "STAGE": "dev"})
    assert not s.is_local
    for read in (lambda: s.token_secret, s.current_admins, s.wechat_credentials):
        with pytest.raises(ConfigurationError):
            read()
    deployed = load_settings({"STAGE": "dev", "TOKEN_SECRET": LOCAL_SECRET})  # not even outside Lambda
    with pytest.raises(ConfigurationError):
        _ = deployed.token_secret


def test_local_stage_needs_no_aws_at_all():
    s = load_settings({"STAGE": "local"})
    assert s.is_local and s.token_secret.kid == "local" and s.current_admins() == frozenset()


@pytest.fixture
def lambda_env(monkeypatch, ddb):
    """The Chalice test client in stage dev, as if inside Lambda, with nothing configured."""
    from chalicelib import config, wiring

    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "shengong-dev-APIHandler")
    for name in ("TOKEN_KEYS_SECRET_ID", "ADMINS_SECRET_ID", "WECHAT_SECRET_ID", "TOKEN_SECRET"):
        monkeypatch.delenv(name, raising=False)
    config.settings.cache_clear()
    wiring.override(None)
    yield
    config.settings.cache_clear()
    wiring.override(None)


def _client(stage):
    from chalice.test import Client

    import app

    return Client(app.app, stage_name=stage)


def test_http_a_lambda_without_its_token_secret_answers_503_at_the_first_request(lambda_env):
    with _client("dev") as c:
        r = c.http.post("/v1/auth/dev", body=json.dumps({"name": "甄嬛"}), headers={"Content-Type": "application/json"})
        assert r.status_code == 503 and r.json_body["code"] == "SERVICE_UNAVAILABLE"
        assert "TOKEN" not in r.body.decode()  # the detail is for the log, not the client


def test_http_the_local_stage_inside_lambda_answers_503_and_has_no_dev_login(lambda_env):
    with _client("local") as c:  # STAGE=local (from .chalice/config.json), but AWS_LAMBDA_FUNCTION_NAME is set
        health = c.http.get("/v1/health")
        login = c.http.post("/v1/auth/dev", body=json.dumps({"name": "甄嬛"}),
                            headers={"Content-Type": "application/json"})
    assert health.status_code == 503 and health.json_body["code"] == "SERVICE_UNAVAILABLE"
    assert login.status_code == 503
