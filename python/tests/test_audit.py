"""The auditor from Python: flags a Laplace mechanism with 0.8 of its scale, passes a correct
one, handles vector and discrete outputs, writes its plot, raises on bad input."""

from __future__ import annotations

import numpy as np
import pytest

from dpgpbandits import PrivacyViolation, audit


def laplace(scale, seed):
    rng = np.random.default_rng(seed)
    return lambda v, n: v + rng.laplace(0.0, scale, n)


def test_a_laplace_at_0_8_of_its_scale_is_flagged_and_a_correct_one_passes(tmp_path):
    # eps = 1, sensitivity 1: the scale is 1; at 0.8 the true epsilon is 1.25.
    bad = audit.audit_mechanism(laplace(0.8, 1), 0.0, 1.0, outputs=400_000, eps=1.0)
    assert bad.violated and bad.verdict == "violation_certified"
    assert bad.eps_lower > 1.0
    with pytest.raises(PrivacyViolation):
        bad.raise_if_violated()
    good = audit.audit_mechanism(laplace(1.0, 2), 0.0, 1.0, outputs=400_000, eps=1.0)
    assert not good.violated
    assert good.verdict == "consistent", good
    assert 0.5 < good.tightness <= 1.0
    assert good.raise_if_violated() is good
    assert good.samples_for_target is None or good.samples_for_target > 0
    path = good.write_plot(tmp_path / "tradeoff.svg")
    assert "<svg" in open(path).read()
    assert good.to_dict()["result"]["eps_lower"] == good.eps_lower


def test_vector_and_discrete_outputs():
    rng = np.random.default_rng(3)
    x = rng.normal(0.0, 1.0, (20_000, 3))
    xp = rng.normal([1.0, 0.0, 0.0], 1.0, (20_000, 3))
    r = audit.audit(x, xp, mu=1.0, delta=1e-5)
    assert r.kind == "vector" and not r.violated
    # Randomized response on two labels with eps = ln 3 (truth with probability 3/4).
    truth = rng.random(40_000) < 0.75
    xs = np.where(truth, "a", "b")
    xps = np.where(rng.random(40_000) < 0.75, "b", "a")
    d = audit.audit(list(xs), list(xps), eps=float(np.log(3.0)))
    assert d.kind == "discrete" and not d.violated
    assert d.tightness > 0.5


@pytest.mark.parametrize(
    "kwargs",
    [dict(), dict(eps=1.0, mu=1.0), dict(mu=1.0), dict(eps=-1.0), dict(rho=0.5),
     dict(eps=1.0, alpha=0.7), dict(eps=1.0, train_fraction=1.5)],
)
def test_bad_claims_and_options_raise(kwargs):
    x = np.zeros(100)
    with pytest.raises(ValueError):
        audit.audit(x, x + 1.0, **kwargs)


def test_bad_outputs_raise():
    with pytest.raises(ValueError):
        audit.audit(np.zeros((2, 2, 2)), np.zeros((2, 2, 2)), eps=1.0)
    with pytest.raises(ValueError):
        audit.audit(np.zeros(100), np.zeros((100, 2)), eps=1.0)
    with pytest.raises(ValueError):
        audit.audit(np.zeros(5), np.ones(5), eps=1.0)
    with pytest.raises(ValueError, match="returned"):
        audit.audit_mechanism(lambda v, n: np.zeros(n - 1), 0, 1, outputs=100, eps=1.0)
