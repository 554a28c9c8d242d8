"""Dai et al. 2021 (DP-FTS-DE: differentially private federated Thompson sampling with
distributed exploration) on your own objectives: the agents and the central server, with the
protocol of the Rust ``run_federation``.

Each :class:`Agent` keeps its own observations (its raw rewards never leave it) and sends an
:class:`AgentVector` (a Thompson sample of its weights); the :class:`Server` subsamples the
agents, clips each vector, adds Gaussian noise and releases a :class:`Broadcast`. Neither
message can be made from Python: only an agent makes an ``AgentVector``, only the server a
``Broadcast``.

The protocol (:func:`federation`): at iteration 0 each agent queries its
:meth:`Agent.initial_points`, observes their rewards and sends a vector; the server aggregates
round 0. At ``t = 1 .. T`` each agent :meth:`Agent.select` s with the last broadcast, observes,
and (for ``t < T``) sends a vector; the server aggregates round ``t``.

>>> import numpy as np
>>> points = np.linspace(0, 1, 30)[:, None]
>>> f = np.array([np.sin(6 * points[:, 0] + k / 10) for k in range(4)])
>>> rng = np.random.default_rng(0)
>>> agents, server = federation(points, [0.0], [1.0], n_agents=4, iterations=5,
...                             privacy=(0.5, 1.0, 1.0), seed=2)
>>> vectors = []
>>> for k, a in enumerate(agents):
...     for x in a.initial_points():
...         a.observe(x, f[k, x] + rng.normal(0, 0.01))
...     vectors.append(a.sample_vector())
>>> b = server.aggregate(0, vectors)
>>> x, how = agents[0].select(1, b)
>>> how in ("thompson", "server"), server.privacy_loss()["releases"]
(True, 1)
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from . import _native
from ._native import AgentVector, Broadcast

PRESETS = ("synthetic", "real-world")


def _privacy(privacy: Any) -> tuple[tuple[float, float, float] | None, bool]:
    """``(override, non_private)`` for the native call."""
    if privacy is None:
        return None, True
    if isinstance(privacy, str):
        if privacy != "preset":
            raise ValueError(f"privacy {privacy!r}: 'preset', None, or (q, z, clip)")
        return None, False
    q, z, clip = privacy
    return (float(q), float(z), float(clip)), False


class Agent:
    """One agent of the federation (its own posterior, its own random stream)."""

    def __init__(self, native: Any) -> None:
        self._native = native

    def initial_points(self) -> list[int]:
        """The points (domain indices) to query at iteration 0."""
        return list(self._native.initial_points())

    def select(self, t: int, broadcast: Broadcast | None) -> tuple[int, str]:
        """The point to query at iteration ``t >= 1`` given the server's last broadcast, and how
        it was chosen (``"thompson"``: its own posterior; ``"server"``: the broadcast)."""
        if broadcast is not None and not isinstance(broadcast, Broadcast):
            raise TypeError(f"broadcast must be a Broadcast from the server, not {type(broadcast).__name__}")
        x, how = self._native.select(int(t), broadcast)
        return int(x), how

    def observe(self, x: int, y: float) -> None:
        """Observe the reward ``y`` of the point ``x`` (the agent's own data)."""
        self._native.observe(int(x), float(y))

    def sample_vector(self) -> AgentVector:
        """The vector to send to the server this round."""
        return self._native.sample_vector()

    @property
    def region(self) -> int:
        """The sub-region this agent explores."""
        return int(self._native.region)


class Server:
    """The central server: sees only :class:`AgentVector` s, releases :class:`Broadcast` s."""

    def __init__(self, native: Any) -> None:
        self._native = native

    def aggregate(self, t: int, vectors: list[AgentVector]) -> Broadcast:
        """Aggregate round ``t``'s vectors (one per agent, in agent order)."""
        for v in vectors:
            if not isinstance(v, AgentVector):
                raise TypeError(f"the server aggregates AgentVectors only, not {type(v).__name__}")
        return self._native.aggregate(int(t), list(vectors))

    def privacy_loss(self) -> dict[str, Any] | None:
        """The privacy loss of the releases so far (the paper's RDP accountant: ``releases``,
        ``delta``, ``epsilon_paper``, ``order``), or ``None`` for a non-private server."""
        text = self._native.privacy_loss_json()
        return None if text is None else json.loads(text)


def federation(
    points: Any,
    lower: Any,
    upper: Any,
    n_agents: int,
    iterations: int,
    privacy: tuple[float, float, float] | str | None = "preset",
    preset: str = "synthetic",
    seed: int = 0,
    run: int = 0,
) -> tuple[list[Agent], Server]:
    """The agents and the server for ``iterations`` rounds on the finite domain ``points``
    (one row per point) inside the box ``[lower, upper]``, under ``preset`` (``"synthetic"`` or
    ``"real-world"``, docs/dp-fts-de.md): ``privacy="preset"`` keeps the preset's own privacy
    setting, ``privacy=(q, z, clip)`` (sampling rate, noise multiplier, clipping bound)
    replaces it, ``privacy=None`` makes the server non-private. ``seed`` and ``run`` select the
    Rust run's streams."""
    p = np.ascontiguousarray(points, dtype=np.float64)
    if p.ndim == 1:
        p = p[:, None]
    agents, server = _native.fts_federation(
        p, np.ascontiguousarray(lower, dtype=np.float64).reshape(-1),
        np.ascontiguousarray(upper, dtype=np.float64).reshape(-1), int(n_agents), preset,
        int(iterations), *_privacy(privacy), int(seed), int(run),
    )
    return [Agent(a) for a in agents], Server(server)


def rust_federation(
    points: Any,
    lower: Any,
    upper: Any,
    objectives: Any,
    noise_sd: float,
    iterations: int,
    privacy: tuple[float, float, float] | str | None = "preset",
    preset: str = "synthetic",
    seed: int = 0,
    run: int = 0,
) -> tuple[list[list[int]], list[list[float]]]:
    """``run_federation`` in Rust on ``objectives`` (one row per agent, one column per point)
    with Gaussian noise: each agent's actions and rewards, in order."""
    p = np.ascontiguousarray(points, dtype=np.float64)
    if p.ndim == 1:
        p = p[:, None]
    return _native.fts_rust_federation(
        p, np.ascontiguousarray(lower, dtype=np.float64).reshape(-1),
        np.ascontiguousarray(upper, dtype=np.float64).reshape(-1),
        np.ascontiguousarray(objectives, dtype=np.float64), float(noise_sd), preset,
        int(iterations), *_privacy(privacy), int(seed), int(run),
    )
