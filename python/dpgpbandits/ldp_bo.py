"""Zhou & Tan 2021 (local differential privacy for GP bandits) on your own objective: the
curator and the private learners, with the select/observe protocol.

- :class:`CtlCurator` (Curator 1): releases ``clip(y, -(B + R), B + R) + Laplace((2(B + R)) /
  epsilon)``, so each released reward is ``epsilon``-LDP. It is the only maker of a
  :class:`PrivateReward`.
- :class:`Learner`: LDP-TGP-UCB (``"tgp"``), LDP-ATA-GP-UCB (``"ata"``) or LDP-MoMA-GP-UCB
  (``"moma"``) over a fixed finite arm set, calibrated to the curator's Laplace scale, under the
  ``"theory"`` or ``"practical"`` preset (docs/ldp-bo.md). ``observe`` accepts a
  :class:`PrivateReward` only: the raw reward never reaches the learner.
- :class:`HeavyTailedLearner`: the paper's non-private heavy-tailed TGP-UCB, ATA-GP-UCB and
  MoMA-GP-UCB (raw rewards with a bounded ``(1 + alpha)``-th moment), the other three of its
  six algorithms.

Seeds: ``seed`` and ``trial`` select the streams the Rust runner (``cargo xtask reproduce
ldp-bo``) gives the curator and the agent, so a loop fed the same rewards takes the same actions.

>>> import numpy as np
>>> arms = np.linspace(0, 1, 20)[:, None]
>>> f = np.sin(6 * arms[:, 0])
>>> rng = np.random.default_rng(0)
>>> curator = CtlCurator(epsilon=1.0, b=1.0, r=1.0, seed=5)
>>> learner = Learner("tgp", arms, curator, horizon=50, kernel="se", lengthscale=0.2, seed=5)
>>> for t in range(50):
...     a = learner.select()
...     learner.observe(curator.privatize(f[a] + rng.normal(0, 0.1)))
>>> 0 <= learner.select() < 20
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _native
from ._native import PrivateReward

ALGORITHMS = ("tgp", "ata", "moma")
PRESETS = ("theory", "practical")
KERNELS = ("se", "matern12", "matern32", "matern52")


class CtlCurator:
    """Curator 1 of Zhou & Tan: ``epsilon``-LDP release of one reward at a time.

    ``b`` bounds ``|f|`` and ``r`` the noise's range (the paper's ``B`` and ``R``); rewards are
    clipped to ``[-(b + r), b + r]`` before the Laplace noise, so the guarantee holds whatever
    reward is passed in.
    """

    def __init__(self, epsilon: float, b: float, r: float, seed: int, trial: int = 0) -> None:
        self._native = _native.CtlCurator(float(epsilon), float(b), float(r), int(seed), int(trial))

    def privatize(self, reward: float) -> PrivateReward:
        """Release ``reward``: the only way to make a :class:`PrivateReward`."""
        return self._native.privatize(float(reward))

    @property
    def laplace_scale(self) -> float:
        """The Laplace scale of the released noise."""
        return self._native.laplace_scale

    def claim(self) -> dict[str, Any]:
        """The privacy claim (the guarantee, the trust model, the neighbouring relation)."""
        import json

        return json.loads(self._native.claim_json())


class Learner:
    """A private learner of Zhou & Tan over the arms ``arms`` (one row per arm).

    ``algorithm``: ``"tgp"``, ``"ata"`` or ``"moma"``; ``kernel``: ``"se"``, ``"matern12"``,
    ``"matern32"`` or ``"matern52"`` with ``lengthscale``; ``horizon``: the number of rounds
    (ATA and MoMA schedule by it); ``preset``: ``"theory"`` (the paper's constants) or
    ``"practical"``. Selecting again before observing is an error for MoMA (its epochs), and
    replaces the pending selection for TGP and ATA.
    """

    def __init__(
        self,
        algorithm: str,
        arms: Any,
        curator: CtlCurator,
        horizon: int,
        kernel: str = "se",
        lengthscale: float = 0.2,
        preset: str = "practical",
        seed: int = 0,
        trial: int = 0,
    ) -> None:
        a = np.ascontiguousarray(arms, dtype=np.float64)
        if a.ndim == 1:
            a = a[:, None]
        self._native = _native.LdpLearner(
            algorithm, a, kernel, float(lengthscale), curator._native, int(horizon), preset,
            int(seed), int(trial),
        )

    def select(self) -> int:
        """The index of the arm to play next."""
        return int(self._native.select())

    def observe(self, reward: PrivateReward) -> None:
        """Observe the released reward of the arm last selected (a :class:`PrivateReward`; a
        plain number raises ``TypeError``)."""
        if not isinstance(reward, PrivateReward):
            raise TypeError(
                "a private learner observes only a PrivateReward released by a CtlCurator, "
                f"not {type(reward).__name__}"
            )
        self._native.observe(reward)


def rust_trial(
    algorithm: str,
    arms: Any,
    means: Any,
    noise_sd: float,
    *,
    epsilon: float,
    b: float,
    r: float,
    horizon: int,
    kernel: str = "se",
    lengthscale: float = 0.2,
    preset: str = "practical",
    seed: int = 0,
) -> tuple[list[int], list[float]]:
    """One trial of the Rust runner (the code of ``cargo xtask reproduce ldp-bo``) on the arms
    with mean rewards ``means`` and Gaussian noise ``noise_sd``: its actions and raw rewards.
    A Python loop with the same ``seed`` fed these rewards takes these actions."""
    a = np.ascontiguousarray(arms, dtype=np.float64)
    if a.ndim == 1:
        a = a[:, None]
    return _native.rust_trial(
        algorithm, a, np.ascontiguousarray(means, dtype=np.float64), float(noise_sd), kernel,
        float(lengthscale), float(epsilon), float(b), float(r), int(horizon), preset, int(seed),
    )


class HeavyTailedLearner:
    """A non-private heavy-tailed learner of Zhou & Tan: TGP-UCB (``"tgp"``), ATA-GP-UCB
    (``"ata"``, ``alpha = 1`` only) or MoMA-GP-UCB (``"moma"``) for raw rewards with
    ``||f||_H <= b`` and the ``(1 + alpha)``-th moment bound ``moment`` (``v`` of TGP and ATA on
    the reward, ``c`` of MoMA on the noise). **Not private**: it observes raw rewards."""

    def __init__(
        self,
        algorithm: str,
        arms: Any,
        horizon: int,
        b: float,
        alpha: float,
        moment: float,
        kernel: str = "se",
        lengthscale: float = 0.2,
        preset: str = "practical",
        seed: int = 0,
        trial: int = 0,
    ) -> None:
        a = np.ascontiguousarray(arms, dtype=np.float64)
        if a.ndim == 1:
            a = a[:, None]
        self._native = _native.HeavyTailedLearner(
            algorithm, a, kernel, float(lengthscale), float(b), float(alpha), float(moment),
            int(horizon), preset, int(seed), int(trial),
        )

    def select(self) -> int:
        """The index of the arm to play next."""
        return int(self._native.select())

    def observe(self, reward: float) -> None:
        """Observe the raw reward of the arm last selected."""
        self._native.observe(float(reward))


def heavy_tailed_rust_trial(
    algorithm: str,
    arms: Any,
    means: Any,
    nu: float,
    scale: float,
    *,
    b: float,
    alpha: float,
    moment: float,
    horizon: int,
    kernel: str = "se",
    lengthscale: float = 0.2,
    preset: str = "practical",
    seed: int = 0,
) -> tuple[list[int], list[float]]:
    """One trial of the Rust runner with a heavy-tailed learner on fixed arms with Student-t
    noise (``nu`` degrees of freedom, ``scale``): its actions and raw rewards."""
    a = np.ascontiguousarray(arms, dtype=np.float64)
    if a.ndim == 1:
        a = a[:, None]
    return _native.heavy_tailed_rust_trial(
        algorithm, a, np.ascontiguousarray(means, dtype=np.float64), float(nu), float(scale),
        kernel, float(lengthscale), float(b), float(alpha), float(moment), int(horizon), preset,
        int(seed),
    )
