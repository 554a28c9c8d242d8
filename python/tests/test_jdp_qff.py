"""Dubey's server and privatizer from Python: a seeded loop takes the Rust runner's actions for
the same seed and rewards; the server observes only released statistics; bad input raises."""

from __future__ import annotations

import numpy as np
import pytest

from dpgpbandits import jdp_qff

ARMS = np.linspace(0.0, 1.0, 25)[:, None]
MEANS = 0.5 * np.sin(5.0 * ARMS[:, 0])


@pytest.mark.parametrize("profile", ["provably-private", "tightened", "tuned:0.1"])
def test_a_python_loop_takes_the_rust_runs_actions(profile):
    horizon, seed = 40, 9
    actions, rewards = jdp_qff.rust_trial(ARMS, MEANS, 0.1, lengthscale=0.2, horizon=horizon,
                                          profile=profile, seed=seed)
    server, privatizer = jdp_qff.make(1, 0.2, horizon, profile=profile, seed=seed)
    mine = []
    for y in rewards:
        a = server.select(ARMS)
        mine.append(a)
        server.observe(privatizer.privatize(ARMS[a], y))
    assert mine == actions
    other, _ = jdp_qff.rust_trial(ARMS, MEANS, 0.1, lengthscale=0.2, horizon=horizon,
                                  profile=profile, seed=seed + 1)
    assert other != actions


@pytest.mark.parametrize("profile", ["provably-private", "tightened"])
def test_the_local_model_takes_the_rust_runs_actions(profile):
    horizon, seed = 30, 13
    actions, rewards = jdp_qff.rust_local_trial(ARMS, MEANS, 0.1, lengthscale=0.2,
                                                horizon=horizon, profile=profile, seed=seed)
    server, client = jdp_qff.make_local(1, 0.2, horizon, profile=profile, seed=seed)
    mine = []
    for y in rewards:
        a = server.select(ARMS)
        mine.append(a)
        server.observe(client.perturb(ARMS[a], y))
    assert mine == actions
    with pytest.raises(TypeError):
        server.observe(0.5)
    with pytest.raises(TypeError):
        jdp_qff.ClientMessage()


def test_the_server_observes_only_released_statistics():
    server, privatizer = jdp_qff.make(1, 0.2, 10, seed=1)
    server.select(ARMS)
    with pytest.raises(TypeError):
        server.observe(np.zeros(3))
    with pytest.raises(TypeError):
        jdp_qff.PrivatizedStatistics()
    stats = privatizer.privatize(ARMS[0], 1e6)  # clipped inside
    assert stats.observations == 1
    server.observe(stats)


@pytest.mark.parametrize(
    "kwargs",
    [dict(profile="private"), dict(alpha=-1.0), dict(beta=2.0), dict(lengthscale=0.0),
     dict(horizon=0)],
)
def test_bad_input_raises(kwargs):
    args = dict(d=1, lengthscale=0.2, horizon=10)
    args.update(kwargs)
    with pytest.raises(ValueError):
        jdp_qff.make(**args)
