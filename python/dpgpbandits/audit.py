"""Audit a mechanism against its privacy claim from samples of its outputs.

The auditor is the Rust code of ``cargo xtask audit`` (``verification::audit``): it splits each
input's outputs into a training part, on which a statistic (a score of an output) is fitted, and
a held-out part, on which it counts how often a threshold event occurs under each input and
turns the two counts into a certified lower bound ``eps_lower`` on the mechanism's epsilon
(Clopper-Pearson bounds at confidence ``1 - alpha``). A lower bound above the claim is a
certified violation.

Outputs: a 1-D float array (scalar outputs), a 2-D float array (one vector output per row), or
a sequence of labels (discrete outputs; integers are turned into labels).

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> x, x_prime = rng.laplace(0.0, 1.0, 40000), rng.laplace(1.0, 1.0, 40000)
>>> result = audit(x, x_prime, eps=1.0)
>>> result.violated, result.verdict in ("consistent", "inconclusive")
(False, True)
"""

from __future__ import annotations

import json
from typing import Any, Callable, Sequence

import numpy as np

from . import _native
from ._native import PrivacyViolation


class AuditResult:
    """The outcome of an audit.

    Attributes (all from the auditor's report, :meth:`to_dict` has every field):

    - ``verdict``: ``"violation_certified"``, ``"consistent"`` or ``"inconclusive"``;
    - ``violated``: whether a violation is certified;
    - ``eps_lower``: the certified lower bound on epsilon (at ``delta``);
    - ``eps_estimate``: the point estimate at the same event;
    - ``eps_claimed``: the claim's epsilon at ``delta``;
    - ``tightness``: ``eps_lower / eps_claimed`` (or the mu analogue for Gaussian-DP claims);
    - ``samples_for_target``: held-out outputs per input that would certify
      ``target_tightness`` of the claim at this event's rates (``None`` if not reachable there);
    - ``outputs_per_input``, ``kind``, ``statistic``, ``delta``, ``confidence``.
    """

    def __init__(self, native: Any) -> None:
        self._native = native
        self._report: dict[str, Any] = json.loads(native.json())
        r = self._report["result"]
        self.verdict: str = self._report["verdict"]
        self.violated: bool = bool(r["violated"])
        self.eps_lower: float | None = r["eps_lower"]
        self.eps_estimate: float | None = r["eps_estimate"]
        self.eps_claimed: float | None = r["eps_claimed"]
        self.tightness: float | None = r["tightness"]
        self.samples_for_target: int | None = self._report["samples_for_target"]
        self.target_tightness: float = self._report["target_tightness"]
        self.outputs_per_input: int = self._report["outputs_per_input"]
        self.kind: str = self._report["kind"]
        self.statistic: str = r["statistic"]
        self.delta: float = r["delta"]
        self.confidence: float = r["confidence"]

    def to_dict(self) -> dict[str, Any]:
        """The whole report (the object of ``cargo xtask audit --json``)."""
        return json.loads(json.dumps(self._report))

    def write_plot(self, path: str, title: str | None = None) -> str:
        """Write the trade-off plot (SVG): the claim's curve, the empirical trade-off of the
        statistic, and the certified points. Returns the path."""
        self._native.write_plot(str(path), title or f"audit: {self.verdict}")
        return str(path)

    def raise_if_violated(self) -> "AuditResult":
        """Raise :class:`dpgpbandits.PrivacyViolation` if a violation is certified; return
        ``self`` otherwise."""
        if self.violated:
            raise PrivacyViolation(
                f"privacy violation certified: eps >= {self.eps_lower} against the claimed "
                f"{self.eps_claimed} at delta = {self.delta} (confidence {self.confidence})"
            )
        return self

    def __repr__(self) -> str:
        return (
            f"AuditResult(verdict={self.verdict!r}, eps_lower={self.eps_lower}, "
            f"eps_claimed={self.eps_claimed}, tightness={self.tightness}, "
            f"outputs_per_input={self.outputs_per_input})"
        )


