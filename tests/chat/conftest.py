"""Chat fixtures: the chat store on both backends, a DynamoDB client whose calls are atomic (as
DynamoDB's are; moto alone is not thread-safe), a fake WeChat server, fake games that chat apart."""

from __future__ import annotations

import threading

import pytest

from tests.conftest import TABLE


class AtomicCalls:
    """A boto3 client whose every call runs alone, as each DynamoDB request is atomic on the
    service. Threads still interleave between calls: the races our conditional writes must win."""

    def __init__(self, client):
        self._client = client
        self._lock = threading.Lock()

    def __getattr__(self, name):
        target = getattr(self._client, name)
        if not callable(target) or name.startswith("_"):
            return target

        def call(*args, **kwargs):
            with self._lock:
                return target(*args, **kwargs)

        return call


@pytest.fixture
def atomic_ddb(ddb):
    return AtomicCalls(ddb)


@pytest.fixture(params=["memory", "dynamodb"])
def chat_store(request):
    from chalicelib.store.memory_chat import MemoryChatStore

    if request.param == "memory":
        return MemoryChatStore(cursor_secret=b"k" * 32)
    from chalicelib.store.chat import DynamoChatStore

    return DynamoChatStore(request.getfixturevalue("atomic_ddb"), TABLE, cursor_secret=b"k" * 32)


@pytest.fixture
def chat_games():
    """The fake games of tests/chat/fakes.py, registered as a real game is."""
    from chalicelib import games

    games.register("parlour", "tests.chat.fakes:PARLOUR", "parlour")
    games.register("masque", "tests.chat.fakes:MASQUE", "masque")
    yield
    games.unregister("parlour")
    games.unregister("masque")


@pytest.fixture
def wechat(clock):
    """A fake WeChat server on a local port (real HTTP), answering as WeChat's documentation shows."""
    from tests.chat.wechat_fake import FakeWeChat

    server = FakeWeChat(clock)
    server.start()
    yield server
    server.stop()
