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

class PrivateReward:
    """A reward released by a CtlCurator (not constructible from Python)."""

    @property
    def value(self) -> float: ...

class CtlCurator:
    """Zhou & Tan's Curator 1."""

    def __init__(self, epsilon: float, b: float, r: float, seed: int, trial: int = 0) -> None: ...
    def privatize(self, reward: float) -> PrivateReward: ...
    @property
    def laplace_scale(self) -> float: ...
    def claim_json(self) -> str: ...

class LdpLearner:
    """A private learner of Zhou & Tan (tgp, ata, moma)."""

    def __init__(
        self,
        algorithm: str,
        arms: npt.NDArray[np.float64],
        kernel: str,
        lengthscale: float,
        curator: CtlCurator,
        horizon: int,
        preset: str,
        seed: int,
        trial: int = 0,
    ) -> None: ...
    def select(self) -> int: ...
    def observe(self, reward: PrivateReward) -> None: ...

def rust_trial(
    algorithm: str,
    arms: npt.NDArray[np.float64],
    means: npt.NDArray[np.float64],
    noise_sd: float,
    kernel: str,
    lengthscale: float,
    epsilon: float,
    b: float,
    r: float,
    horizon: int,
    preset: str,
    seed: int,
) -> tuple[list[int], list[float]]: ...

class PrivatizedStatistics:
    """Noisy statistics released by a JdpPrivatizer (not constructible from Python)."""

    @property
    def observations(self) -> int: ...

class JdpPrivatizer:
    """Dubey's trusted privatizer."""

    def privatize(self, point: npt.NDArray[np.float64], reward: float) -> PrivatizedStatistics: ...
    @property
    def time(self) -> int: ...

class JdpServer:
    """Dubey's server (approximate GP-UCB on the released statistics)."""

    def select(self, decision_set: npt.NDArray[np.float64]) -> int: ...
    def observe(self, statistics: PrivatizedStatistics) -> None: ...

def jdp_pair(
    d: int,
    lengthscale: float,
    horizon: int,
    profile: str,
    alpha: float,
    beta: float,
    reward_bound: float,
    mbar: int | None,
    seed: int,
    trial: int,
) -> tuple[JdpServer, JdpPrivatizer]: ...
def jdp_rust_trial(
    arms: npt.NDArray[np.float64],
    means: npt.NDArray[np.float64],
    noise_sd: float,
    lengthscale: float,
    horizon: int,
    profile: str,
    alpha: float,
    beta: float,
    reward_bound: float,
    mbar: int | None,
    seed: int,
    local: bool,
) -> tuple[list[int], list[float]]: ...

class Usca:
    """USCA after its learning stage."""

    def predict(self, context: npt.NDArray[np.float64], epsilon: float) -> int: ...
    def sensitivity(self, context: npt.NDArray[np.float64]) -> float: ...
    def summary_json(self) -> str: ...

def usca_learn(
    reward: object | None,
    actions: npt.NDArray[np.float64],
    lower: npt.NDArray[np.float64],
    upper: npt.NDArray[np.float64],
    horizon: int,
    noise_sd: float,
    family: str,
    action_lengthscale: float,
    context_lengthscale: float,
    profile: str,
    tau: float,
    reward_bound: float,
    z_cap: int,
    seed: int,
) -> Usca: ...

class AgentVector:
    """An agent's sampled vector (not constructible from Python)."""

class Broadcast:
    """The server's release of one round (not constructible from Python)."""

class FtsAgent:
    """One DP-FTS-DE agent."""

    def initial_points(self) -> list[int]: ...
    def select(self, t: int, broadcast: Broadcast | None) -> tuple[int, str]: ...
    def observe(self, x: int, y: float) -> None: ...
    def sample_vector(self) -> AgentVector: ...
    @property
    def region(self) -> int: ...

class FtsServer:
    """The DP-FTS-DE central server."""

    def aggregate(self, t: int, vectors: list[AgentVector]) -> Broadcast: ...
    def privacy_loss_json(self) -> str | None: ...
    @property
    def releases(self) -> int: ...

def fts_federation(
    points: npt.NDArray[np.float64],
    lower: npt.NDArray[np.float64],
    upper: npt.NDArray[np.float64],
    n_agents: int,
    preset: str,
    iterations: int,
    privacy: tuple[float, float, float] | None,
    non_private: bool,
    seed: int,
    run: int,
) -> tuple[list[FtsAgent], FtsServer]: ...
def fts_rust_federation(
    points: npt.NDArray[np.float64],
    lower: npt.NDArray[np.float64],
    upper: npt.NDArray[np.float64],
    objectives: npt.NDArray[np.float64],
    noise_sd: float,
    preset: str,
    iterations: int,
    privacy: tuple[float, float, float] | None,
    non_private: bool,
    seed: int,
    run: int,
) -> tuple[list[list[int]], list[list[float]]]: ...

class ClientMessage:
    """A local-model client's perturbed message (not constructible from Python)."""

class JdpLocalClient:
    """A client of Dubey's local-model algorithm."""

    def perturb(self, point: npt.NDArray[np.float64], reward: float) -> ClientMessage: ...

class JdpLocalServer:
    """The server of Dubey's local-model algorithm."""

    def select(self, decision_set: npt.NDArray[np.float64]) -> int: ...
    def observe(self, message: ClientMessage) -> None: ...

def jdp_local_pair(
    d: int,
    lengthscale: float,
    horizon: int,
    profile: str,
    alpha: float,
    beta: float,
    reward_bound: float,
    mbar: int | None,
    seed: int,
    trial: int,
) -> tuple[JdpLocalServer, JdpLocalClient]: ...


class HeavyTailedLearner:
    """A non-private heavy-tailed learner of Zhou & Tan (tgp, ata, moma)."""

    def __init__(
        self,
        algorithm: str,
        arms: npt.NDArray[np.float64],
        kernel: str,
        lengthscale: float,
        b: float,
        alpha: float,
        moment: float,
        horizon: int,
        preset: str,
        seed: int,
        trial: int = 0,
    ) -> None: ...
    def select(self) -> int: ...
    def observe(self, reward: float) -> None: ...

def heavy_tailed_rust_trial(
    algorithm: str,
    arms: npt.NDArray[np.float64],
    means: npt.NDArray[np.float64],
    nu: float,
    scale: float,
    kernel: str,
    lengthscale: float,
    b: float,
    alpha: float,
    moment: float,
    horizon: int,
    preset: str,
    seed: int,
) -> tuple[list[int], list[float]]: ...
