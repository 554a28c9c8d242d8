"""Shared helpers of the Python tests: the repository root and the Rust CLI."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def xtask():
    """Run ``cargo xtask ARGS --json`` in the repository and return the parsed JSON. The tests
    that compare with the CLI need cargo: without it they fail (never skip silently)."""
    cargo = shutil.which("cargo")
    assert cargo is not None, "cargo is needed to compare with the Rust CLI (cargo xtask)"

    def run(*args: str):
        out = subprocess.run(
            [cargo, "xtask", *args, "--json"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "CARGO_TERM_COLOR": "never"},
        )
        return json.loads(out.stdout)

    return run
