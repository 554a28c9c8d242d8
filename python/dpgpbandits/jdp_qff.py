"""Dubey 2021 (joint differential privacy for GP bandits with quadrature Fourier features) on
your own objective: the trusted privatizer and the server, with the select/observe protocol.

- :class:`Privatizer` (Algorithm 2): sees each round's point and raw reward, releases
  tree-aggregated noisy statistics (:class:`PrivatizedStatistics`, which only it makes).
- :class:`Server` (Algorithm 1): approximate GP-UCB on the released statistics; it chooses a
  row of the decision set it is given each round and never sees a raw reward.
- The local model (Algorithm 3, :func:`make_local`): a :class:`LocalClient` perturbs its own
  round into a :class:`ClientMessage` (which only it makes) and a :class:`LocalServer` sums them.

:func:`make` builds the pair for ``horizon`` rounds on points in ``[0, 1]^d`` under a named
profile (``"provably-private"``, the default, ``"tightened"``, ``"tuned"``/``"tuned:SCALE"``, or
``"paper-as-printed"``, which carries no guarantee from the paper's argument; docs/jdp-qff.md,
"Profiles").

>>> import numpy as np
>>> arms = np.linspace(0, 1, 20)[:, None]
>>> f = np.sin(6 * arms[:, 0]) / 2
>>> rng = np.random.default_rng(0)
>>> server, privatizer = make(d=1, lengthscale=0.2, horizon=30, seed=4)
>>> for t in range(30):
...     a = server.select(arms)
...     server.observe(privatizer.privatize(arms[a], f[a] + rng.normal(0, 0.1)))
>>> privatizer.time
30
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _native
from ._native import ClientMessage, PrivatizedStatistics

PROFILES = ("paper-as-printed", "provably-private", "tightened", "tuned")


class Server:
    """The server of JDP GP-UCB: chooses among the rows of a decision set and observes only
    :class:`PrivatizedStatistics`."""

    def __init__(self, native: Any) -> None:
        self._native = native

    def select(self, decision_set: Any) -> int:
        """The index of the row of ``decision_set`` (one point per row, in ``[0, 1]^d``) to play."""
        d = np.ascontiguousarray(decision_set, dtype=np.float64)
        if d.ndim == 1:
            d = d[:, None]
        return int(self._native.select(d))

    def observe(self, statistics: PrivatizedStatistics) -> None:
        """Take the privatizer's latest release (a plain array raises ``TypeError``)."""
        if not isinstance(statistics, PrivatizedStatistics):
            raise TypeError(
                "the server observes only PrivatizedStatistics released by a Privatizer, "
                f"not {type(statistics).__name__}"
            )
        self._native.observe(statistics)


class Privatizer:
    """The trusted privatizer of JDP GP-UCB: one call per round with the played point and its
    raw reward (clipped to the reward bound inside)."""

    def __init__(self, native: Any) -> None:
        self._native = native

    def privatize(self, point: Any, reward: float) -> PrivatizedStatistics:
        """Release the statistics after this round."""
        p = np.ascontiguousarray(point, dtype=np.float64).reshape(-1)
        return self._native.privatize(p, float(reward))

    @property
    def time(self) -> int:
        """Rounds privatized so far."""
        return int(self._native.time)


def make(
    d: int,
    lengthscale: float,
    horizon: int,
    profile: str = "provably-private",
    alpha: float = 1.0,
    beta: float = 0.1,
    reward_bound: float = 1.0,
    mbar: int | None = None,
    seed: int = 0,
    trial: int = 0,
) -> tuple[Server, Privatizer]:
    """The server and the privatizer of ``(alpha, beta)``-JDP GP-UCB for ``horizon`` rounds on
    points of ``[0, 1]^d``: SE quadrature Fourier features of ``lengthscale`` with ``mbar``
    nodes per dimension (the paper's ``ceil(6 ln T)`` when ``None``), Section 6.1's parameters
    with ``alpha``, ``beta`` and ``reward_bound``, under ``profile``. ``seed`` and ``trial``
    select the Rust runner's streams."""
    server, privatizer = _native.jdp_pair(
        int(d), float(lengthscale), int(horizon), profile, float(alpha), float(beta),
        float(reward_bound), None if mbar is None else int(mbar), int(seed), int(trial),
    )
    return Server(server), Privatizer(privatizer)


