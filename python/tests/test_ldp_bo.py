"""Zhou & Tan's learners from Python: a seeded loop takes the Rust runner's actions for the same
seed and rewards; the learner observes only curator-released rewards; bad input raises."""

from __future__ import annotations

import numpy as np
import pytest

from dpgpbandits import ldp_bo

ARMS = np.linspace(0.0, 1.0, 25)[:, None]
MEANS = 0.8 * np.sin(5.0 * ARMS[:, 0])


@pytest.mark.parametrize("algorithm", ldp_bo.ALGORITHMS)
@pytest.mark.parametrize("preset", ldp_bo.PRESETS)
def test_a_python_loop_takes_the_rust_runs_actions(algorithm, preset):
    horizon, seed = 60, 11
    kw = dict(epsilon=1.0, b=1.0, r=1.0, horizon=horizon, kernel="se", lengthscale=0.2,
              preset=preset, seed=seed)
    actions, rewards = ldp_bo.rust_trial(algorithm, ARMS, MEANS, 0.1, **kw)
    assert len(actions) == horizon
    curator = ldp_bo.CtlCurator(1.0, 1.0, 1.0, seed=seed)
    learner = ldp_bo.Learner(algorithm, ARMS, curator, horizon, kernel="se", lengthscale=0.2,
                             preset=preset, seed=seed)
    mine = []
    for y in rewards:
        mine.append(learner.select())
        learner.observe(curator.privatize(y))
    assert mine == actions
    # Another seed takes other actions (the comparison above is not vacuous).
    other, _ = ldp_bo.rust_trial(algorithm, ARMS, MEANS, 0.1, **{**kw, "seed": seed + 1})
    assert other != actions


@pytest.mark.parametrize("algorithm,alpha", [("tgp", 0.5), ("ata", 1.0), ("moma", 0.5)])
def test_the_heavy_tailed_learners_take_the_rust_runs_actions(algorithm, alpha):
    horizon, seed = 60, 17
    kw = dict(b=1.0, alpha=alpha, moment=3.0, horizon=horizon, preset="practical", seed=seed)
    actions, rewards = ldp_bo.heavy_tailed_rust_trial(algorithm, ARMS, MEANS, 3.0, 0.1, **kw)
    learner = ldp_bo.HeavyTailedLearner(algorithm, ARMS, horizon, b=1.0, alpha=alpha, moment=3.0,
                                        seed=seed)
    mine = []
    for y in rewards:
        mine.append(learner.select())
        learner.observe(y)
    assert mine == actions
    if algorithm == "ata":
        with pytest.raises(ValueError, match="alpha"):
            ldp_bo.HeavyTailedLearner("ata", ARMS, horizon, b=1.0, alpha=0.5, moment=3.0)


def test_the_learner_observes_only_private_rewards():
    curator = ldp_bo.CtlCurator(1.0, 1.0, 1.0, seed=1)
    learner = ldp_bo.Learner("tgp", ARMS, curator, 10, seed=1)
    learner.select()
    with pytest.raises(TypeError):
        learner.observe(0.5)
    with pytest.raises(TypeError):
        ldp_bo.PrivateReward(0.5)  # no constructor from Python
    released = curator.privatize(1e9)  # clipped before the noise
    assert abs(released.value) < 1e9
    learner.observe(released)
    assert curator.laplace_scale > 0
    assert curator.claim()


@pytest.mark.parametrize(
    "kwargs",
    [dict(algorithm="ucb"), dict(kernel="rbf"), dict(preset="paper"), dict(lengthscale=-1.0)],
)
def test_bad_input_raises(kwargs):
    curator = ldp_bo.CtlCurator(1.0, 1.0, 1.0, seed=1)
    args = dict(algorithm="tgp", arms=ARMS, curator=curator, horizon=10)
    args.update(kwargs)
    with pytest.raises(ValueError):
        ldp_bo.Learner(**args)
    with pytest.raises(ValueError):
        ldp_bo.CtlCurator(-1.0, 1.0, 1.0, seed=1)
