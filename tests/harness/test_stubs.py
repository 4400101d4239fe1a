"""Patched bpy stubs: the build is idempotent and atomic, and real pyright and mypy see the fixes yet still catch real errors."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bpywright.harness import stubs
from bpywright.harness.overlay import OverlayError, merge_overlays, parse_stub
from bpywright.harness.stubs import MANIFEST, StubsError, build_typings, typings_dir

VENV_BIN = Path(sys.executable).parent

# Each snippet runs fine in Blender 4.5 except the lines marked `# E`, which fail there; both checkers must flag
# exactly the marked lines. The snippets avoid Optional values so that every diagnostic counts.
SNIPPETS = {
    "context_and_engine.py": """
        import bpy
        scene = bpy.context.scene
        scene.render.engine = "CYCLES"
        bpy.context.scene.render.engine = "BLENDER_EEVEE_NEXT"
        bpy.context.scene.render.engine = "BLENDER_WORKBENCH"
        bpy.context.view_layer.objects.active = bpy.data.objects["Cube"]
        scene.view_settings.view_transform = "AgX"
        scene.render.engine = "BLENDER_EEVEE"  # E
        """,
    "modifiers_and_constraints.py": """
        import bpy
        obj = bpy.data.objects["Cube"]
        sub = obj.modifiers.new("s", "SUBSURF")
        sub.levels = 2
        arr = obj.modifiers.new(name="a", type="ARRAY")
        arr.count = 3
        gn = obj.modifiers.new("g", "NODES")
        gn.node_group = bpy.data.node_groups.new("G", "GeometryNodeTree")
        obj.modifiers["Boolean"].operation = "DIFFERENCE"
        for m in obj.modifiers:
            if m.type == "BEVEL":
                m.width = 0.1
        track = obj.constraints.new(type="TRACK_TO")
        track.track_axis = "TRACK_NEGATIVE_Z"
        mod = obj.modifiers.new("x", "SUBSURF")
        mod.levles = 2  # E
        obj.modifiers.new("y", "SUBDIVISION")  # E
        obj.locaton = (0, 0, 0)  # E
        """,
    "lights_and_data.py": """
        import bpy
        sun = bpy.data.lights.new("Sun", type="SUN")
        sun.angle = 0.1
        light = bpy.data.lights["Light"]
        light.energy = 1000.0
        light.color = (1.0, 0.9, 0.8)
        base: bpy.types.Light = bpy.data.lights.new("P", "POINT")
        base.energy = 10.0
        data = bpy.data.objects["Cube"].data
        assert data is not None
        data.materials.append(bpy.data.materials.new("M"))
        data.energy = 5.0
        bpy.data.objects["Cube"].data = bpy.data.meshes.new("Mesh")
        for obj in bpy.data.objects.values():
            print(obj.name)
        text = bpy.data.curves.new("T", type="FONT")
        text.body = "hello"
        tex = bpy.data.textures.new("Noise", type="CLOUDS")
        tex.noise_scale = 0.5
        image = bpy.data.images.new("I", 4, 4)
        image.pixels = [1.0] * 64
        data.vertices_typo  # E
        bpy.data.meshes.new("m").use_auto_smooth = True  # E
        """,
    "nodes_and_ops.py": """
        import bpy
        mat = bpy.data.materials.new("M")
        tree = mat.node_tree
        assert tree is not None
        tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (1, 0, 0, 1)
        noise = tree.nodes.new("ShaderNodeTexNoise")
        noise.noise_dimensions = "4D"
        noise.inputs["Scale"].default_value = 5.0
        bsdf = tree.nodes.new(type="ShaderNodeBsdfPrincipled")
        bsdf.inputs["Roughness"].default_value = 0.4
        tree.links.new(noise.outputs["Fac"], bsdf.inputs["Roughness"])
        node_type = "ShaderNodeMath"
        tree.nodes.new(node_type).operation = "MULTIPLY"
        bpy.ops.mesh.extrude_region_move(TRANSFORM_OT_translate={"value": (0, 0, 1)})
        bpy.data.objects["Cube"].keyframe_insert(data_path="location", frame=1)
        bpy.data.objects["Cube"].driver_add("location", 2).array_index = 1
        bpy.ops.mesh.primitive_cube_add(radius=1)  # E
        bsdf.inputs["Specular"].default_value = 0.5  # E
        """,
}


def expected_lines(source: str) -> set[int]:
    """1-based numbers of the lines marked `# E`."""
    return {i for i, line in enumerate(source.splitlines(), 1) if line.rstrip().endswith("# E")}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 4.5 stubs with overlays, built once into a tmp out_root."""
    return build_typings("4.5", out_root=tmp_path_factory.mktemp("typings"))


@pytest.fixture(scope="module")
def snippets(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, str]:
    """The snippet files, written to a tmp dir."""
    root = tmp_path_factory.mktemp("snippets")
    files = {}
    for name, source in SNIPPETS.items():
        text = textwrap.dedent(source).lstrip("\n")
        (root / name).write_text(text, encoding="utf-8")
        files[root / name] = text
    return files


