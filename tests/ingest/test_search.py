"""Hybrid symbol search over a small, realistic Blender 4.5 symbol set, with the real local MiniLM embedder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bpywright.config import Settings
from bpywright.ingest import search as search_module
from bpywright.ingest.embedder import SentenceTransformerEmbedder
from bpywright.ingest.index import bm25_tokens, build_index, read_manifest
from bpywright.ingest.search import IndexMissing, ScoredSymbol, SymbolIndex
from bpywright.ingest.symbols import Symbol, write_symbols
from bpywright.ingest.tokenize import split_identifier, tokenize

DOCS = "https://docs.blender.org/api/4.5/"
SPHERE_OP = "bpy.ops.mesh.primitive_uv_sphere_add"
# name, kind, description, signature or type (a property's "enum" gets enum items from the dict below)
ROWS = [
    (
        "bpy.ops.mesh.primitive_cube_add",
        "operator",
        "Construct a cube mesh",
        "(size=2.0, calc_uvs=True, enter_editmode=False, align='WORLD', location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0), scale=(0.0, 0.0, 0.0))",
    ),
    (
        SPHERE_OP,
        "operator",
        "Construct a spherical mesh with quad faces, except for triangle faces at the top and bottom",
        "(segments=32, ring_count=16, radius=1.0, calc_uvs=True, location=(0.0, 0.0, 0.0))",
    ),
    (
        "bpy.ops.mesh.primitive_ico_sphere_add",
        "operator",
        "Construct a spherical mesh that consists of equally sized triangles",
        "(subdivisions=2, radius=1.0, location=(0.0, 0.0, 0.0))",
    ),
    (
        "bpy.ops.mesh.primitive_cylinder_add",
        "operator",
        "Construct a cylinder mesh",
        "(vertices=32, radius=1.0, depth=2.0, end_fill_type='NGON', location=(0.0, 0.0, 0.0))",
    ),
    (
        "bpy.ops.mesh.primitive_cone_add",
        "operator",
        "Construct a conic mesh",
        "(vertices=32, radius1=1.0, radius2=0.0, depth=2.0, location=(0.0, 0.0, 0.0))",
    ),
    (
        "bpy.ops.mesh.primitive_torus_add",
        "operator",
        "Construct a torus mesh",
        "(major_segments=48, minor_segments=12, major_radius=1.0, minor_radius=0.25)",
    ),
    (
        "bpy.ops.mesh.primitive_plane_add",
        "operator",
        "Construct a filled planar mesh with 4 vertices",
        "(size=2.0, location=(0.0, 0.0, 0.0))",
    ),
    ("bpy.ops.mesh.primitive_circle_add", "operator", "Construct a circle mesh", "(vertices=32, radius=1.0, fill_type='NOTHING')"),
    ("bpy.ops.mesh.primitive_monkey_add", "operator", "Construct a Suzanne mesh", "(size=2.0, location=(0.0, 0.0, 0.0))"),
    (
        "bpy.ops.mesh.extrude_region_move",
        "operator",
        "Extrude region and move result",
        "(MESH_OT_extrude_region=None, TRANSFORM_OT_translate=None)",
    ),
    ("bpy.ops.mesh.subdivide", "operator", "Subdivide selected edges", "(number_cuts=1, smoothness=0.0)"),
    (
        "bpy.ops.mesh.bevel",
        "operator",
        "Cut into selected items at an angle to create bevel or chamfer",
        "(offset=0.0, segments=1, affect='EDGES')",
    ),
    (
        "bpy.ops.uv.sphere_project",
        "operator",
        "Project the UV vertices of the mesh over the curved surface of a sphere",
        "(direction='VIEW_ON_EQUATOR', align='POLAR_ZX')",
    ),
    ("bpy.ops.object.select_all", "operator", "Change selection of all visible objects in scene", "(action='TOGGLE')"),
    ("bpy.ops.object.delete", "operator", "Delete selected objects", "(use_global=False, confirm=True)"),
    ("bpy.ops.object.modifier_add", "operator", "Add a procedural operation/effect to the active object", "(type='SUBSURF')"),
    ("bpy.ops.object.modifier_apply", "operator", "Apply modifier and remove from the stack", "(modifier='', report=False)"),
    (
        "bpy.ops.object.shade_smooth",
        "operator",
        "Render and display faces smooth, using interpolated vertex normals",
        "(keep_sharp_edges=True)",
    ),
    ("bpy.ops.object.light_add", "operator", "Add a light object to the scene", "(type='POINT', radius=1.0, location=(0.0, 0.0, 0.0))"),
    (
        "bpy.ops.object.camera_add",
        "operator",
        "Add a camera object to the scene",
        "(enter_editmode=False, location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0))",
    ),
    ("bpy.ops.object.text_add", "operator", "Add a text object to the scene", "(radius=1.0, location=(0.0, 0.0, 0.0))"),
    ("bpy.ops.object.join", "operator", "Join selected objects into active object", "()"),
    ("bpy.ops.object.duplicate", "operator", "Duplicate selected objects", "(linked=False, mode='TRANSLATION')"),
    ("bpy.ops.object.mode_set", "operator", "Sets the object interaction mode", "(mode='OBJECT', toggle=False)"),
    (
        "bpy.ops.object.transform_apply",
        "operator",
        "Apply the object's transformation to its data",
        "(location=True, rotation=True, scale=True)",
    ),
    ("bpy.ops.transform.translate", "operator", "Move selected items", "(value=(0.0, 0.0, 0.0), orient_type='GLOBAL')"),
    ("bpy.ops.transform.rotate", "operator", "Rotate selected items", "(value=0.0, orient_axis='Z')"),
    ("bpy.ops.transform.resize", "operator", "Scale (resize) selected items", "(value=(1.0, 1.0, 1.0))"),
    ("bpy.ops.material.new", "operator", "Add a new material", "()"),
    ("bpy.types.Object", "struct", "Object data-block defining an object in a scene", None),
    ("bpy.types.Object.location", "property", "Location of the object", "float array of 3"),
    ("bpy.types.Object.rotation_euler", "property", "Rotation in Eulers", "float array of 3"),
    ("bpy.types.Object.scale", "property", "Scaling of the object", "float array of 3"),
    ("bpy.types.Object.dimensions", "property", "Absolute bounding box dimensions of the object", "float array of 3"),
    ("bpy.types.Object.data", "property", "Object data", "pointer to ID"),
    ("bpy.types.Object.modifiers", "property", "Modifiers affecting the geometric data of the object", "Collection of Modifier"),
    ("bpy.types.Object.material_slots", "property", "Material slots in the object", "Collection of MaterialSlot"),
    ("bpy.types.Object.parent", "property", "Parent object", "pointer to Object"),
    ("bpy.types.Object.hide_render", "property", "Globally disable in renders", "boolean"),
    ("bpy.types.Object.select_set", "function", "Select or deselect the object", "(state, view_layer=None)"),
    ("bpy.types.ObjectModifiers", "struct", "Collection of object modifiers", None),
    ("bpy.types.ObjectModifiers.new", "function", "Add a new modifier", "(name, type)"),
    ("bpy.types.ObjectModifiers.remove", "function", "Remove an existing modifier from the object", "(modifier)"),
    ("bpy.types.Mesh", "struct", "Mesh data-block defining geometric surfaces", None),
    ("bpy.types.Mesh.vertices", "property", "Vertices of the mesh", "Collection of MeshVertex"),
    ("bpy.types.Mesh.polygons", "property", "Polygons of the mesh", "Collection of MeshPolygon"),
    ("bpy.types.Mesh.materials", "property", "Materials of the mesh", "Collection of Material"),
    (
        "bpy.types.Mesh.from_pydata",
        "function",
        "Make a mesh from a list of vertices/edges/faces",
        "(vertices, edges, faces, shade_flat=True)",
    ),
    ("bpy.types.Material", "struct", "Material data-block to define the appearance of geometric objects for rendering", None),
    ("bpy.types.Material.diffuse_color", "property", "Diffuse color of the material", "float array of 4"),
    ("bpy.types.Material.roughness", "property", "Roughness of the material", "float"),
    ("bpy.types.Material.metallic", "property", "Amount of mirror reflection for raytrace", "float"),
    ("bpy.types.Material.use_nodes", "property", "Use shader nodes to render the material", "boolean"),
    ("bpy.types.Material.node_tree", "property", "Node tree for node based materials", "pointer to NodeTree"),
    ("bpy.types.BlendDataMaterials", "struct", "Collection of materials", None),
    ("bpy.types.BlendDataMaterials.new", "function", "Add a new material to the main database", "(name)"),
    ("bpy.types.BlendDataObjects", "struct", "Collection of objects", None),
    ("bpy.types.BlendDataObjects.new", "function", "Add a new object to the main database", "(name, object_data)"),
    ("bpy.types.BlendDataObjects.remove", "function", "Remove an object from the current blendfile", "(object, do_unlink=True)"),
    ("bpy.types.Light", "struct", "Light data-block for lighting a scene", None),
    ("bpy.types.Light.energy", "property", "Light energy emitted over the entire area of the light in all directions", "float"),
    ("bpy.types.Light.color", "property", "Light color", "float array of 3"),
    ("bpy.types.Light.type", "property", "Type of light", "enum"),
    ("bpy.types.PointLight", "struct", "Omnidirectional point Light", None),
    ("bpy.types.SunLight", "struct", "Constant direction parallel ray Light", None),
    ("bpy.types.SunLight.angle", "property", "Angular diameter of the Sun as seen from the Earth", "float"),
    ("bpy.types.SpotLight", "struct", "Directional cone Light", None),
    ("bpy.types.SpotLight.spot_size", "property", "Angle of the spotlight beam", "float"),
    ("bpy.types.AreaLight", "struct", "Directional area Light", None),
    ("bpy.types.AreaLight.size", "property", "Size of the area of the area light, X direction size for rectangle shapes", "float"),
    ("bpy.types.Camera", "struct", "Camera data-block for storing camera settings", None),
    ("bpy.types.Camera.lens", "property", "Perspective Camera focal length value in millimeters", "float"),
    ("bpy.types.Camera.type", "property", "Camera types", "enum"),
    ("bpy.types.Modifier", "struct", "Modifier affecting the geometry data of an object", None),
    ("bpy.types.Modifier.show_viewport", "property", "Display modifier in viewport", "boolean"),
    ("bpy.types.BevelModifier", "struct", "Bevel modifier to make edges and vertices more rounded", None),
    ("bpy.types.BevelModifier.width", "property", "Bevel amount", "float"),
    ("bpy.types.BevelModifier.segments", "property", "Number of segments for round edges/verts", "int"),
    ("bpy.types.SubsurfModifier", "struct", "Subdivision surface modifier", None),
    ("bpy.types.SubsurfModifier.levels", "property", "Number of subdivisions to perform", "int"),
    ("bpy.types.SubsurfModifier.render_levels", "property", "Number of subdivisions to perform when rendering", "int"),
    ("bpy.types.ArrayModifier", "struct", "Array duplication modifier", None),
    ("bpy.types.ArrayModifier.count", "property", "Number of duplicates to make", "int"),
    (
        "bpy.types.ArrayModifier.relative_offset_displace",
        "property",
        "The size of the geometry will determine the distance between arrayed items",
        "float array of 3",
    ),
    ("bpy.types.SolidifyModifier", "struct", "Create a solid skin, compensating for sharp angles", None),
    ("bpy.types.SolidifyModifier.thickness", "property", "Thickness of the shell", "float"),
    ("bpy.types.BooleanModifier", "struct", "Boolean operations modifier", None),
    ("bpy.types.BooleanModifier.operation", "property", "Boolean operation to perform", "enum"),
    ("bpy.types.BooleanModifier.object", "property", "Mesh object to use for Boolean operation", "pointer to Object"),
    ("bpy.types.Node", "struct", "Node in a node tree", None),
    ("bpy.types.NodeTree", "struct", "Node tree consisting of linked nodes used for shading, textures and compositing", None),
    ("bpy.types.NodeTree.nodes", "property", "Nodes in the node tree", "Collection of Node"),
    ("bpy.types.NodeTree.links", "property", "Node links in the node tree", "Collection of NodeLink"),
    ("bpy.types.ShaderNode", "struct", "Material shader node", None),
    (
        "bpy.types.ShaderNodeBsdfPrincipled",
        "struct",
        "Physically-based, easy-to-use shader for rendering surface materials, based on the OpenPBR model",
        None,
    ),
    ("bpy.types.ShaderNodeBsdfPrincipled.distribution", "property", "Light scattering distribution on rough surface", "enum"),
    ("bpy.types.ShaderNodeEmission", "struct", "Lambertian emission shader", None),
    ("bpy.types.ShaderNodeTexImage", "struct", "Sample an image file as a texture", None),
    (
        "bpy.types.GeometryNodeMeshUVSphere",
        "struct",
        "Generate a spherical mesh with quads, except for triangles at the top and bottom",
        None,
    ),
    ("bpy.types.Scene", "struct", "Scene data-block, consisting in objects and defining time and render related settings", None),
    ("bpy.types.Scene.camera", "property", "Active camera, used for rendering the scene", "pointer to Object"),
    ("bpy.types.Scene.render", "property", "", "pointer to RenderSettings"),
    ("bpy.types.RenderSettings.engine", "property", "Engine to use for rendering", "enum"),
    ("bpy.types.World", "struct", "World data-block describing the environment and ambient lighting of a scene", None),
    ("bpy.types.World.color", "property", "Color of the background", "float array of 3"),
    ("bpy.types.VIEW3D_PT_tools_active", "struct", "", None),
    ("bpy.types.ThemeView3D.object_active", "property", "", "float array of 3"),
]
ENUMS = {
    "bpy.types.Light.type": ["POINT", "SUN", "SPOT", "AREA"],
    "bpy.types.Camera.type": ["PERSP", "ORTHO", "PANO"],
    "bpy.types.BooleanModifier.operation": ["INTERSECT", "UNION", "DIFFERENCE"],
    "bpy.types.RenderSettings.engine": ["BLENDER_EEVEE_NEXT", "BLENDER_WORKBENCH", "CYCLES"],
    "bpy.types.ShaderNodeBsdfPrincipled.distribution": ["GGX", "MULTI_GGX"],
}


def make_symbols() -> list[Symbol]:
    """ROWS as Symbols, the way the ingest merge writes them."""
    out = []
    for name, kind, description, detail in ROWS:
        page = name.rsplit(".", 1)[0] if kind != "struct" else name
        field = {"signature": detail} if kind in ("operator", "function") else {"type": detail}
        out.append(
            Symbol(
                name=name,
                kind=kind,
                description=description,
                blender_version="4.5",
                uri=f"{DOCS}{page}.html#{name}",
                parent=None if kind == "struct" else name.rsplit(".", 1)[0],
                enum_items=ENUMS.get(name, []),
                **field,
            )
        )
    return out


@pytest.fixture(scope="module")
def embedder(minilm: SentenceTransformerEmbedder) -> SentenceTransformerEmbedder:
    """The real local MiniLM model (the session's, see conftest.py)."""
    return minilm


@pytest.fixture(scope="module")
def version_dir(hybrid_dir: Path) -> Path:
    """symbols.jsonl + a hybrid index built with the real embedder (the session's, see conftest.py)."""
    return hybrid_dir


@pytest.fixture(scope="module")
def index(version_dir: Path, embedder: SentenceTransformerEmbedder) -> SymbolIndex:
    return SymbolIndex.load(version_dir, embedder=embedder)


def names(hits: list) -> list[str]:
    return [h.symbol.name for h in hits]


def test_tokenizer_splits_dotted_snake_and_camel_names() -> None:
    assert split_identifier("bpy.types.ObjectModifiers.new") == ["bpy", "types", "object", "modifiers", "objectmodifiers", "new"]
    assert tokenize("bpy.ops.mesh.primitive_uv_sphere_add") == [
        "bpy",
        "ops",
        "mesh",
        "primitive",
        "uv",
        "sphere",
        "add",
        "primitiveuv",
        "uvsphere",
        "sphereadd",
        "primitiveuvsphereadd",
    ]
    assert tokenize("ShaderNodeBsdfPrincipled")[:4] == ["shader", "node", "bsdf", "principled"]
    assert tokenize("VIEW3D_PT_tools")[:4] == ["view", "3d", "pt", "tool"]
    # prose: lowercased, stopwords and bare numbers dropped, plurals stemmed to match singular names
    assert tokenize("Add the Modifiers to 3 Vertices") == ["add", "modifier", "vertex"]
    # queries also get adjacent words joined, which match the joined pairs of names
    assert tokenize("UV spheres", pairs=True) == ["uv", "sphere", "uvsphere"]


def test_bm25_finds_the_uv_sphere_operator(index: SymbolIndex) -> None:
    hits = index.search("uv sphere", k=5, mode="bm25")
    assert SPHERE_OP in names(hits)[:3]
    assert all(h.bm25_rank == n for n, h in enumerate(hits, 1))


def test_dense_finds_a_paraphrase_that_shares_no_token(index: SymbolIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    query = "a round ball shape"
    assert not set(tokenize(query, pairs=True)) & set(bm25_tokens(index.get(SPHERE_OP)))  # nothing for plain BM25 to match
    assert SPHERE_OP in names(index.search(query, k=3, mode="dense"))
    # the model itself, not the modelling thesaurus ("ball" → "uv sphere"), puts it there
    monkeypatch.setattr(search_module, "modelling_phrases", lambda query: [])
    assert SPHERE_OP in names(index.search(query, k=3, mode="dense"))
    assert SPHERE_OP not in names(index.search(query, k=10, mode="bm25"))


@pytest.mark.parametrize("query", ["uv sphere", "a round ball shape"])
def test_hybrid_ranks_the_sphere_operator_top_3(index: SymbolIndex, query: str) -> None:
    hits = index.search(query, k=10, mode="hybrid")
    assert SPHERE_OP in names(hits)[:3]
    hit = hits[names(hits).index(SPHERE_OP)]
    assert hit.dense_rank is not None and hit.reasons


def _plain_and_boosted(index: SymbolIndex, query: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[ScoredSymbol]]:
    """Rankings without and with the structural re-rank (the modelling thesaurus off in both, to isolate it)."""
    monkeypatch.setattr(search_module, "modelling_phrases", lambda query: [])
    boosted = index.search(query, k=10, mode="hybrid")
    with monkeypatch.context() as patch:
        for constant in ("BOOST_RELATED", "BOOST_FAMILY", "BOOST_MENTIONED", "BOOST_RECIPES", "PENALTY_UI"):
            patch.setattr(search_module, constant, 0.0)
        plain = names(index.search(query, k=10, mode="hybrid"))
    return plain, boosted


def test_rerank_lifts_the_parent_of_a_top_hit(index: SymbolIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    plain, boosted = _plain_and_boosted(index, "add a modifier", monkeypatch)
    assert names(boosted)[:2] == ["bpy.ops.object.modifier_add", "bpy.types.ObjectModifiers.new"]
    struct = "bpy.types.ObjectModifiers"  # parent of the #2 hit
    assert names(boosted).index(struct) < plain.index(struct)
    assert any(r.startswith("related to") for r in boosted[names(boosted).index(struct)].reasons)


def test_rerank_lifts_the_type_family_of_a_top_hit(index: SymbolIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    plain, boosted = _plain_and_boosted(index, "how wide is the bevel", monkeypatch)
    assert set(names(boosted)[:2]) == {"bpy.types.BevelModifier", "bpy.types.BevelModifier.width"}
    other = "bpy.types.SolidifyModifier.thickness"  # another modifier's setting climbs past unrelated ones
    assert names(boosted).index(other) < plain.index(other)
    assert "Modifier family" in boosted[names(boosted).index(other)].reasons


def test_rerank_favours_the_family_the_query_names(index: SymbolIndex) -> None:
    hits = index.search("light energy", k=8, mode="hybrid")
    assert hits[0].symbol.name == "bpy.types.Light.energy"
    assert all("Light" in h.symbol.name for h in hits) and all("family named in query" in h.reasons for h in hits)


def test_ui_and_theme_symbols_are_demoted(index: SymbolIndex) -> None:
    hits = index.search("object active", k=20, mode="hybrid")
    ranks = names(hits)
    assert "bpy.types.ThemeView3D.object_active" not in ranks[:3]


def test_get_names_and_render(index: SymbolIndex) -> None:
    assert index.get(SPHERE_OP).kind == "operator" and index.get("bpy.types.Nope") is None
    assert {SPHERE_OP, "bpy.types.Object.location"} <= index.names() and len(index.names()) == len(ROWS)
    text = index.search("object location", k=1, mode="hybrid")[0].render(1)
    assert text.startswith(" 1. bpy.types.Object.location: float array of 3  [property]")
    assert "Location of the object" in text and f"{DOCS}bpy.types.Object.html" in text


def test_rebuilding_unchanged_symbols_is_a_no_op(version_dir: Path, embedder: SentenceTransformerEmbedder) -> None:
    before = read_manifest(version_dir)
    stats = build_index(version_dir, embedder=embedder)
    assert stats.skipped and read_manifest(version_dir) == before
    assert (version_dir / before["dir"] / "dense.faiss").is_file()


def test_bm25_only_without_an_embedder(tmp_path: Path) -> None:
    write_symbols(make_symbols(), tmp_path / "symbols.jsonl")
    stats = build_index(tmp_path, settings=Settings(embedder="none"))
    assert stats.dense == 0 and stats.embedder is None and not stats.skipped
    index = SymbolIndex.load(tmp_path, settings=Settings(embedder="none"))
    assert index.dense is None and index.search("uv sphere", mode="dense") == []
    hits = index.search("uv sphere", k=5, mode="hybrid")
    assert SPHERE_OP in names(hits)[:3] and all(h.dense_rank is None for h in hits)
    # changed symbols: rebuilt (not skipped), and the old index directory is gone
    write_symbols(make_symbols()[:-5], tmp_path / "symbols.jsonl")
    again = build_index(tmp_path, settings=Settings(embedder="none"))
    assert not again.skipped and again.symbols == len(ROWS) - 5
    assert [p.name for p in tmp_path.glob("search-*")] == [read_manifest(tmp_path)["dir"]]


def test_index_missing_says_how_to_fix(tmp_path: Path) -> None:
    with pytest.raises(IndexMissing, match="bpywright ingest"):
        SymbolIndex.load(tmp_path)
    write_symbols(make_symbols()[:3], tmp_path / "symbols.jsonl")
    with pytest.raises(IndexMissing, match="bpywright ingest"):
        SymbolIndex.load(tmp_path)


class CountingEmbedder:
    """A deterministic embedder (a hash of each text) that records what it was asked to embed."""

    name = "test:hash"
    dim = 8

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, texts: list[str]):
        import hashlib

        import numpy as np

        self.seen += texts
        rows = [np.frombuffer(hashlib.sha256(t.encode()).digest()[:8], dtype=np.uint8).astype(np.float32) + 1 for t in texts]
        vectors = np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dim)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_a_new_version_reuses_the_vectors_of_texts_another_version_indexed(tmp_path: Path) -> None:
    import numpy as np

    from bpywright.ingest.index import dense_text

    symbols = make_symbols()
    (tmp_path / "4.5").mkdir()
    write_symbols(symbols, tmp_path / "4.5" / "symbols.jsonl")
    first = CountingEmbedder()
    build_index(tmp_path / "4.5", embedder=first, force=True)
    texts = len(first.seen)
    changed = symbols[0].model_copy(update={"description": "A description only the newer version has."})
    (tmp_path / "5.0").mkdir()
    write_symbols([changed, *symbols[1:]], tmp_path / "5.0" / "symbols.jsonl")
    second = CountingEmbedder()
    stats = build_index(tmp_path / "5.0", embedder=second)
    new_texts = [t for t in second.seen if t not in set(first.seen)]
    assert new_texts == [dense_text(changed)] and len(second.seen) < texts - 2  # the known texts of a fresh folder are embedded too
    assert f"{stats.dense - 1} of {stats.dense} vectors reused" in stats.note
    manifest = read_manifest(tmp_path / "5.0")
    stored = np.load(tmp_path / "5.0" / manifest["dir"] / "dense.npy")
    rows = np.load(tmp_path / "5.0" / manifest["dir"] / "dense_rows.npy").tolist()
    fresh = CountingEmbedder().embed([dense_text([changed, *symbols[1:]][i]) for i in rows])
    assert stored.shape == (stats.dense, 8) and np.allclose(stored, fresh, atol=1e-6)  # each reused vector on its own row
    other = CountingEmbedder()
    other.name = "test:other"  # another vector space: nothing to reuse
    (tmp_path / "4.2").mkdir()
    write_symbols(symbols, tmp_path / "4.2" / "symbols.jsonl")
    assert "reused" not in build_index(tmp_path / "4.2", embedder=other).note


def test_stale_index_is_reported(tmp_path: Path) -> None:
    write_symbols(make_symbols(), tmp_path / "symbols.jsonl")
    build_index(tmp_path, settings=Settings(embedder="none"))
    write_symbols(make_symbols()[:10], tmp_path / "symbols.jsonl")
    with pytest.raises(IndexMissing, match="older than its symbols.jsonl"):
        SymbolIndex.load(tmp_path, settings=Settings(embedder="none"))


def test_importing_search_loads_no_heavy_module() -> None:
    code = "import sys, bpywright.ingest.search, bpywright.ingest.index; print([m for m in ('torch', 'faiss', 'sentence_transformers', 'bm25s', 'numpy') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


def test_an_index_built_with_another_embedder_falls_back_to_bm25(version_dir: Path) -> None:
    from bpywright.fakes import FakeOpenAIServer
    from bpywright.ingest.embedder import OpenAIEmbedder

    with FakeOpenAIServer(model="other-model") as fake:
        index = SymbolIndex.load(version_dir, embedder=OpenAIEmbedder(fake.base_url))
    assert index.dense is None and "BM25-only" in index.dense_status and "openai:other-model" in index.dense_status
    assert SPHERE_OP in names(index.search("uv sphere", k=3, mode="hybrid"))


def test_an_unreachable_embedder_gives_a_bm25_index_that_the_next_run_completes(tmp_path: Path) -> None:
    from bpywright.fakes import FakeOpenAIServer
    from bpywright.ingest.embedder import OpenAIEmbedder

    write_symbols(make_symbols(), tmp_path / "symbols.jsonl")
    with FakeOpenAIServer() as fake:
        url = fake.base_url
    down = build_index(tmp_path, embedder=OpenAIEmbedder(url, "fake-model", timeout=2))
    assert (
        down.dense == 0
        and "unreachable" in down.note
        and SymbolIndex.load(tmp_path, settings=Settings(embedder="none")).search("uv sphere")
    )
    with FakeOpenAIServer(embedding_dim=16) as fake:
        up = build_index(tmp_path, embedder=OpenAIEmbedder(fake.base_url, "fake-model"))
        again = build_index(tmp_path, embedder=OpenAIEmbedder(fake.base_url, "fake-model"))
    assert not up.skipped and up.dense == len(ROWS) - 2 and up.dim == 16 and again.skipped
    assert len(list(tmp_path.glob("search-*"))) == 1 and not list(tmp_path.glob(".search-*"))


def test_an_embedder_that_fails_while_searching_leaves_bm25(
    version_dir: Path, embedder: SentenceTransformerEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bpywright.ingest.embedder import EmbedderError

    index = SymbolIndex.load(version_dir, embedder=embedder)

    def down(texts: list[str]) -> None:
        raise EmbedderError("endpoint gone")

    monkeypatch.setattr(embedder, "embed", down)
    hits = index.search("uv sphere", k=3, mode="hybrid")
    assert SPHERE_OP in names(hits) and all(h.dense_rank is None for h in hits) and "endpoint gone" in index.dense_status
