"""Which symbols a script uses, and the usage prior that puts them in the results for similar prompts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpywright.config import Settings
from bpywright.ingest.index import build_index
from bpywright.ingest.search import SymbolIndex
from bpywright.ingest.symbols import Symbol, write_symbols
from bpywright.ingest.usage import SymbolResolver, UsageExample, UsagePrior

from .test_search import SPHERE_OP, make_symbols

SCRIPT = """
import bpy
import math

bpy.ops.object.select_all(action='SELECT')
bpy.ops.object.delete()
bpy.ops.mesh.primitive_uv_sphere_add(radius=1)
obj = bpy.context.object
mat = bpy.data.materials.new(name="Red")
mat.diffuse_color = (1, 0, 0, 1)
obj.data.materials.append(mat)
angle = math.pi  # attributes of other modules are not bpy symbols
"""


def table() -> dict[str, Symbol]:
    """make_symbols() plus the few members SCRIPT touches, as the ingest writes them."""
    extra = [
        Symbol(name="bpy.ops.object.select_all", kind="operator", blender_version="4.5", signature="(action='TOGGLE')"),
        Symbol(name="bpy.ops.object.delete", kind="operator", blender_version="4.5", signature="(use_global=False)"),
        Symbol(
            name="bpy.types.BlendData.materials", kind="property", blender_version="4.5", type="Collection of Material (BlendDataMaterials)"
        ),
        Symbol(name="bpy.types.Material.diffuse_color", kind="property", blender_version="4.5", type="float array of 4"),
    ]
    return {s.name: s for s in [*make_symbols(), *extra]}


def test_resolver_names_the_symbols_a_script_uses() -> None:
    used = SymbolResolver(table()).symbols_used(SCRIPT)
    assert {"bpy.ops.object.select_all", "bpy.ops.object.delete", SPHERE_OP, "bpy.types.Material.diffuse_color"} <= used
    assert "bpy.types.BlendDataMaterials.new" in used  # bpy.data.materials.new → the collection's API struct
    assert not any("math" in name or name.endswith(".pi") for name in used)
    assert SymbolResolver(table()).symbols_used("def broken(:\n") == set()


def test_prior_suggests_what_most_similar_scripts_use_without_an_embedder() -> None:
    prior = UsagePrior()
    added = prior.add(
        [
            UsageExample("a red ball on a table", frozenset({"A", "B"})),
            UsageExample("a red ball in a box", frozenset({"A", "C"})),
            UsageExample("nothing used here", frozenset()),  # dropped
        ]
    )
    assert added == 2 and len(prior) == 2
    shares = prior.shares("red ball")
    assert shares["A"] == pytest.approx(1.0) and 0 < shares["B"] < 1 and 0 < shares["C"] < 1
    assert prior.shares("red ball table")["B"] > prior.shares("red ball table")["C"]  # the closer prompt weighs more
    assert prior.shares("completely unrelated words") == {}  # no overlap: no evidence


def test_prior_falls_back_to_token_overlap_when_the_embedder_fails() -> None:
    from bpywright.ingest.embedder import EmbedderError

    class GoneEmbedder:
        name, dim = "gone", 4

        def embed(self, texts: list[str]) -> list[list[float]]:
            raise EmbedderError("endpoint went away")

    prior = UsagePrior(GoneEmbedder())  # type: ignore[arg-type]
    assert prior.add([UsageExample("a red ball on a table", frozenset({"A"})), UsageExample("a blue box", frozenset({"B"}))]) == 2
    assert prior.embedder is None and len(prior) == 2  # nothing lost: both examples kept, without vectors
    shares = prior.shares("red ball", query_vector=[1.0, 0.0, 0.0, 0.0])  # a vector with nothing to compare: words decide
    assert shares["A"] > 0.5 and shares.get("B", 0.0) == 0.0


@pytest.fixture
def bm25_index(tmp_path: Path) -> SymbolIndex:
    write_symbols(list(table().values()), tmp_path / "symbols.jsonl")
    build_index(tmp_path, settings=Settings(embedder="none"))
    return SymbolIndex.load(tmp_path, settings=Settings(embedder="none"))


def test_search_keeps_the_query_hits_on_top_and_adds_what_similar_scripts_use(bm25_index: SymbolIndex) -> None:
    plain = [h.symbol.name for h in bm25_index.search("a shiny red sphere", k=10, mode="hybrid")]
    assert "bpy.ops.object.delete" not in plain  # nothing in the prompt says "clear the scene"
    taught = bm25_index.add_usage([("a red sphere", SCRIPT), ("a shiny metal sphere", SCRIPT), ("empty script", "import bpy\n")])
    assert taught == 2
    hits = bm25_index.search("a shiny red sphere", k=10)
    got = [h.symbol.name for h in hits]
    assert got[0] == plain[0]  # the query's own best hit stays first
    assert "bpy.ops.object.delete" in got and "bpy.ops.object.select_all" in got
    prior_hit = hits[got.index("bpy.ops.object.delete")]
    assert any("verified scripts for similar prompts" in r for r in prior_hit.reasons)
    assert len(got) == 10 and len(set(got)) == 10
    both = hits[got.index(SPHERE_OP)]  # in the query's hits and used by every similar script: fused above either alone
    assert got.index(SPHERE_OP) <= 1 and both.score > prior_hit.score - 1e-9
    assert [h.symbol.name for h in bm25_index.search("a shiny red sphere", k=10, mode="hybrid")] == plain


def test_the_index_learns_from_the_stores_verified_scripts(bm25_index: SymbolIndex, tmp_path: Path) -> None:
    from bpywright.exemplars.store import ExemplarStore
    from bpywright.exemplars.teach import teach_usage
    from bpywright.harness.report import RunReport

    def report(status: str) -> RunReport:
        return RunReport(status=status, backend="bpy-module", sandbox="rlimits-only", blender_version="4.5.0")  # type: ignore[arg-type]

    with ExemplarStore(tmp_path / "db.sqlite", tmp_path / "files") as store:
        added = [
            store.add(script=SCRIPT, prompt="a shiny red sphere", report=report("ok"), render=None, source="user", blender_version="4.5"),
            store.add(
                script=SCRIPT + "\nbpy.ops.object.shade_smooth_by_angle()\n",
                prompt="a shiny red sphere, smooth",
                report=report("error"),
                render=None,
                source="user",
                blender_version="4.5",
            ),
            store.add(
                script=SCRIPT + "\n# 3.6\n", prompt="a red sphere", report=report("ok"), render=None, source="user", blender_version="3.6"
            ),
        ]
        untrusted = store.add(
            script=SCRIPT + "\n# mine\n", prompt="a red ball", report=report("ok"), render=None, source="user", blender_version="4.5"
        )
        for result in added:  # user submissions teach generation only once an operator trusts them
            store.set_trusted(result.exemplar.id)
        assert untrusted.created
        before = len(bm25_index.usage)
        assert teach_usage(bm25_index, store, "4.5") == 1  # only the verified script of that version
        assert teach_usage(bm25_index, store, "4.5") == 0  # taught twice, counted once
    assert len(bm25_index.usage) == before + 1
    got = [h.symbol.name for h in bm25_index.search("a shiny red sphere", k=10)]
    assert "bpy.ops.object.delete" in got
