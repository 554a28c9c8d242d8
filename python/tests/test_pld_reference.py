"""Our PLD accountant against Google's dp_accounting on the twelve reference settings, from
Python: an upper bound at most 0.5% above dp_accounting's pessimistic epsilon and not below it
beyond 1e-6 relative (the margin of docs/privacy.md and of the Rust test
`twelve_settings_match_dp_accounting`). dp_accounting is installed in the test environment by
`.ci/run`; without it this test fails (it is never skipped)."""

from __future__ import annotations

from dp_accounting.pld import privacy_loss_distribution as dpa_pld

from dpgpbandits import accounting


def test_twelve_settings_side_by_side_with_dp_accounting():
    assert len(accounting.PLD_REFERENCE_SETTINGS) == 12
    for i, (q, z, t, delta) in enumerate(accounting.PLD_REFERENCE_SETTINGS, start=1):
        ours = accounting.get_epsilon(z, q, t, delta, accountant="pld", pld_bin_width=1e-4)
        theirs = dpa_pld.from_gaussian_mechanism(
            standard_deviation=z, sensitivity=1.0, sampling_prob=q,
            value_discretization_interval=1e-4,
        ).self_compose(t).get_epsilon_for_delta(delta)
        rel = ours / theirs - 1
        assert -1e-6 <= rel <= 5e-3, f"S{i}: ours {ours}, dp_accounting {theirs} ({rel:+.2e})"
