"""Differentially private Gaussian-process bandits: the reference implementation's ground truth
from Python.

The numbers come from the Rust workspace this package is built from (the same code as
``cargo xtask accountant``, ``cargo xtask audit`` and ``cargo xtask compare``):

- :mod:`dpgpbandits.accounting`: epsilon of the Poisson-subsampled Gaussian under each
  accountant, the noise multiplier for a target epsilon, composable privacy-loss distributions;
- :mod:`dpgpbandits.audit`: audit a mechanism from its outputs (numpy arrays) or a Python
  callable, against a claim;
- :mod:`dpgpbandits.fixtures`: list, load and compare the golden fixtures;
- :mod:`dpgpbandits.ldp_bo`: Zhou & Tan's curator and private learners on your own objective
  (select/observe; the learner observes curator-released rewards only);
- :mod:`dpgpbandits.jdp_qff`: Dubey's privatizer and server (joint DP; the server observes
  released statistics only);
- :mod:`dpgpbandits.usca`: USCA's learning stage on your reward function and its
  ``epsilon``-DP prediction stage;
- :mod:`dpgpbandits.dp_fts_de`: DP-FTS-DE's agents and server (agents send sampled vectors, the
  server releases private broadcasts).

Errors: bad input raises :class:`ValueError` with the Rust message; an epsilon that does not
exist raises :class:`UnboundedPrivacyLoss` (a :class:`ValueError`); a privacy violation
certified by the auditor raises :class:`PrivacyViolation` when asked to
(:meth:`dpgpbandits.audit.AuditResult.raise_if_violated`).
"""

from ._native import PrivacyViolation, UnboundedPrivacyLoss
from . import accounting, audit, dp_fts_de, fixtures, jdp_qff, ldp_bo, usca

__all__ = [
    "PrivacyViolation",
    "UnboundedPrivacyLoss",
    "accounting",
    "audit",
    "dp_fts_de",
    "fixtures",
    "jdp_qff",
    "ldp_bo",
    "usca",
]
