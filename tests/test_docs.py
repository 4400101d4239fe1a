"""The docs site builds strictly (no broken link, anchor or missing page) and its reference pages come from the code."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bpywright.cli import build_parser
from bpywright.config import Settings

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`mkdocs build --strict` of this checkout into a tmp folder (the build fails on any warning)."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out


def test_every_command_has_its_generated_page(site: Path) -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for name in commands:
        page = (site / "reference" / "commands" / name / "index.html").read_text(encoding="utf-8")
        assert f"usage: bpywright {name}" in page, name
    index = (site / "reference" / "commands" / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{name}/"' in index for name in commands)


def test_configuration_lists_every_setting_and_its_variable(site: Path) -> None:
    page = (site / "reference" / "configuration" / "index.html").read_text(encoding="utf-8")
    for field in dataclasses.fields(Settings):
        assert f"<code>{field.name}</code>" in page, field.name
    assert "BPYWRIGHT_ARTIFACTS" in page and "BPYWRIGHT_API_TOKEN" in page and "BPYWRIGHT_CLUSTER" in page


def test_http_api_page_renders_the_apps_openapi_schema(site: Path) -> None:
    spec = json.loads((site / "reference" / "openapi.json").read_text(encoding="utf-8"))
    assert "/api/v1/validate" in spec["paths"] and "/api/v1/status" in spec["paths"]
    page = (site / "reference" / "http-api" / "index.html").read_text(encoding="utf-8")
    for path, methods in spec["paths"].items():
        for method in methods:
            assert f"{method.upper()} {path}" in page, (method, path)
    assert 'id="schema-validaterequest"' in page


def test_repository_pages_are_included_as_they_are(site: Path) -> None:
    architecture = (site / "architecture" / "index.html").read_text(encoding="utf-8")
    assert "one-way arrows" in architecture
    results = (site / "benchmarks" / "generation-qwen2.5-coder-1.5b" / "index.html").read_text(encoding="utf-8")
    assert "run failure" in results


def test_the_rule_reference_lists_every_rule_under_its_family(site: Path) -> None:
    from bpywright.rules.pack import ALL_RULES

    page = (site / "reference" / "rules" / "index.html").read_text(encoding="utf-8")
    assert all(f'id="{rule.id}"' in page and f'id="{rule.family}"' in page for rule in ALL_RULES)
