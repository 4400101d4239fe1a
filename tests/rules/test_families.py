"""Where a rule lives is its family: one module (or package) per family under `rules/families/`, all of them in the pack."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

from bpywright.rules import families
from bpywright.rules.base import DriftRule, family_of
from bpywright.rules.pack import ALL_RULES, FAMILIES, MODULES

RULES_DIR = Path(families.__file__).parent.parent


def _family_modules() -> list[str]:
    """Every module under rules/families/, packages' own __init__ left out."""
    return [m.name for m in pkgutil.walk_packages(families.__path__, families.__name__ + ".") if not m.ispkg]


def test_every_rule_lives_in_the_module_of_its_family() -> None:
    for module in MODULES:
        for rule in module.RULES:
            assert rule.transformer.__module__ == module.__name__, f"{rule.id}: its transformer lives outside {module.__name__}"
            assert rule.family == family_of(module.__name__) == module.__name__.split(".")[3]


def test_every_family_module_is_in_the_pack_and_nothing_else_holds_rules() -> None:
    assert sorted(m.__name__ for m in MODULES) == sorted(_family_modules())
    outside = [p.stem for p in RULES_DIR.glob("*.py") if hasattr(importlib.import_module(f"bpywright.rules.{p.stem}"), "RULES")]
    assert outside == []


def test_a_familys_modules_apply_together_and_ids_are_unique() -> None:
    order = [family_of(m.__name__) for m in MODULES]
    assert list(dict.fromkeys(order)) == [f for i, f in enumerate(order) if i == 0 or order[i - 1] != f]
    assert [r for f in FAMILIES.values() for r in f] == list(ALL_RULES)
    assert len({r.id for r in ALL_RULES}) == len(ALL_RULES) == 78


def test_the_families_are_the_names_under_families() -> None:
    names = {m.name for m in pkgutil.iter_modules(families.__path__)}
    assert set(FAMILIES) == names


def test_a_rule_outside_the_families_package_has_no_family() -> None:
    rule = DriftRule("x", "a rule in the wrong place", "2.80", "2.80", type("T", (ALL_RULES[0].transformer,), {}))
    with pytest.raises(ValueError, match="rules.families"):
        _ = rule.family
