"""Every fixture loads and compares clean against its own outputs through Python; a perturbed
value beyond its tolerance fails, with the report naming the field."""

from __future__ import annotations

import copy

import pytest

from dpgpbandits import fixtures

NAMES = fixtures.names()


def test_there_are_fixtures_in_every_area():
    areas = {n.split("/")[0] for n in NAMES}
    assert {"kernel", "bandit", "privacy", "ldp-bo", "jdp-qff", "dp-fts-de", "usca"} <= areas


@pytest.mark.parametrize("name", NAMES)
def test_every_fixture_compares_clean(name):
    f = fixtures.load(name)
    assert f["name"] and f["tolerances"]
    result = fixtures.compare(name, f["outputs"])
    assert result, str(result)


def _first_number(v, path=()):
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return path
    if isinstance(v, dict):
        items = v.items()
    elif isinstance(v, list):
        items = enumerate(v)
    else:
        return None
    for k, x in items:
        p = _first_number(x, path + (k,))
        if p is not None:
            return p
    return None


def test_a_value_off_by_more_than_its_tolerance_fails():
    f = fixtures.load("privacy/accountant")
    outputs = copy.deepcopy(f["outputs"])
    path = _first_number(outputs)
    node = outputs
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = node[path[-1]] + 1e-3
    result = fixtures.compare("privacy/accountant", outputs)
    assert not result
    assert "FAIL" in str(result)


def test_unknown_fixture_and_wrong_shape():
    with pytest.raises(ValueError, match="no fixture"):
        fixtures.load("privacy/nope")
    with pytest.raises(ValueError):
        fixtures.compare("privacy/nope", {})
    result = fixtures.compare("privacy/accountant", {"epsilons": "not a list"})
    assert not result and result.status == "schema_mismatch"
