"""Helpers for `bpywright check` tests: script trees in tmp dirs, in-process CLI runs, parsed JUnit."""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from bpywright.check.contact_sheet import CAPTION, COLOURS, PAD, THUMB, columns_for
from bpywright.cli import main

# every run renders small and uses one warm worker per Blender: the machine has two busy cores
SMALL = ["--resolution", "64", "--jobs", "1"]


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write {relative path: dedented source} under root; returns root."""
    for rel, source in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return root


@dataclass
class CheckRun:
    """What one `bpywright check` run left behind."""

    rc: int
    out: str
    err: str
    artifacts: Path

    @property
    def summary(self) -> dict:
        return json.loads((self.artifacts / "summary.json").read_text(encoding="utf-8"))

    def case(self, script: str, target_prefix: str = "blender-") -> dict:
        """The summary's case for a script name ending (and a target label prefix)."""
        found = [c for c in self.summary["cases"] if c["script"].endswith(script) and c["target"].startswith(target_prefix)]
        assert len(found) == 1, (script, target_prefix, [(c["script"], c["target"]) for c in self.summary["cases"]])
        return found[0]


@pytest.fixture
def check(capsys, tmp_path: Path):
    """Run `bpywright check ARGS` in-process (the console script's main) with artifacts under tmp_path."""
    counter = iter(range(1000))

    def run(*args: str, artifacts: Path | None = None) -> CheckRun:
        artifacts = artifacts or tmp_path / f"artifacts{next(counter)}"
        rc = main(["check", *args, "--artifacts", str(artifacts)])
        captured = capsys.readouterr()
        return CheckRun(rc, captured.out, captured.err, artifacts)

    return run


def junit_cases(path: Path) -> dict[str, ET.Element]:
    """testcase elements of a JUnit file by name."""
    return {case.get("name"): case for case in ET.parse(path).getroot().iter("testcase")}


def sheet_outcomes(path: Path, cases: int, versions: int = 1) -> list[str]:
    """The outcome each contact-sheet cell is marked with (the colour strip under its thumbnail), row by row."""
    from PIL import Image

    by_colour = {colour: outcome for outcome, colour in COLOURS.items()}
    columns = columns_for(cases, versions)
    with Image.open(path) as image:
        rgb = image.convert("RGB")
        return [
            by_colour.get(
                rgb.getpixel(
                    (PAD + (n % columns) * (THUMB + PAD) + THUMB // 2, PAD + (n // columns) * (THUMB + CAPTION + PAD) + THUMB + 1)
                ),
                "?",
            )
            for n in range(cases)
        ]
