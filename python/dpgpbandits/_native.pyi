"""Type stubs of the native extension ``dpgpbandits._native`` (Rust, PyO3). Use the documented
modules :mod:`dpgpbandits.accounting`, :mod:`dpgpbandits.audit` and
:mod:`dpgpbandits.fixtures`; these are their building blocks."""

import os
from typing import Sequence

import numpy as np
import numpy.typing as npt

class PrivacyViolation(Exception):
    """The auditor certified that a mechanism violates its privacy claim."""

class UnboundedPrivacyLoss(ValueError):
    """No finite epsilon exists for the request."""

def subsampled_gaussian_epsilon_json(
    noise_multiplier: float,
    sample_rate: float,
    steps: int,
    delta: float,
    accountant: str,
    relation: str,
    pld_bin_width: float,
) -> str:
    """One row of ``cargo xtask accountant --json``'s results, as JSON text."""

def noise_multiplier_json(
    target_epsilon: float,
    target_delta: float,
    sample_rate: float,
    steps: int,
    accountant: str,
    relation: str,
    resolution: float,
    pld_bin_width: float,
) -> str:
    """The calibration of the noise multiplier for a target epsilon, as JSON text."""

def pld_reference_settings() -> list[tuple[float, float, int, float]]:
    """The twelve reference settings ``(q, z, steps, delta)`` of the PLD accountant."""

class PrivacyLossDistribution:
    """A privacy-loss distribution (both orientations), immutable."""

    @staticmethod
    def subsampled_gaussian(
        z: float, q: float, bin_width: float, relation: str
    ) -> PrivacyLossDistribution: ...
    @staticmethod
    def laplace(epsilon: float, bin_width: float) -> PrivacyLossDistribution: ...
    @staticmethod
    def randomized_response(epsilon: float, k: int, bin_width: float) -> PrivacyLossDistribution: ...
    def compose(self, other: PrivacyLossDistribution) -> PrivacyLossDistribution: ...
    def self_compose(self, steps: int) -> PrivacyLossDistribution: ...
    def epsilon(self, delta: float) -> float: ...
    def epsilons(self, delta: float) -> tuple[float, float]: ...
    def delta(self, epsilon: float) -> float: ...
    @property
    def bin_width(self) -> float: ...

class NativeAudit:
    """The outcome of one audit."""

    def json(self) -> str: ...
    def write_plot(self, path: str | os.PathLike[str], title: str) -> None: ...

def audit(
    kind: str,
    x: npt.NDArray[np.float64] | Sequence[str],
    x_prime: npt.NDArray[np.float64] | Sequence[str],
    eps: float | None,
    delta: float | None,
    mu: float | None,
    rho: float | None,
    gaussian_noise: bool,
    statistic: str | None,
    alpha: float,
    train_fraction: float,
    target_tightness: float,
    seed: int,
) -> NativeAudit:
    """Audit ``x`` against ``x_prime`` (``kind``: scalar, vector or discrete) under a claim."""

def default_fixtures_root() -> str: ...
def fixtures_json(root: str | os.PathLike[str]) -> str: ...
def compare_json(root: str | os.PathLike[str], name: str, outputs_json: str) -> str: ...
