"""Where verified exemplars come from: the exemplar store (a Protocol here), or the bundled recipes ranked by BM25 (the index's)."""

from __future__ import annotations

import ast
import functools
import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ... import pyast
from ...exemplars.models import Exemplar, exemplar_id
from ...harness.report import RunReport
from ...ingest.stored import Bm25Matrix
from ...ingest.tokenize import tokenize


@runtime_checkable
class ExemplarStoreLike(Protocol):
    """What the graph needs of an exemplar store: nearest verified exemplars for a prompt, and adding a new one."""

    def nearest(self, prompt: str, version: str, k: int = 3) -> list[Exemplar]:
        """The k verified exemplars closest to the prompt, for this Blender version."""
        ...

    def add(
        self,
        *,
        script: str,
        prompt: str,
        report: RunReport,
        render: Path | None,
        source: str,
        blender_version: str,
        symbols: list[str] | None = None,
    ) -> object:
        """Store a validated script with its report and render."""
        ...


class RecipeSource:
    """The bundled, verified recipes as an exemplar source: BM25 over each recipe's prompt and docstring; add() is a no-op."""

    def __init__(self) -> None:
        self.exemplars, self.bm25 = _recipe_corpus(_recipes_stamp())

    def nearest(self, prompt: str, version: str, k: int = 3) -> list[Exemplar]:
        """The k recipes that share the most (weighted) words with the prompt; ties keep name order."""
        scores = self.bm25.get_scores(tokenize(prompt))
        order = sorted(range(len(self.exemplars)), key=lambda i: -scores[i])[:k]
        return [self.exemplars[i].model_copy() for i in order]

    def related(self, prompt: str, k: int, embed: Callable[[list[str]], Any], floor: float) -> list[tuple[Exemplar, float]]:
        """Up to k recipes whose prompt is at least `floor` similar to this one (cosine of unit vectors from embed), best
        first, with their similarity; none when embed gives no vectors."""
        vectors = embed([prompt, *(e.prompt for e in self.exemplars)])
        if vectors is None:
            return []
        sims = vectors[1:] @ vectors[0]
        order = sorted(range(len(self.exemplars)), key=lambda i: -float(sims[i]))[:k]
        return [(self.exemplars[i].model_copy(), float(sims[i])) for i in order if float(sims[i]) >= floor]

    def add(self, **_: object) -> None:
        """Recipes are fixed: nothing is stored."""
        return None


def _recipes_stamp() -> tuple[Path, tuple[tuple[str, int], ...]]:
    """The recipes folder and its files' mtimes: the key the parsed recipes are cached under."""
    from ...recipes import RECIPES_DIR

    return RECIPES_DIR, tuple((p.name, p.stat().st_mtime_ns) for p in sorted(RECIPES_DIR.glob("*.py")))


@functools.lru_cache(maxsize=2)
def _recipe_corpus(stamp: tuple[Path, tuple[tuple[str, int], ...]]) -> tuple[tuple[Exemplar, ...], Bm25Matrix]:
    """The recipes as 4.5 exemplars and their BM25, parsed once per process (again only when a recipe file changes)."""
    from ...recipes import all_recipes

    exemplars, texts = [], []
    for recipe in all_recipes():
        script = recipe.source
        doc = ast.get_docstring(pyast.parse(script)) or ""
        texts.append(tokenize(f"{recipe.name.replace('_', ' ')} {recipe.prompt} {doc}"))
        digest = hashlib.sha256(script.encode()).hexdigest()
        exemplars.append(
            Exemplar(
                id=exemplar_id(digest, "4.5"),
                prompt=recipe.prompt,
                script=script,
                script_sha256=digest,
                blender_version="4.5",
                status="ok",
                source="recipe",
                created_at=datetime.fromtimestamp(recipe.path.stat().st_mtime, tz=UTC),
            )
        )
    return tuple(exemplars), Bm25Matrix.from_corpus(texts)
