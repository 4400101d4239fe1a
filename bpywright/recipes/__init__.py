"""The project's own verified Blender 4.5 recipes: seed exemplars and few-shot examples."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

RECIPES_DIR = Path(__file__).parent


@dataclass(frozen=True)
class Recipe:
    """A bundled script and the one-line prompt it answers (its docstring's first line)."""

    name: str
    prompt: str
    path: Path

    @property
    def source(self) -> str:
        """The script text."""
        return self.path.read_text(encoding="utf-8")


def all_recipes() -> list[Recipe]:
    """Every bundled recipe, sorted by name."""
    recipes = []
    for path in sorted(RECIPES_DIR.glob("*.py")):
        if path.name.startswith("_"):
            continue
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        recipes.append(Recipe(path.stem, doc.strip().splitlines()[0] if doc.strip() else path.stem, path))
    return recipes
