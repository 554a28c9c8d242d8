"""Accountants of the Poisson-subsampled Gaussian mechanism, and privacy-loss distributions.

Each function is the Rust code behind ``cargo xtask accountant`` (``privacy::accountant``), so
the numbers are the CLI's, bit for bit.

Accountants (``accountant=``):

- ``"rdp-paper"``: Rényi DP at integer orders 2..33, classic conversion (the moments
  accountant of the DP-FTS-DE paper; an upper bound).
- ``"rdp"``: Rényi DP at orders 1.1..512, the improved conversion of Balle et al. 2020 (an
  upper bound; Opacus's ``RDPAccountant`` uses the classic conversion, dp_accounting's
  ``RdpAccountant`` this one).
- ``"pld"``: the privacy-loss distribution, connect-the-dots discretisation, FFT composition,
  every error bounded: an upper bound (dp_accounting's ``PLDAccountant`` is the same method
  family; the numbers agree within the discretisation).
- ``"gdp-clt"``: Gaussian DP with the central-limit ``mu = q sqrt(T (exp(1/z^2) - 1))``
  (Bu, Dong, Long & Su 2020; Opacus's ``GaussianAccountant``): an approximation, **not a bound**.

Relations (``relation=``): ``"add-remove"`` (one record added or removed) or
``"replace-one"`` (one record replaced; only the PLD accountant has a bound, via the
dominating pair).

Names follow Opacus (:func:`get_noise_multiplier`, :func:`get_epsilon`) and dp_accounting
(:class:`PrivacyLossDistribution` with ``get_epsilon_for_delta``, ``get_delta_for_epsilon``,
``compose``, ``self_compose``).

>>> round(get_epsilon(noise_multiplier=1.0, sample_rate=0.01, steps=1000, delta=1e-5,
...                   accountant="rdp-paper"), 4) > 0
True
"""

from __future__ import annotations

import json
from typing import Any

from . import _native

ACCOUNTANTS = ("rdp-paper", "rdp", "pld", "gdp-clt")

#: The twelve reference settings ``(q, z, steps, delta)`` on which the PLD accountant is
#: compared with Google's dp_accounting (docs/privacy.md; ``examples/pld_vs_dp_accounting.py``).
PLD_REFERENCE_SETTINGS: list[tuple[float, float, int, float]] = _native.pld_reference_settings()
RELATIONS = ("add-remove", "replace-one")


def epsilon_details(
    noise_multiplier: float,
    sample_rate: float,
    steps: int,
    delta: float,
    accountant: str = "pld",
    relation: str = "add-remove",
    pld_bin_width: float = 1e-4,
) -> dict[str, Any]:
    """Epsilon of ``steps`` rounds of the Poisson-subsampled Gaussian, with what the accountant
    knows about it.

    The dict is one row of ``cargo xtask accountant --json``'s ``results``, with ``note`` (what
    the accountant computes) and ``is_bound`` (False only for ``gdp-clt``): ``epsilon``, and
    ``order`` (RDP), ``epsilon_remove``/``epsilon_add``/``epsilon_optimistic`` (PLD; the
    optimistic value is a lower estimate, not a bound), ``mu`` (gdp-clt), ``bin_width`` (PLD).

    Raises ``ValueError`` for invalid parameters (``sample_rate`` outside (0, 1],
    ``noise_multiplier <= 0``, ``steps < 1``, ``delta`` outside (0, 1), an unknown accountant
    or relation, or a relation the accountant has no bound for) and ``UnboundedPrivacyLoss``
    when no finite epsilon exists.
    """
    text = _native.subsampled_gaussian_epsilon_json(
        float(noise_multiplier),
        float(sample_rate),
        int(steps),
        float(delta),
        accountant,
        relation,
        float(pld_bin_width),
    )
    return json.loads(text)


def get_epsilon(
    noise_multiplier: float,
    sample_rate: float,
    steps: int,
    delta: float,
    accountant: str = "pld",
    relation: str = "add-remove",
    pld_bin_width: float = 1e-4,
) -> float:
    """Epsilon at ``delta`` of ``steps`` rounds of the Poisson-subsampled Gaussian with noise
    multiplier ``noise_multiplier`` (noise standard deviation / L2 sensitivity) and sampling
    rate ``sample_rate``: :func:`epsilon_details`'s ``epsilon``.

    >>> e = get_epsilon(1.1, 0.02, 200, 1e-5, accountant="rdp")
    >>> 0 < e < get_epsilon(1.1, 0.02, 200, 1e-5, accountant="rdp-paper") + 1e-12
    True
    """
    return float(
        epsilon_details(
            noise_multiplier, sample_rate, steps, delta, accountant, relation, pld_bin_width
        )["epsilon"]
    )


