"""A keyword the script's own function does not take: renamed to a close parameter, else dropped, only on a run's evidence."""

from __future__ import annotations

import pytest

from .helpers import fired, healed_in_blender, healed_once, src

# What a small model wrote in the generation benchmark (a company emblem): an exemplar's make_material signature, its own body.
EXTRA_KEYWORD = src("""
import bpy

def make_material(name, color):
    mat = bpy.data.materials.new(name)
    mat.diffuse_color = (*color, 1.0)
    return mat

body = make_material("Body", (0.82, 0.78, 0.7))
plate = make_material("Plate", (0.1, 0.15, 0.1), roughness=0.9,)
bpy.ops.mesh.primitive_cube_add(size=1.0)
bpy.context.active_object.data.materials.append(plate)
""")
ERROR = "make_material() got an unexpected keyword argument 'roughness'"


def test_never_a_finding_without_a_run() -> None:
    assert "own-function-keyword" not in fired(EXTRA_KEYWORD)


def test_a_keyword_the_function_never_takes_is_dropped() -> None:
    healed = healed_once(EXTRA_KEYWORD, "TypeError", ERROR, 9)
    assert [r.rule for r in healed.applied] == ["own-function-keyword"]
    assert 'plate = make_material("Plate", (0.1, 0.15, 0.1))\n' in healed.script
    assert healed.script.replace("(0.1, 0.15, 0.1))", "(0.1, 0.15, 0.1), roughness=0.9,)") == EXTRA_KEYWORD


def test_a_keyword_close_to_a_parameter_is_renamed() -> None:
    source = src("""
    def make_material(name, color, roughness=0.5):
        return (name, color, roughness)

    make_material("Plate", (0.1, 0.1, 0.1), roughnes=0.9)
    """)
    healed = healed_once(source, "TypeError", "make_material() got an unexpected keyword argument 'roughnes'", 4)
    assert 'make_material("Plate", (0.1, 0.1, 0.1), roughness=0.9)' in healed.script


def test_left_alone_where_the_keyword_may_be_meant_for_something_else() -> None:
    kwargs = "def make(name, **options):\n    return name\n\nmake('a', size=2)\n"
    twice = "def make(name):\n    return name\n\ndef make(name, size):\n    return name\n\nmake('a', size=2)\n"
    api = "import bpy\n\nbpy.data.materials.new('a', size=2)\n"
    for source in (kwargs, twice, api):
        healed = healed_once(source, "TypeError", "make() got an unexpected keyword argument 'size'", source.count("\n"))
        assert "own-function-keyword" not in {r.rule for r in healed.applied}


@pytest.mark.blender
def test_on_real_blender_the_old_form_fails_and_the_fix_runs(blender_run) -> None:
    healed_in_blender(blender_run, EXTRA_KEYWORD, "unexpected keyword argument 'roughness'")
