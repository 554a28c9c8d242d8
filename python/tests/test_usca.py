"""USCA from Python: the learning stage on a Python reward equals the Rust run on the same
reward for the same seed (predictions and summary), every profile predicts, the reward is
clipped, errors in the callable surface, bad input raises."""

from __future__ import annotations

import numpy as np
import pytest

from dpgpbandits import usca

ACTIONS = np.linspace(0.0, 1.0, 15)[:, None]
CONTEXTS = np.linspace(0.0, 1.0, 9)


def reference(x, c):
    # The same operations as the Rust reference reward.
    return x[0] * c[0] - x[0] * x[0] / 2.0


@pytest.mark.parametrize("profile", usca.PROFILES)
def test_a_python_reward_gives_the_rust_run(profile):
    kw = dict(lower=[0.0], upper=[1.0], horizon=128, noise_sd=0.1, profile=profile, seed=3)
    mine = usca.learn(reference, ACTIONS, **kw)
    rust = usca.learn(None, ACTIONS, **kw)
    assert mine.summary == rust.summary
    a = [mine.predict([c], 1.0) for c in CONTEXTS]
    b = [rust.predict([c], 1.0) for c in CONTEXTS]
    assert a == b
    other = usca.learn(None, ACTIONS, **{**kw, "seed": 4})
    assert [other.predict([c], 1.0) for c in CONTEXTS] != b or other.summary != rust.summary


def test_the_prediction_follows_the_estimate_at_large_epsilon():
    # f(x, c) = -(x - c)^2: the best action is the one nearest c.
    model = usca.learn(lambda x, c: -(x[0] - c[0]) ** 2, ACTIONS, [0.0], [1.0], horizon=2048,
                       noise_sd=0.05, profile="query-context", tau=16.0, seed=5)
    picks = [model.predict([c], 1e4) for c in CONTEXTS]
    nearest = [int(np.argmin(np.abs(ACTIONS[:, 0] - c))) for c in CONTEXTS]
    assert sum(abs(p - n) <= 1 for p, n in zip(picks, nearest)) >= 7
    assert model.sensitivity([0.5]) <= model.summary["sensitivity"]


def test_rewards_are_clipped_and_callable_errors_surface():
    # A reward of 1e9 is clipped to B = 1.5 before the estimator: the same model, and the same
    # predictions for the same seed, as a reward of exactly 1.5.
    huge = usca.learn(lambda x, c: 1e9, ACTIONS, [0.0], [1.0], horizon=64, seed=1)
    at_b = usca.learn(lambda x, c: 1.5, ACTIONS, [0.0], [1.0], horizon=64, seed=1)
    assert huge.summary == at_b.summary
    assert [huge.predict([c], 2.0) for c in CONTEXTS] == [at_b.predict([c], 2.0) for c in CONTEXTS]

    def broken(x, c):
        raise RuntimeError("my objective failed")

    with pytest.raises(RuntimeError, match="my objective failed"):
        usca.learn(broken, ACTIONS, [0.0], [1.0], horizon=16, seed=1)


@pytest.mark.parametrize(
    "kwargs",
    [dict(profile="estimate"), dict(kernel="rbf"), dict(tau=-1.0), dict(horizon=0),
     dict(lower=[1.0], upper=[0.0])],
)
def test_bad_input_raises(kwargs):
    args = dict(reward=reference, actions=ACTIONS, lower=[0.0], upper=[1.0], horizon=16)
    args.update(kwargs)
    with pytest.raises(ValueError):
        usca.learn(**args)
    model = usca.learn(reference, ACTIONS, [0.0], [1.0], 16)
    with pytest.raises(ValueError):
        model.predict([2.0], 1.0)
    with pytest.raises(ValueError):
        model.predict([0.5], -1.0)
