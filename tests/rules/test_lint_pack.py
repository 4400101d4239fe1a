"""The drift rules inside lint: `rules` diagnostics with the concrete fix, none on working 4.5 code."""

from __future__ import annotations

import pytest

from bpywright.harness.lint import lint_source
from bpywright.recipes import all_recipes
from bpywright.rules import rule_pack
from bpywright.rules.pack import ALL_RULES, drift_check

from .helpers import src

OLD = src("""
import bpy
obj = bpy.data.objects.new("O", None)
bpy.context.scene.objects.link(obj)
obj.select = True
for o in bpy.data.objects:
    if o.type == 'LAMP':
        print(o.name)
""")


def test_rule_pack_keeps_node_sockets_and_adds_drift() -> None:
    rules = rule_pack("4.5")
    found = [d for rule in rules for d in rule(OLD)]
    link = next(d for d in found if d.code == "scene-objects-link")
    assert link.tool == "rules" and link.severity == "blocking" and link.line == 3
    assert link.fix == "bpy.context.collection.objects.link(obj)"
    assert next(d for d in found if d.code == "object-select").fix == "obj.select_set(True)"
    lamp = next(d for d in found if d.code == "lamps-to-lights")
    assert lamp.severity == "advisory"  # comparing with 'LAMP' fails silently, it does not raise


@pytest.mark.parametrize("recipe", all_recipes(), ids=lambda r: r.name)
def test_no_blocking_drift_on_working_recipes(recipe) -> None:
    assert [d for d in drift_check(recipe.source) if d.severity == "blocking"] == []


def test_lint_reports_rules_with_their_fix(tmp_path) -> None:
    # no symbol index under tmp_path: api-check stays out, whatever `bpywright ingest` built in this checkout
    report = lint_source(OLD, tools=("ruff",), rules=rule_pack("4.5", index_root=tmp_path))
    rules = [d for d in report.blocking if d.tool == "rules"]
    assert {d.code for d in rules} == {"scene-objects-link", "object-select"}


def test_every_rule_has_explained_errors_and_a_version_window() -> None:
    for rule in ALL_RULES:
        assert rule.explains and rule.fails_from and rule.title, rule.id
        assert rule.applies(rule.fails_from), rule.id
