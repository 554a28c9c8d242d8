"""The accountants from Python equal the Rust CLI's (`cargo xtask accountant`) and the fixture's
values; invalid input raises."""

from __future__ import annotations

import math

import pytest

from dpgpbandits import UnboundedPrivacyLoss, accounting, fixtures

CASES = [(0.01, 1.1, 1000, 1e-5), (0.25, 1.0, 40, 0.0029435200932623716), (1.0, 2.0, 10, 1e-5)]


@pytest.mark.parametrize("q,z,steps,delta", CASES)
def test_epsilon_equals_the_cli(xtask, q, z, steps, delta):
    cli = xtask(
        "accountant", "--q", str(q), "--noise-multiplier", str(z), "--steps", str(steps),
        "--delta", repr(delta), "--accountant", "rdp-paper", "--accountant", "rdp",
        "--accountant", "pld", "--accountant", "gdp-clt",
        # The binding passes its default PLD bin width explicitly; the CLI without the option
        # chooses the grid (and at q = 1 takes the exact route), so it is given the same width.
        "--pld-bin-width", "1e-4",
    )
    for row in cli["results"]:
        mine = accounting.epsilon_details(z, q, steps, delta, accountant=row["accountant"])
        # The same code: equal to the last bit (the JSON carries every digit).
        assert mine["epsilon"] == row["epsilon"], row["accountant"]
        for key in ("order", "epsilon_remove", "epsilon_add", "epsilon_optimistic", "mu"):
            if key in row:
                assert mine[key] == row[key], (row["accountant"], key)
        assert mine["is_bound"] == (row["accountant"] != "gdp-clt")


def test_replace_one_equals_the_cli_and_only_pld_has_it(xtask):
    cli = xtask("accountant", "--q", "0.01", "--noise-multiplier", "1.0", "--steps", "100",
                "--delta", "1e-5", "--relation", "replace-one")
    (row,) = cli["results"]
    mine = accounting.get_epsilon(1.0, 0.01, 100, 1e-5, accountant="pld", relation="replace-one")
    assert mine == row["epsilon"]
    add_remove = accounting.get_epsilon(1.0, 0.01, 100, 1e-5, accountant="pld")
    assert mine > add_remove
    for name in ("rdp-paper", "rdp", "gdp-clt"):
        with pytest.raises(ValueError, match="no replace-one bound"):
            accounting.get_epsilon(1.0, 0.01, 100, 1e-5, accountant=name, relation="replace-one")


def test_noise_multiplier_equals_the_cli(xtask):
    cli = xtask("accountant", "--target-eps", "2", "--q", "0.01", "--steps", "1000",
                "--delta", "1e-5", "--accountant", "rdp")
    (row,) = cli["results"]
    mine = accounting.calibrate(2.0, 1e-5, 0.01, 1000, accountant="rdp")
    assert mine["noise_multiplier"] == row["noise_multiplier"]
    assert mine["epsilon"] == row["epsilon"] <= 2.0
    assert mine["epsilon_below"] == row["epsilon_below"] > 2.0
    assert accounting.get_noise_multiplier(2.0, 1e-5, 0.01, 1000) == row["noise_multiplier"]


def test_the_accountant_fixture_recomputed_from_python():
    fixture = fixtures.load("privacy/accountant")
    epsilons = []
    for case in fixture["inputs"]["cases"]:
        args = (case["noise_multiplier"], case["q"], case["steps"], case["delta"])
        rdp = accounting.epsilon_details(*args, accountant="rdp")
        pld = accounting.epsilon_details(*args, accountant="pld", pld_bin_width=1e-3)
        epsilons.append({
            "rdp_paper": accounting.get_epsilon(*args, accountant="rdp-paper"),
            "rdp_improved": rdp["epsilon"],
            "rdp_improved_order": rdp["order"],
            "pld": pld["epsilon"],
            "pld_optimistic": pld["epsilon_optimistic"],
        })
    result = fixtures.compare("privacy/accountant", {"epsilons": epsilons})
    assert result, str(result)


def test_pld_objects_compose_heterogeneous_steps():
    a = accounting.PrivacyLossDistribution.from_gaussian_mechanism(1.0, sampling_prob=0.01,
                                                                   value_discretization_interval=1e-3)
    b = accounting.PrivacyLossDistribution.from_gaussian_mechanism(2.0, sampling_prob=0.05,
                                                                   value_discretization_interval=1e-3)
    both = a.self_compose(100).compose(b.self_compose(50))
    eps = both.get_epsilon_for_delta(1e-5)
    # Composition costs privacy, and the mixed composition lies between its parts' costs.
    assert eps > a.self_compose(100).get_epsilon_for_delta(1e-5)
    assert eps > b.self_compose(50).get_epsilon_for_delta(1e-5)
    # delta(eps) and eps(delta) are consistent: delta at the reported epsilon is at most 1e-5.
    assert both.get_delta_for_epsilon(eps) <= 1e-5 * (1 + 1e-9)
    remove, add = both.get_epsilons_for_delta(1e-5)
    assert max(remove, add) == eps
    # The same steps through the by-name accountant: the homogeneous case agrees.
    same = accounting.get_epsilon(1.0, 0.01, 100, 1e-5, accountant="pld", pld_bin_width=1e-3)
    assert math.isclose(a.self_compose(100).get_epsilon_for_delta(1e-5), same, rel_tol=1e-12)
    lap = accounting.PrivacyLossDistribution.from_laplace_mechanism(1.0)
    assert lap.self_compose(3).get_epsilon_for_delta(1e-12) <= 3.0 + 1e-6
    rr = accounting.PrivacyLossDistribution.from_randomized_response(1.0, 4)
    assert rr.get_epsilon_for_delta(1e-12) <= 1.0 + 1e-6
    with pytest.raises(ValueError):
        rr.get_epsilon_for_delta(0.0)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(noise_multiplier=1.0, sample_rate=0.0, steps=10, delta=1e-5),
        dict(noise_multiplier=1.0, sample_rate=1.5, steps=10, delta=1e-5),
        dict(noise_multiplier=-1.0, sample_rate=0.1, steps=10, delta=1e-5),
        dict(noise_multiplier=1.0, sample_rate=0.1, steps=0, delta=1e-5),
        dict(noise_multiplier=1.0, sample_rate=0.1, steps=10, delta=1.5),
        dict(noise_multiplier=1.0, sample_rate=0.1, steps=10, delta=1e-5, accountant="moments"),
        dict(noise_multiplier=1.0, sample_rate=0.1, steps=10, delta=1e-5, relation="swap"),
    ],
)
def test_bad_input_raises_value_error(kwargs):
    with pytest.raises(ValueError):
        accounting.get_epsilon(**kwargs)


def test_an_unbounded_loss_is_its_own_error():
    # q = 1, z = 0.01, one step: the CLI (no width given) answers by the exact Gaussian route;
    # the binding passes its default width 1e-4 explicitly, and a width given asks for the grid,
    # which would need 59.8 million points here: a ValueError naming the option.
    with pytest.raises(ValueError, match="pld_bin_width"):
        accounting.get_epsilon(0.01, 1.0, 1, 1e-5, accountant="pld")
