"""DP-FTS-DE's agents and server from Python: the protocol run from Python, fed the Rust run's
rewards, takes the actions of `run_federation` for the same seed; messages cannot be forged."""

from __future__ import annotations

import numpy as np
import pytest

from dpgpbandits import dp_fts_de

POINTS = np.linspace(0.0, 1.0, 40)[:, None]
N = 5
OBJECTIVES = np.array([np.sin(6 * POINTS[:, 0] + 0.1 * k) for k in range(N)])


def python_run(rewards, iterations, privacy, seed):
    agents, server = dp_fts_de.federation(POINTS, [0.0], [1.0], N, iterations, privacy=privacy,
                                          seed=seed)
    actions = [[] for _ in range(N)]
    used = [0] * N

    def observe(k, x):
        agents[k].observe(x, rewards[k][used[k]])
        used[k] += 1
        actions[k].append(x)

    broadcast = None
    for t in range(iterations + 1):
        vectors = []
        for k, a in enumerate(agents):
            if t == 0:
                for x in a.initial_points():
                    observe(k, x)
            else:
                x, _ = a.select(t, broadcast)
                observe(k, x)
            if t < iterations:
                vectors.append(a.sample_vector())
        if t < iterations:
            broadcast = server.aggregate(t, vectors)
    return actions, server


@pytest.mark.parametrize("privacy", [None, "preset", (0.6, 1.0, 1.0)])
def test_a_python_federation_takes_the_rust_runs_actions(privacy):
    iterations, seed = 12, 21
    actions, rewards = dp_fts_de.rust_federation(POINTS, [0.0], [1.0], OBJECTIVES, 0.01,
                                                 iterations, privacy=privacy, seed=seed)
    mine, server = python_run(rewards, iterations, privacy, seed)
    assert mine == actions
    loss = server.privacy_loss()
    assert (loss is None) == (privacy is None)  # the synthetic preset is private
    if loss is not None:
        assert loss["releases"] == iterations
    other, _ = dp_fts_de.rust_federation(POINTS, [0.0], [1.0], OBJECTIVES, 0.01, iterations,
                                         privacy=privacy, seed=seed + 1)
    assert other != actions


def test_messages_cannot_be_forged():
    agents, server = dp_fts_de.federation(POINTS, [0.0], [1.0], N, 3, seed=1)
    with pytest.raises(TypeError):
        dp_fts_de.AgentVector()
    with pytest.raises(TypeError):
        dp_fts_de.Broadcast()
    with pytest.raises(TypeError):
        server.aggregate(0, [np.zeros(3)] * N)
    with pytest.raises(TypeError):
        agents[0].select(1, np.zeros((2, 3)))


@pytest.mark.parametrize(
    "kwargs",
    [dict(preset="paper"), dict(n_agents=0), dict(privacy=(1.5, 1.0, 1.0)),
     dict(privacy=(0.5, -1.0, 1.0)), dict(lower=[1.0], upper=[0.0])],
)
def test_bad_input_raises(kwargs):
    args = dict(points=POINTS, lower=[0.0], upper=[1.0], n_agents=N, iterations=3)
    args.update(kwargs)
    with pytest.raises(ValueError):
        dp_fts_de.federation(**args)