def tree_state(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under root with its inode and mtime (ns): what any rewrite would change."""
    return {str(p.relative_to(root)): (p.stat().st_ino, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


def test_rebuild_is_a_noop(built: Path) -> None:
    """Nothing is written on an unchanged rebuild (bench/noop.py times it against a full build)."""
    manifest = (built / MANIFEST).read_text()
    inode = (built / "bpy").stat().st_ino
    before = tree_state(built)
    assert build_typings("4.5", out_root=built.parent) == built
    assert tree_state(built) == before  # no file rewritten, added or removed
    assert (built / MANIFEST).read_text() == manifest
    assert (built / "bpy").stat().st_ino == inode  # not rebuilt
    assert typings_dir("4.5", out_root=built.parent) == built


def test_failed_build_keeps_the_previous_tree(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(dest: Path, overlays: list[Path]) -> None:
        raise StubsError("overlay broke")

    monkeypatch.setattr(stubs, "apply_overlays", broken)
    with pytest.raises(StubsError, match="overlay broke"):
        build_typings("4.5", out_root=built.parent, force=True)
    assert (built / MANIFEST).is_file() and (built / "bpy" / "types" / "__init__.pyi").is_file()
    assert not list(built.parent.glob(".4.5-*"))


def test_missing_build_says_how_to_build(tmp_path: Path) -> None:
    with pytest.raises(StubsError, match="bpywright typings build --blender-version 4.5"):
        typings_dir("4.5", out_root=tmp_path)


def test_overlay_replaces_adds_and_removes_members() -> None:
    stub = textwrap.dedent('''
        """Module docstring."""
        import typing
        class A(Base):
            x: int
            """Doc of x."""
            @typing.overload
            def f(self, a: int) -> int: ...
            @typing.overload
            def f(self, a: str) -> str: ...
            property: int
            def g(self) -> None: ...
        class bpy_prop_collection[T]:
            def values(self) -> list[T | None]: ...
        ''')
    overlay = textwrap.dedent("""
        import collections.abc
        class A(Mixin, Base):
            # overlay: remove property
            def f(self, a: object) -> object: ...
            y: str
        class bpy_prop_collection[T]:
            def values(self) -> list[T]: ...
        class Mixin: ...
        """)
    merged = merge_overlays(stub, {"overlay": overlay})
    tree = parse_stub(merged)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    members = [getattr(n, "name", None) or ast.unparse(getattr(n, "target", n)) for n in classes["A"].body]
    assert [ast.unparse(b) for b in classes["A"].bases] == ["Mixin", "Base"]
    assert members == ["x", "'Doc of x.'", "f", "g", "y"]
    assert "typing.overload" not in merged and "def f(self, a: object) -> object" in merged
    assert "def values(self) -> list[T]: ..." in merged and "list[T | None]" not in merged
    assert "import collections.abc" in merged and "Mixin" in classes


def test_overlays_patching_the_same_member_are_an_error() -> None:
    stub = "class A:\n    x: int\n"
    with pytest.raises(OverlayError, match="both patch"):
        merge_overlays(stub, {"one": "class A:\n    x: str\n", "two": "class A:\n    x: float\n"})


def test_pyright_sees_the_fixes_and_the_real_errors(built: Path, snippets: dict[Path, str]) -> None:
    pyright = VENV_BIN / "pyright"
    if not pyright.exists():
        pytest.skip("pyright is not installed in the venv: `pip install -e .`")
    # --pythonpath shows pyright the venv with the unpatched bpy-stubs: the stubPath copy must win.
    cmd = [str(pyright), "--outputjson", "-p", str(built / "pyrightconfig.json"), "--pythonpath", sys.executable, *map(str, snippets)]
    out = json.loads(subprocess.run(cmd, capture_output=True, text=True, timeout=300).stdout)
    for path, source in snippets.items():
        errors = {d["range"]["start"]["line"] + 1 for d in out["generalDiagnostics"] if d["file"] == str(path) and d["severity"] == "error"}
        assert errors == expected_lines(source), (path.name, [d["message"] for d in out["generalDiagnostics"] if d["file"] == str(path)])


def test_mypy_sees_the_fixes_and_the_real_errors(built: Path, snippets: dict[Path, str], tmp_path: Path) -> None:
    if shutil.which("mypy", path=str(VENV_BIN)) is None:
        pytest.skip("mypy is not installed in the venv: `pip install -e .`")
    # mypy runs in the venv, whose site-packages hold the unpatched bpy-stubs: mypy_path must win.
    cmd = [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        str(built / "mypy.ini"),
        "--cache-dir",
        str(tmp_path / "cache"),
        "--output",
        "json",
    ]
    run = subprocess.run([*cmd, *map(str, snippets)], capture_output=True, text=True, timeout=300, cwd=next(iter(snippets)).parent)
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    for path, source in snippets.items():
        errors = {r["line"] for r in rows if Path(r["file"]).name == path.name and r["severity"] == "error"}
        assert errors == expected_lines(source), (path.name, [(r["line"], r["message"]) for r in rows if Path(r["file"]).name == path.name])
