import pytest

from tests.push.harness import harness


@pytest.fixture
def h(fake_games):
    return harness()
