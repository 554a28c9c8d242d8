"""Pavlovic, Salgia & Zhao 2025 (USCA: a private contextual recommender from a non-adaptive
learning stage) on your own reward function.

:func:`learn` runs the learning stage (``horizon`` queries at data-independent points: a
uniform action and a uniform context each; your ``reward(x, c)`` answers each, plus Gaussian
noise ``noise_sd`` if you want the environment to add it) and builds the estimator; the result's
:meth:`Usca.predict` is the ``epsilon``-DP prediction stage (the exponential mechanism on
``mu_T(., c)`` with the profile's sensitivity). The non-private utilities are not exposed: the
prediction is the release.

Profiles (docs/usca.md): ``"proven"`` (``Delta = 2 B sup k / tau``, the default),
``"certified"`` (a certified bound on ``sup sigma^2`` for the drawn ``Z``),
``"query-context"`` (the sensitivity at the query context, certified ``S``), ``"verbatim"``
(the fixed smoother as printed, proven ``Delta``). Each is ``epsilon``-DP.

>>> import numpy as np
>>> actions = np.linspace(0, 1, 20)[:, None]
>>> model = learn(lambda x, c: float(np.sin(6 * x[0]) * np.cos(3 * c[0])), actions,
...               lower=[0.0], upper=[1.0], horizon=256, noise_sd=0.1, seed=1,
...               profile="query-context")
>>> 0 <= model.predict([0.3], epsilon=1.0) < 20
True
"""

from __future__ import annotations

import json
from typing import Any, Callable

import numpy as np

from . import _native

PROFILES = ("proven", "certified", "query-context", "verbatim")


class Usca:
    """USCA after its learning stage."""

    def __init__(self, native: Any) -> None:
        self._native = native

    def predict(self, context: Any, epsilon: float) -> int:
        """The ``epsilon``-DP recommendation (a row index of the actions) for ``context``. Each
        call spends ``epsilon`` (basic composition over calls)."""
        return int(self._native.predict(np.ascontiguousarray(context, dtype=np.float64).reshape(-1),
                                        float(epsilon)))

    def sensitivity(self, context: Any) -> float:
        """The sensitivity ``Delta`` the prediction at ``context`` is calibrated to."""
        return float(self._native.sensitivity(
            np.ascontiguousarray(context, dtype=np.float64).reshape(-1)))

    @property
    def summary(self) -> dict[str, Any]:
        """``T``, ``gamma_T``, ``K``, ``|Z|``, ``rho``, the rule, ``sup sigma^2`` and ``Delta``."""
        return json.loads(self._native.summary_json())


def learn(
    reward: Callable[[np.ndarray, np.ndarray], float] | None,
    actions: Any,
    lower: Any,
    upper: Any,
    horizon: int,
    noise_sd: float = 0.0,
    kernel: str = "se",
    action_lengthscale: float = 0.2,
    context_lengthscale: float = 0.3,
    profile: str = "proven",
    tau: float = 1.0,
    reward_bound: float = 1.5,
    z_cap: int = 1024,
    seed: int = 0,
) -> Usca:
    """Run USCA's learning stage on ``reward(x, c)`` (``x`` an action row, ``c`` a context, both
    numpy arrays; returns a float) and build the estimator.

    ``actions``: the finite action set, one row per action; contexts are uniform on the box
    ``[lower, upper]``; ``kernel``: ``"se"`` or ``"matern52"`` (a product of the two factors,
    with the two lengthscales); ``reward_bound``: the clipping bound ``B`` (every reward is
    clipped to ``[-B, B]`` before the estimator, whatever ``reward`` returns); ``z_cap``: the
    cap on ``|Z|``. ``seed`` fixes the environment's, the algorithm's and the prediction
    stage's streams. ``reward=None`` uses the reference reward ``x_0 c_0 - x_0^2 / 2`` (the
    tests' check that Python and Rust agree).
    """
    a = np.ascontiguousarray(actions, dtype=np.float64)
    if a.ndim == 1:
        a = a[:, None]
    native = _native.usca_learn(
        reward, a, np.ascontiguousarray(lower, dtype=np.float64).reshape(-1),
        np.ascontiguousarray(upper, dtype=np.float64).reshape(-1), int(horizon),
        float(noise_sd), kernel, float(action_lengthscale), float(context_lengthscale), profile,
        float(tau), float(reward_bound), int(z_cap), int(seed),
    )
    return Usca(native)
