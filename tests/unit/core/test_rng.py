from collections import Counter

from chalicelib.core.rng import Rng, seed_digest

SEED = bytes(range(32))


def test_same_seed_and_step_give_the_same_draws():
    a, b = Rng(SEED, 7), Rng(SEED, 7)
    assert [a.below(1000) for _ in range(50)] == [b.below(1000) for _ in range(50)]
    assert a.shuffled(range(20)) == b.shuffled(range(20))


def test_each_step_draws_differently():
    draws = {tuple(Rng(SEED, step).below(10**9) for _ in range(3)) for step in range(100)}
    assert len(draws) == 100


def test_draws_are_pinned_across_python_versions():
    # Fixed values: if the derivation or the helpers change, replays of stored games would break.
    rng = Rng(SEED, 0)
    assert [rng.below(100) for _ in range(5)] == PINNED_BELOW
    assert Rng(SEED, 1).shuffled("abcdef") == PINNED_SHUFFLE


PINNED_BELOW = [17, 12, 47, 2, 96]
PINNED_SHUFFLE = ("e", "c", "b", "f", "d", "a")


def test_below_is_uniform_enough():
    rng = Rng(SEED, 3)
    counts = Counter(rng.below(6) for _ in range(60000))
    assert set(counts) == set(range(6))
    assert all(9000 < c < 11000 for c in counts.values())


def test_chance_edges():
    rng = Rng(SEED, 4)
    assert not any(rng.chance(0) for _ in range(100))
    assert all(rng.chance(1.0) for _ in range(100))
    hits = sum(rng.chance(0.9) for _ in range(10000))
    assert 8800 < hits < 9200


def test_sample_is_distinct():
    s = Rng(SEED, 5).sample(range(10), 4)
    assert len(set(s)) == 4


def test_seed_digest_is_sha256_hex():
    assert seed_digest(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