def calibrate(
    target_epsilon: float,
    target_delta: float,
    sample_rate: float,
    steps: int,
    accountant: str = "rdp",
    relation: str = "add-remove",
    resolution: float = 1e-3,
    pld_bin_width: float = 1e-4,
) -> dict[str, Any]:
    """The smallest noise multiplier (to ``resolution``) whose epsilon is at most
    ``target_epsilon``, with the two evaluated facts: ``epsilon`` (at ``noise_multiplier``, at
    most the target) and ``epsilon_below`` (at ``noise_multiplier - resolution``, above the
    target; ``"unbounded"`` or ``None`` where it could not be evaluated). The object of
    ``cargo xtask accountant --target-eps --json``'s ``results``.
    """
    text = _native.noise_multiplier_json(
        float(target_epsilon),
        float(target_delta),
        float(sample_rate),
        int(steps),
        accountant,
        relation,
        float(resolution),
        float(pld_bin_width),
    )
    return json.loads(text)


def get_noise_multiplier(
    target_epsilon: float,
    target_delta: float,
    sample_rate: float,
    steps: int,
    accountant: str = "rdp",
    relation: str = "add-remove",
    resolution: float = 1e-3,
    pld_bin_width: float = 1e-4,
) -> float:
    """The smallest noise multiplier whose epsilon is at most ``target_epsilon``
    (:func:`calibrate`'s ``noise_multiplier``; Opacus's name, with ``steps`` for its epochs).

    >>> z = get_noise_multiplier(2.0, 1e-5, 0.01, 1000, accountant="rdp")
    >>> get_epsilon(z, 0.01, 1000, 1e-5, accountant="rdp") <= 2.0
    True
    """
    return float(
        calibrate(
            target_epsilon,
            target_delta,
            sample_rate,
            steps,
            accountant,
            relation,
            resolution,
            pld_bin_width,
        )["noise_multiplier"]
    )


class PrivacyLossDistribution:
    """A privacy-loss distribution of both orientations (remove and add), with every
    discretisation error bounded, so that :meth:`get_epsilon_for_delta` is an upper bound.

    Immutable: :meth:`compose` and :meth:`self_compose` return new objects, so heterogeneous
    steps compose as ``a.compose(b).self_compose(10)``.

    >>> g = PrivacyLossDistribution.from_gaussian_mechanism(2.0, sampling_prob=0.1)
    >>> g.self_compose(100).get_epsilon_for_delta(1e-5) > g.get_epsilon_for_delta(1e-5)
    True
    """

    def __init__(self, native: Any) -> None:
        self._native = native

    @classmethod
    def from_gaussian_mechanism(
        cls,
        noise_multiplier: float,
        sampling_prob: float = 1.0,
        value_discretization_interval: float = 1e-4,
        relation: str = "add-remove",
    ) -> "PrivacyLossDistribution":
        """The (Poisson-subsampled) Gaussian mechanism with noise standard deviation
        ``noise_multiplier`` times the sensitivity; ``relation="replace-one"`` uses the
        dominating pair of one record replaced."""
        return cls(
            _native.PrivacyLossDistribution.subsampled_gaussian(
                float(noise_multiplier),
                float(sampling_prob),
                float(value_discretization_interval),
                relation,
            )
        )

    @classmethod
    def from_laplace_mechanism(
        cls, epsilon: float, value_discretization_interval: float = 1e-4
    ) -> "PrivacyLossDistribution":
        """The Laplace mechanism with scale = sensitivity / ``epsilon`` (dp_accounting's
        ``from_laplace_mechanism`` takes the scale instead)."""
        return cls(
            _native.PrivacyLossDistribution.laplace(
                float(epsilon), float(value_discretization_interval)
            )
        )

    @classmethod
    def from_randomized_response(
        cls, epsilon: float, num_buckets: int, value_discretization_interval: float = 1e-4
    ) -> "PrivacyLossDistribution":
        """``num_buckets``-ary randomized response with privacy parameter ``epsilon``."""
        return cls(
            _native.PrivacyLossDistribution.randomized_response(
                float(epsilon), int(num_buckets), float(value_discretization_interval)
            )
        )

    def compose(self, other: "PrivacyLossDistribution") -> "PrivacyLossDistribution":
        """This distribution followed by ``other`` (the same discretisation interval)."""
        return PrivacyLossDistribution(self._native.compose(other._native))

    def self_compose(self, num_times: int) -> "PrivacyLossDistribution":
        """``num_times`` compositions of this distribution with itself."""
        return PrivacyLossDistribution(self._native.self_compose(int(num_times)))

    def get_epsilon_for_delta(self, delta: float) -> float:
        """The smallest epsilon with delta(epsilon) at most ``delta`` over both orientations (an
        upper bound)."""
        return float(self._native.epsilon(float(delta)))

    def get_epsilons_for_delta(self, delta: float) -> tuple[float, float]:
        """The epsilons of the remove and the add orientations at ``delta``."""
        remove, add = self._native.epsilons(float(delta))
        return float(remove), float(add)

    def get_delta_for_epsilon(self, epsilon: float) -> float:
        """delta(``epsilon``), the larger of the two orientations (an upper bound)."""
        return float(self._native.delta(float(epsilon)))

    @property
    def value_discretization_interval(self) -> float:
        """The bin width of the privacy-loss grid."""
        return float(self._native.bin_width)

    def __repr__(self) -> str:
        return (
            "PrivacyLossDistribution(value_discretization_interval="
            f"{self.value_discretization_interval})"
        )