def rust_trial(
    arms: Any,
    means: Any,
    noise_sd: float,
    *,
    lengthscale: float,
    horizon: int,
    profile: str = "provably-private",
    alpha: float = 1.0,
    beta: float = 0.1,
    reward_bound: float = 1.0,
    mbar: int | None = None,
    seed: int = 0,
) -> tuple[list[int], list[float]]:
    """One trial of the Rust runner on fixed arms with mean rewards ``means`` and Gaussian noise:
    its actions and raw rewards (a Python loop with the same seed fed these rewards takes these
    actions)."""
    a = np.ascontiguousarray(arms, dtype=np.float64)
    if a.ndim == 1:
        a = a[:, None]
    return _native.jdp_rust_trial(
        a, np.ascontiguousarray(means, dtype=np.float64), float(noise_sd), float(lengthscale),
        int(horizon), profile, float(alpha), float(beta), float(reward_bound),
        None if mbar is None else int(mbar), int(seed), False,
    )


class LocalServer:
    """The server of the local-model algorithm (Algorithm 3): observes only
    :class:`ClientMessage` s."""

    def __init__(self, native: Any) -> None:
        self._native = native

    def select(self, decision_set: Any) -> int:
        """The index of the row of ``decision_set`` to play."""
        d = np.ascontiguousarray(decision_set, dtype=np.float64)
        if d.ndim == 1:
            d = d[:, None]
        return int(self._native.select(d))

    def observe(self, message: ClientMessage) -> None:
        """Add a client's perturbed message (anything else raises ``TypeError``)."""
        if not isinstance(message, ClientMessage):
            raise TypeError(
                f"the local server observes only ClientMessages, not {type(message).__name__}"
            )
        self._native.observe(message)


class LocalClient:
    """A client of the local-model algorithm: perturbs its own point and reward before they
    leave it (each client's message is ``(alpha, beta)``-locally private)."""

    def __init__(self, native: Any) -> None:
        self._native = native

    def perturb(self, point: Any, reward: float) -> ClientMessage:
        """The message of this client's round (the reward clipped inside)."""
        p = np.ascontiguousarray(point, dtype=np.float64).reshape(-1)
        return self._native.perturb(p, float(reward))


def make_local(
    d: int,
    lengthscale: float,
    horizon: int,
    profile: str = "provably-private",
    alpha: float = 1.0,
    beta: float = 0.1,
    reward_bound: float = 1.0,
    mbar: int | None = None,
    seed: int = 0,
    trial: int = 0,
) -> tuple[LocalServer, LocalClient]:
    """The server and a client of the local-model algorithm, with the arguments of
    :func:`make` (one client object stands for every round's client: it holds no data)."""
    server, client = _native.jdp_local_pair(
        int(d), float(lengthscale), int(horizon), profile, float(alpha), float(beta),
        float(reward_bound), None if mbar is None else int(mbar), int(seed), int(trial),
    )
    return LocalServer(server), LocalClient(client)


def rust_local_trial(
    arms: Any,
    means: Any,
    noise_sd: float,
    *,
    lengthscale: float,
    horizon: int,
    profile: str = "provably-private",
    alpha: float = 1.0,
    beta: float = 0.1,
    reward_bound: float = 1.0,
    mbar: int | None = None,
    seed: int = 0,
) -> tuple[list[int], list[float]]:
    """One trial of the Rust runner with the local-model algorithm: its actions and rewards."""
    a = np.ascontiguousarray(arms, dtype=np.float64)
    if a.ndim == 1:
        a = a[:, None]
    return _native.jdp_rust_trial(
        a, np.ascontiguousarray(means, dtype=np.float64), float(noise_sd), float(lengthscale),
        int(horizon), profile, float(alpha), float(beta), float(reward_bound),
        None if mbar is None else int(mbar), int(seed), True,
    )
