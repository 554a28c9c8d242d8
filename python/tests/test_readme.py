"""The repository README's Python example runs as written (the package README's examples are
doctests)."""

from __future__ import annotations

import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_example_runs_as_written():
    text = README.read_text()
    section = text.split("## From Python", 1)[1]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "no python block in the README's 'From Python' section"
    scope: dict = {}
    exec(compile(blocks[0], str(README), "exec"), scope)
    assert scope["result"].verdict == "violation_certified"
