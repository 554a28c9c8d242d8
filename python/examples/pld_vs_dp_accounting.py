"""Our PLD accountant and Google's dp_accounting side by side, from Python, on the twelve
reference settings: the same bin width (1e-4), the same quantity (the pessimistic epsilon over
both orientations of the Poisson-subsampled Gaussian), each timed in this process.

    pip install ./python dp-accounting
    python python/examples/pld_vs_dp_accounting.py

Prints one row per setting: both epsilons, ours / theirs - 1, and the time ratio theirs / ours
(wall time of each call, median of three; the ratio, not the absolute times, is what carries
over to another machine).
"""

from __future__ import annotations

import statistics
import time

from dp_accounting.pld import privacy_loss_distribution as dpa_pld

from dpgpbandits import accounting

H = 1e-4


def timed(f, repeats=3):
    times, value = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        value = f()
        times.append(time.perf_counter() - t0)
    return value, statistics.median(times)


def main() -> None:
    print("| setting | q | z | T | delta | ours | dp_accounting | ours / theirs - 1 | time ratio theirs / ours |")
    print("|---|---|---|---|---|---|---|---|---|")
    for i, (q, z, t, delta) in enumerate(accounting.PLD_REFERENCE_SETTINGS, start=1):
        # The PLD object, composed and solved like dp_accounting's (the by-name accountant
        # `get_epsilon(..., accountant="pld")` gives the same epsilon but also computes the
        # optimistic estimate, twice the work).
        ours, t_ours = timed(lambda: accounting.PrivacyLossDistribution.from_gaussian_mechanism(
            z, sampling_prob=q, value_discretization_interval=H).self_compose(t)
            .get_epsilon_for_delta(delta))
        theirs, t_theirs = timed(lambda: dpa_pld.from_gaussian_mechanism(
            standard_deviation=z, sensitivity=1.0, sampling_prob=q,
            value_discretization_interval=H).self_compose(t).get_epsilon_for_delta(delta))
        print(f"| S{i} | {q} | {z} | {t} | {delta:g} | {ours:.6f} | {theirs:.6f} | "
              f"{ours / theirs - 1:+.1e} | {t_theirs / t_ours:.1f}x |")


if __name__ == "__main__":
    main()
