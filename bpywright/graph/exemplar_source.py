"""Where verified exemplars come from: the exemplar store (a Protocol here), or the bundled recipes ranked by BM25."""

from __future__ import annotations

import ast
import hashlib
import math
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol, runtime_checkable

from ..exemplars.models import Exemplar
from ..harness.report import RunReport
from ..ingest.tokenize import tokenize


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


def exemplar_id(script_sha256: str, blender_version: str) -> str:
    """The Exemplar contract's id: 16 hex digits of sha256(script_sha256:version)."""
    return hashlib.sha256(f"{script_sha256}:{blender_version}".encode()).hexdigest()[:16]


class BM25:
    """Okapi BM25 over a handful of documents (the recipes): small enough to rank in pure Python."""

    def __init__(self, documents: list[list[str]], k1: float = 1.5, b: float = 0.75) -> None:
        self.docs = [Counter(d) for d in documents]
        self.lengths = [len(d) for d in documents]
        self.avg = sum(self.lengths) / max(1, len(self.lengths)) or 1.0
        df = Counter(t for d in self.docs for t in d)
        n = len(documents)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.k1, self.b = k1, b

    def scores(self, query: list[str]) -> list[float]:
        """One score per document."""
        out = []
        for doc, length in zip(self.docs, self.lengths):
            s = 0.0
            for t in set(query):
                f = doc.get(t, 0)
                if f:
                    s += self.idf[t] * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * length / self.avg))
            out.append(s)
        return out


class RecipeSource:
    """The bundled, verified 4.5 recipes as an exemplar source: BM25 over each recipe's prompt and docstring; add() is a no-op."""

    def __init__(self) -> None:
        from ..recipes import all_recipes

        self.recipes = all_recipes()
        texts = []
        for recipe in self.recipes:
            doc = ast.get_docstring(ast.parse(recipe.source)) or ""
            texts.append(tokenize(f"{recipe.name.replace('_', ' ')} {recipe.prompt} {doc}"))
        self.bm25 = BM25(texts)

    def nearest(self, prompt: str, version: str, k: int = 3) -> list[Exemplar]:
        """The k recipes that share the most (weighted) words with the prompt; ties keep name order."""
        scores = self.bm25.scores(tokenize(prompt))
        order = sorted(range(len(self.recipes)), key=lambda i: -scores[i])[:k]
        return [self._exemplar(i) for i in order]

    def add(self, **_: object) -> None:
        """Recipes are fixed: nothing is stored."""
        return None

    def _exemplar(self, i: int) -> Exemplar:
        recipe = self.recipes[i]
        script = recipe.source
        digest = hashlib.sha256(script.encode()).hexdigest()
        created = datetime.fromtimestamp(recipe.path.stat().st_mtime, tz=UTC)
        return Exemplar(
            id=exemplar_id(digest, "4.5"),
            prompt=recipe.prompt,
            script=script,
            script_sha256=digest,
            blender_version="4.5",
            status="ok",
            source="recipe",
            created_at=created,
        )
