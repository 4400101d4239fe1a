"""The project's own verified recipes (Blender 4.2–5.2): seed exemplars and few-shot examples.

A recipe runs on every Blender unless it declares otherwise with a module constant, e.g. `BLENDER = ">=4.4"` or
`BLENDER = "<5.2"` (comma-separated bounds), read without running the script.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from .. import pyast
from ..versions import version_key

RECIPES_DIR = Path(__file__).parent


@dataclass(frozen=True)
class Recipe:
    """A bundled script and the one-line prompt it answers (its docstring's first line)."""

    name: str
    prompt: str
    path: Path
    blender: str = ""  # version bounds the recipe needs ("" = every version)

    def supports(self, version: str) -> bool:
        """True when the recipe runs on Blender `version` (MAJOR.MINOR or longer)."""
        return versions_match(self.blender, version)

    @property
    def source(self) -> str:
        """The script text."""
        return self.path.read_text(encoding="utf-8")


_BOUND = re.compile(r"^\s*(>=|<=|<|>|==)\s*(\d+)\.(\d+)\s*$")


def versions_match(spec: str, version: str) -> bool:
    """Whether '5.2.3' satisfies '>=4.4,<5.2' (an empty spec matches everything; a malformed bound raises ValueError)."""
    key = version_key(version)
    for bound in filter(None, (b.strip() for b in spec.split(","))):
        found = _BOUND.match(bound)
        if found is None:
            raise ValueError(f"bad Blender version bound {bound!r} (use e.g. >=4.4 or <5.2)")
        op, limit = found.group(1), (int(found.group(2)), int(found.group(3)))
        ok = {">=": key >= limit, "<=": key <= limit, "<": key < limit, ">": key > limit, "==": key == limit}[op]
        if not ok:
            return False
    return True


def _declared(tree: ast.Module) -> str:
    """The module's `BLENDER = "..."` constant, or ''."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "BLENDER" for t in node.targets):
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                return node.value.value
    return ""


def all_recipes(version: str | None = None) -> list[Recipe]:
    """Every bundled recipe (only those that run on `version` when given), sorted by name."""
    recipes = []
    for path in sorted(RECIPES_DIR.glob("*.py")):
        if path.name.startswith("_"):
            continue
        tree = pyast.parse(path.read_text(encoding="utf-8"))
        doc = ast.get_docstring(tree) or ""
        recipe = Recipe(path.stem, doc.strip().splitlines()[0] if doc.strip() else path.stem, path, _declared(tree))
        if version is None or recipe.supports(version):
            recipes.append(recipe)
    return recipes