def _kind(x: Any, kind: str | None) -> tuple[str, Any]:
    if kind not in (None, "scalar", "vector", "discrete"):
        raise ValueError(f"kind {kind!r}: one of 'scalar', 'vector', 'discrete'")
    if kind == "discrete" or (
        kind is None
        and not isinstance(x, np.ndarray)
        and len(x) > 0
        and isinstance(x[0], str)
    ):
        return "discrete", [str(v) for v in x]
    a = np.asarray(x)
    if kind == "discrete" or a.dtype.kind in "USO":
        return "discrete", [str(v) for v in a.tolist()]
    a = np.ascontiguousarray(a, dtype=np.float64)
    if a.ndim == 1 and kind in (None, "scalar"):
        return "scalar", a
    if a.ndim == 2 and kind in (None, "vector"):
        return "vector", a
    raise ValueError(
        f"outputs of shape {a.shape} as {kind or 'inferred'} outputs: give a 1-D array "
        "(scalar), a 2-D array (vector, one output per row) or a sequence of labels (discrete)"
    )


def audit(
    x: Any,
    x_prime: Any,
    *,
    eps: float | None = None,
    delta: float | None = None,
    mu: float | None = None,
    rho: float | None = None,
    gaussian_noise: bool = False,
    kind: str | None = None,
    statistic: str | None = None,
    alpha: float = 1e-6,
    train_fraction: float = 0.5,
    target_tightness: float = 0.9,
    seed: int = 1,
) -> AuditResult:
    """Audit the outputs ``x`` (of the mechanism on one input) and ``x_prime`` (on a
    neighbouring input) against a claim: exactly one of ``eps`` (with ``delta > 0``:
    approximate DP), ``mu`` (Gaussian DP, with a ``delta`` in (0, 1) at which to certify
    epsilon) or ``rho`` (zCDP, with such a ``delta``; ``gaussian_noise=True`` if the noise is
    Gaussian, so that the audit also compares on the ``sqrt(2 rho)``-GDP curve).

    ``statistic``: ``"identity"``, ``"histogram"`` (scalar; the default), ``"mean-difference"``
    (vector; the default), ``"fisher"`` (vector) or ``"counts"`` (discrete; the default).
    ``alpha``: the false-alarm probability of a certified violation. The outputs are shuffled
    with ``seed`` before the split, so the result is reproducible. The work runs without the GIL.
    """
    kx, ax = _kind(x, kind)
    kp, ap = _kind(x_prime, kind)
    if kx != kp:
        raise ValueError(f"x holds {kx} outputs and x_prime {kp} outputs")
    native = _native.audit(
        kx,
        ax,
        ap,
        None if eps is None else float(eps),
        None if delta is None else float(delta),
        None if mu is None else float(mu),
        None if rho is None else float(rho),
        bool(gaussian_noise),
        statistic,
        float(alpha),
        float(train_fraction),
        float(target_tightness),
        int(seed),
    )
    return AuditResult(native)


def audit_mechanism(
    mechanism: Callable[[Any, int], Sequence[Any]],
    x: Any,
    x_prime: Any,
    *,
    outputs: int = 40000,
    batch_size: int = 4000,
    **claim: Any,
) -> AuditResult:
    """Audit a Python mechanism on the neighbouring inputs ``x`` and ``x_prime``:
    ``mechanism(input, n)`` must return ``n`` outputs (an array or a sequence) for ``input``; it
    is called in batches of at most ``batch_size`` until ``outputs`` outputs per input, then
    :func:`audit` runs on them with the keyword arguments ``claim`` (``eps``, ``delta``, ...,
    ``seed``). The mechanism's own randomness is its business: seed it for a reproducible
    audit.

    >>> import numpy as np
    >>> rng = np.random.default_rng(7)
    >>> def laplace(v, n):
    ...     return v + rng.laplace(0.0, 0.8, n)   # scale 0.8 for sensitivity 1: eps = 1.25
    >>> audit_mechanism(laplace, 0.0, 1.0, outputs=200000, eps=1.0).violated
    True
    """
    if outputs < 20:
        raise ValueError(f"outputs {outputs}: at least 20 per input (10 to fit, 10 held out)")
    if batch_size < 1:
        raise ValueError(f"batch_size {batch_size}: at least 1")

    def draw(v: Any) -> Any:
        parts: list[Any] = []
        have = 0
        while have < outputs:
            n = min(batch_size, outputs - have)
            got = mechanism(v, n)
            if len(got) != n:
                raise ValueError(f"the mechanism returned {len(got)} outputs for a batch of {n}")
            parts.append(got)
            have += n
        if isinstance(parts[0], np.ndarray):
            return np.concatenate(parts)
        return [o for p in parts for o in p]

    return audit(draw(x), draw(x_prime), **claim)
