"""The golden fixtures: list, load, and compare your outputs with them, with the per-field
tolerances and report of ``cargo xtask compare``.

The fixtures live in the ``fixtures/`` directory of the checkout the package was built from;
``DPGPBANDITS_FIXTURES`` or ``root=`` point elsewhere.

>>> "privacy/accountant" in names()
True
>>> f = load("privacy/accountant")
>>> bool(compare("privacy/accountant", f["outputs"]))   # the fixture against itself
True
"""

from __future__ import annotations

import json
import os
from typing import Any

from . import _native


def fixtures_root(root: str | os.PathLike[str] | None = None) -> str:
    """The fixtures directory: ``root``, else ``$DPGPBANDITS_FIXTURES``, else the checkout's."""
    if root is not None:
        return os.fspath(root)
    env = os.environ.get("DPGPBANDITS_FIXTURES")
    return env if env else os.path.normpath(_native.default_fixtures_root())


def _all(r: str | os.PathLike[str] | None) -> dict[str, Any]:
    return json.loads(_native.fixtures_json(fixtures_root(r)))


def names(root: str | os.PathLike[str] | None = None) -> list[str]:
    """Every fixture's name, ``AREA/NAME`` (e.g. ``privacy/accountant``)."""
    return sorted(_all(root))


def load(name: str, root: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The fixture ``name``: ``name``, ``description``, ``inputs``, ``outputs`` and
    ``tolerances`` (per output field: ``absolute``, ``relative``, ``units``, ``basis``)."""
    everything = _all(root)
    if name not in everything:
        raise ValueError(f"no fixture {name!r}: one of {', '.join(sorted(everything))}")
    return everything[name]


class Comparison:
    """The comparison of one fixture: true when every field is within its tolerance.

    ``status`` is ``"compared"`` or ``"schema_mismatch"``; ``fields`` lists, per field, the
    tolerance, ``max_abs_error``, ``max_rel_error``, ``failures`` and the ``worst`` value;
    ``problems`` the schema problems. ``str()`` gives the report.
    """

    def __init__(self, name: str, outcome: dict[str, Any]) -> None:
        self.name = name
        self.status: str = outcome["status"]
        self.fields: list[dict[str, Any]] = outcome.get("fields", [])
        self.problems: list[str] = outcome.get("problems", [])
        self.passed: bool = self.status == "compared" and bool(outcome.get("pass"))

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        if self.status == "schema_mismatch":
            return f"{self.name}: SCHEMA MISMATCH\n" + "\n".join(f"  {p}" for p in self.problems)
        lines = [f"{self.name}: {'PASS' if self.passed else 'FAIL'}"]
        for f in self.fields:
            t = f["tolerance"]
            lines.append(
                f"  {'ok  ' if f['pass'] else 'FAIL'} {f['field']}: {f['values']} values, "
                f"max abs error {f['max_abs_error']:.3e}, max rel error {f['max_rel_error']:.3e} "
                f"(tolerance {t['absolute']:g} + {t['relative']:g} |expected|)"
                + (f"; worst {f['worst']}" if f.get("worst") else "")
            )
        return "\n".join(lines)

    __repr__ = __str__


def compare(
    name: str, outputs: dict[str, Any], root: str | os.PathLike[str] | None = None
) -> Comparison:
    """Compare ``outputs`` (the fixture's ``outputs`` object, as computed by your code: numbers,
    lists, numpy arrays) with the fixture ``name``.

    Use it in a test as ``assert compare("privacy/accountant", mine), ...`` or print it for the
    per-field report.
    """
    text = json.dumps(outputs, default=_jsonable)
    return Comparison(name, json.loads(_native.compare_json(fixtures_root(root), name, text)))


def _jsonable(v: Any) -> Any:
    tolist = getattr(v, "tolist", None)
    if tolist is not None:
        return tolist()
    raise TypeError(f"{type(v).__name__} is not JSON serialisable")
