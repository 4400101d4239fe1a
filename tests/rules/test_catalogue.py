"""`bpywright rules list [--json]`: every rule with its family, versions, errors and an example that the rule makes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bpywright.rules.base import FixScope
from bpywright.rules.catalogue import fails_in
from bpywright.rules.pack import ALL_RULES, BY_ID, apply_rules

ERRORS = {
    "renamed-attribute": "AttributeError: 'PointLight' object has no attribute 'intensity'",
    "matrix-matmul": "TypeError: Element-wise multiplication: not supported between 'Matrix' and 'Vector' types",
    "rgba-length": "ValueError: bpy_struct: item.attr = val: sequences of dimension 0 should contain 3 items, not 4",
    "made-up-modifier": "TypeError: ObjectModifiers.new(): error with keyword argument \"type\" -  enum \"CONNECT\" not found in ('DATA_TRANSFER', 'MESH_CACHE')",
    "data-of-data": "AttributeError: 'Mesh' object has no attribute 'data'",
    "link-already-linked": "RuntimeError: Error: Object 'Lid' already in collection 'Scene Collection'",
    "modifier-default-name": "KeyError: 'bpy_prop_collection[key]: key \"Subsurf\" not found'",
    "open-beside-script": "FileNotFoundError: [Errno 2] No such file or directory: 'utils.py'",
}
# Their example is a line of a larger script: the rule needs the script around it or the failed run's details (a
# defined name, the project's module, the object the operator needs); tests/rules heals each in full.
NEEDS_CONTEXT = {
    "active-object-missing",
    "add-data-to-scene",
    "enum-value",
    "from-pydata-shapes",
    "function-keywords",
    "gn-modifier-inputs",
    "int-from-division",
    "link-object-data",
    "material-append-object",
    "material-first-of-none",
    "material-slot-index",
    "missing-property",
    "misspelt-name",
    "node-group-interface",
    "node-type-removed",
    "object-operator-call",
    "operator-on-data",
    "operator-result-as-object",
    "own-function-keyword",
    "props-annotations",
    "register-module",
    "renamed-helper",
}


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bpywright", *args], capture_output=True, text=True, timeout=120)


def test_rules_list_json_names_every_rule_with_its_family_versions_and_example() -> None:
    proc = cli("rules", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    listed = json.loads(proc.stdout)
    assert [(r["id"], r["family"]) for r in listed] == [(r.id, r.family) for r in ALL_RULES]
    for item in listed:
        rule = BY_ID[item["id"]]
        assert item["fails_from"] == rule.fails_from and item["fails_in"] == fails_in(rule)
        assert item["explains"] == list(rule.explains) and item["before"] and item["after"] and item["before"] != item["after"]


def test_rules_list_prints_each_rule_and_filters_by_family() -> None:
    text = cli("rules", "list").stdout
    assert all(f"{r.id}  [{r.family}]  fails on {fails_in(r)}" in text for r in ALL_RULES)
    assert "  before:  obj.select = True\n  after:   obj.select_set(True)" in text
    assert "  leaves out a made-up enum item" in text and sum(line.startswith("  leaves out ") for line in text.splitlines()) == sum(
        bool(r.leaves_out) for r in ALL_RULES
    )
    values = json.loads(cli("rules", "list", "--json", "--family", "values").stdout)
    assert {r["family"] for r in values} == {"values"} and len(values) == sum(r.family == "values" for r in ALL_RULES)
    wrong = cli("rules", "list", "--family", "nope")
    assert wrong.returncode == 2 and "the families are drift_28" in wrong.stderr


@pytest.mark.parametrize("rule", [r for r in ALL_RULES if r.id not in NEEDS_CONTEXT], ids=lambda r: r.id)
def test_the_example_is_what_the_rule_makes_of_its_old_form(rule) -> None:
    before, after = rule.example
    source = before + "\n"
    scope = FixScope(rule.fails_from, lines=frozenset(range(1, source.count("\n") + 1)), error=ERRORS.get(rule.id, ""))
    healed, hits = apply_rules(source, [(rule, scope)])
    assert hits, f"{rule.id} does not fire on its example"
    assert after.startswith("(") or after in healed  # "(dropped …)": a finding or a removal, said in words


def test_the_heal_guide_tables_every_rule_with_what_it_leaves_out() -> None:
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "guides" / "heal.md").read_text(encoding="utf-8")
    for rule in ALL_RULES:
        row = next((line for line in guide.splitlines() if line.startswith(f"| `{rule.id}` |")), None)
        assert row is not None, f"{rule.id} is not in the heal guide's rule table"
        assert row.rstrip(" |").endswith(rule.leaves_out.replace("|", "\\|") or "nothing"), rule.id
