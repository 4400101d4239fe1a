"""Script facts (guards, dead paths, registrations) and the stubs' member index, without the checkers."""

from __future__ import annotations

import textwrap

import pytest

from bpywright.harness.members import build_index, member_index
from bpywright.harness.scriptfacts import script_facts
from bpywright.harness.stubs import StubsError, typings_dir


def facts(source: str, target: str = "4.5"):
    return script_facts(textwrap.dedent(source).lstrip(), target)


def test_version_branches_decided_per_target() -> None:
    src = """
        import bpy
        if bpy.app.version >= (4, 2, 0):
            new_api()
        else:
            old_api()
    """
    on_45 = facts(src, "4.5")
    assert on_45.guard_at(3) is None and on_45.guard_at(5) is not None and on_45.unreachable_at(5) is not None
    on_41 = facts(src, "4.1")
    assert on_41.guard_at(3) is not None and on_41.guard_at(5) is None


def test_version_aliases_indexes_and_undecidable_tests() -> None:
    f = facts(
        """
        import bpy
        v = bpy.app.version
        if v[0] < 4:
            old()
        if bpy.app.version >= min_version():
            maybe()
        """
    )
    assert f.guard_at(4) is not None and "does not run on Blender 4.5" in f.guard_at(4).why
    assert f.guard_at(6) is not None and f.unreachable_at(6) is None  # cannot be decided: both branches guarded, both may run


def test_hasattr_and_try_guards() -> None:
    f = facts(
        """
        if hasattr(mesh, "use_auto_smooth"):
            mesh.use_auto_smooth = True
        try:
            x = a.b
        except (KeyError, AttributeError):
            x = None
        try:
            y = a.c
        except ValueError:
            y = None
        """
    )
    assert "hasattr" in f.guard_at(2).why
    assert "AttributeError|KeyError" in f.guard_at(4).why
    assert f.guard_at(8) is None  # ValueError does not catch a missing API


def test_unreachable_paths() -> None:
    f = facts(
        """
        def used():
            return 1
            dead_after_return()
        def never_called():
            undefined_name()
        if False:
            debug()
        used()
        """
    )
    assert "return" in f.unreachable_at(3).why
    assert "never_called" in f.unreachable_at(5).why
    assert "if False" in f.unreachable_at(7).why
    assert f.unreachable_at(8) is None and f.unreachable_at(2) is None


def test_registrations_classes_and_operators() -> None:
    f = facts(
        """
        import bpy
        class Props(bpy.types.PropertyGroup):
            size: bpy.props.FloatProperty()
        class OBJECT_OT_go(bpy.types.Operator):
            bl_idname = "object.go_somewhere"
        TABLE = [("table_prop", bpy.props.IntProperty())]
        bpy.types.Scene.my_props = bpy.props.PointerProperty(type=Props)
        setattr(bpy.types.Object, "tag", bpy.props.StringProperty())
        """
    )
    assert {"size", "table_prop", "my_props", "tag"} <= f.registered
    assert {"Props", "OBJECT_OT_go"} <= f.classes
    assert f.operators == {"go_somewhere"}


def test_unparsable_source_has_no_facts() -> None:
    f = script_facts("def broken(:\n")
    assert not f.guards and not f.unreachable and not f.registered


def test_member_index_knows_subclasses(tmp_path) -> None:
    stub = tmp_path / "bpy" / "types" / "__init__.pyi"
    stub.parent.mkdir(parents=True)
    stub.write_text(
        "class bpy_struct:\n    def keys(self): ...\n"
        "class Node(bpy_struct):\n    name: str\n"
        "class ShaderNodeValToRGB(Node, bpy_struct):\n    color_ramp: int\n"
        "class bpy_prop_collection[_T]:\n    def foo(self) -> _T: ...\n"
    )
    index = build_index(tmp_path)
    assert index.on_some_subclass("Node", "color_ramp") and index.on_some_subclass("Node", "keys")
    assert not index.on_some_subclass("Node", "colour_ramp")
    assert index.anywhere("foo") and not index.anywhere("nothing")


def test_member_index_of_the_built_stubs() -> None:
    try:
        stubs = typings_dir("4.5")
    except StubsError as exc:
        pytest.fail(f"run `bpywright typings build` first: {exc}")
    index = member_index(stubs)
    assert index is not None and index.knows("Node") and index.knows("Vector")
    assert index.on_some_subclass("Node", "color_ramp") and index.on_some_subclass("Attribute", "data")
    assert not index.on_some_subclass("Object", "locaton")


def test_functions_only_dead_code_calls_are_dead_too() -> None:
    f = facts(
        """
        def helper():
            pass
        def unused_builder():
            helper()
        def used():
            pass
        def with_default(x=used()):
            pass
        """
    )
    assert "unused_builder" in f.unreachable_at(4).why and "helper" in f.unreachable_at(2).why
    assert f.unreachable_at(6) is None  # called at def time by a default value


def test_name_probe_covers_only_findings_about_the_probed_name() -> None:
    f = facts(
        """
        if "Specular" in bsdf.inputs:
            bsdf.inputs["Specular"].default_value = 0.5
        elif "Specular IOR Level" in bsdf.inputs:
            bsdf.inputs["Specular"].default_value = 0.5
        """
    )
    assert f.guard_at(2, 'has no input "Specular" in Blender 4.5') is not None
    assert f.guard_at(4, 'has no input "Specular" in Blender 4.5') is None  # the elif probed another name


def test_methods_of_the_scripts_own_classes_that_nothing_names_are_dead() -> None:
    f = facts(
        """
        import bpy
        class Factory:
            def __init__(self):
                self.size = self.sample()
            def sample(self):
                return 1.0
            def finalize(self, assets):
                apply_wear(assets)
        class Panel(bpy.types.Panel):
            def draw(self, context):
                pass
        class MyPanel(Panel):
            def draw_header(self, context):
                pass
        Factory()
        """
    )
    assert f.unreachable_at(4) is None and f.unreachable_at(6) is None  # __init__ runs; sample() is named there
    assert "finalize" in f.unreachable_at(8).why
    assert f.unreachable_at(11) is None and f.unreachable_at(14) is None  # Blender calls a registered class's methods


def test_helper_results_name_the_scripts_own_functions() -> None:
    f = facts(
        """
        def build(tree):
            return tree
        class W:
            def new(self, kind):
                return kind
        group, node = build(1), 2
        ramp = W().new("ShaderNodeValToRGB")
        a, b = build(1)
        other = len([])
        """
    )
    assert f.helper_results == {"ramp": "new", "a": "build", "b": "build"}
