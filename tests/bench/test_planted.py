"""The planted-mistake mutators: exact edits and lines, [] when not applicable, and mutants that fail in Blender."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))  # bench/ is scripts, not a package

import planted  # noqa: E402
from planted import CATEGORIES, MUTATORS, Mutant, plant, plant_all  # noqa: E402

from bpywright.harness.pool import WorkerPool  # noqa: E402

# Runs cleanly in Blender 4.5 and gives every mutator at least one place to plant its mistake.
SCRIPT = """\
import bpy
import mathutils

bpy.ops.object.select_all(action='DESELECT')
bpy.ops.mesh.primitive_cube_add(size=2, location=(0, 0, 1))
cube = bpy.context.object
cube.select_set(True)
bpy.context.view_layer.objects.active = cube
cube.rotation_euler = (0, 0, 0.3)
cube.location.z += 0.5
mat = bpy.data.materials.new(name="Red")
mat.diffuse_color = (0.8, 0.1, 0.1, 1)  # red
cube.data.materials.append(mat)
bevel = cube.modifiers.new(name="Bevel", type='BEVEL')
print(len(cube.data.polygons))
bpy.ops.object.mode_set(mode='EDIT')
bpy.ops.object.mode_set(mode='OBJECT')
bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, location=(3, 0, 1))
bpy.ops.mesh.primitive_cone_add(radius1=0.5, depth=1, location=(-3, 0, 1))
hole = bpy.context.object
cut = cube.modifiers.new(name="Cut", type="BOOLEAN")
cut.object = hole
cut.operation = 'DIFFERENCE'

mat.use_nodes = True
bsdf = mat.node_tree.nodes["Principled BSDF"]
bsdf.inputs["Base Color"].default_value = (0.8, 0.1, 0.1, 1)
bsdf.inputs['Coat Weight'].default_value = 0.5
mat.node_tree.links.new(bsdf.outputs["BSDF"], mat.node_tree.nodes["Material Output"].inputs["Surface"])

light_data = bpy.data.lights.new(name="Key", type='POINT')
light = bpy.data.objects.new("Key", light_data)
bpy.context.collection.objects.link(light)
light.location = bpy.context.object.matrix_world @ mathutils.Vector((0, 0, 4))
bpy.context.view_layer.update()
bpy.context.scene.cursor.location = (0, 0, 0)
bpy.context.scene.render.engine = 'CYCLES'
tex = bpy.data.textures.new("Clouds", type='CLOUDS')
bpy.ops.object.text_add(align='WORLD', location=(0, -3, 0))
bpy.context.object.data.align_x = 'CENTER'
"""

# mutator → every (fragment of the original line, old text, new text) it should plant in SCRIPT.
EXPECTED: dict[str, list[tuple[str, str, str]]] = {
    "scene_objects_link": [("collection.objects.link", "bpy.context.collection.objects.link", "bpy.context.scene.objects.link")],
    "select_attribute": [("select_set", "cube.select_set(True)", "cube.select = True")],
    "scene_objects_active": [("objects.active", "view_layer.objects.active", "scene.objects.active")],
    "scene_objects_active_read": [
        ("cube = bpy.context.object", "bpy.context.object", "bpy.context.scene.objects.active"),
        ("hole = bpy", "bpy.context.object", "bpy.context.scene.objects.active"),
        ("matrix_world", "bpy.context.object", "bpy.context.scene.objects.active"),
        ("align_x", "bpy.context.object", "bpy.context.scene.objects.active"),
    ],
    "scene_update": [("update()", "view_layer.update", "scene.update")],
    "lamp_names": [("lights.new", "bpy.data.lights", "bpy.data.lamps")],
    "cursor_location": [("cursor", "cursor.location", "cursor_location")],
    "matrix_star": [("matrix_world", " @ ", " * ")],
    "diffuse_color_rgb": [("mat.diffuse_color", "(0.8, 0.1, 0.1, 1)", "(0.8, 0.1, 0.1)")],
    "misspelled_location": [
        ("cube.location", ".location", ".locaton"),
        ("light.location", ".location", ".locaton"),
        ("cursor", ".location", ".locaton"),
    ],
    "misspelled_rotation_euler": [("rotation_euler", "rotation_euler", "rotation_eular")],
    "singular_materials": [("materials.new", ".materials", ".material"), ("append", ".materials", ".material")],
    "british_colour": [("mat.diffuse_color", "diffuse_color", "diffuse_colour")],
    "singular_modifiers": [("Bevel", ".modifiers", ".modifier"), ("Cut", ".modifiers", ".modifier")],
    "polygons_as_faces": [("polygons", ".polygons", ".faces")],
    "socket_value": [("Base Color", ".default_value", ".value"), ("Coat Weight", ".default_value", ".value")],
    "cube_size_as_radius": [("primitive_cube_add", "size=", "radius=")],
    "sphere_radius_as_size": [("uv_sphere", "radius=", "size=")],
    "depth_as_height": [("cone_add", "depth=", "height=")],
    "cone_radius1_as_radius": [("cone_add", "radius1=", "radius=")],
    "location_as_loc": [
        ("cube_add", "location=", "loc="),
        ("uv_sphere", "location=", "loc="),
        ("cone_add", "location=", "loc="),
        ("text_add", "location=", "loc="),
    ],
    "material_name_as_title": [("materials.new", "name=", "title=")],
    "select_all_none": [("select_all", "'DESELECT'", "'NONE'")],
    "modifier_type_misnamed": [("'BEVEL'", "'BEVEL'", "'BEVELED'"), ('"BOOLEAN"', '"BOOLEAN"', '"BOOL"')],
    "boolean_operation_misnamed": [("operation", "'DIFFERENCE'", "'SUBTRACT'")],
    "legacy_eevee_engine": [("engine", "'CYCLES'", "'BLENDER_EEVEE'")],
    "light_type_misnamed": [("lights.new", "'POINT'", "'OMNI'")],
    "align_global": [("text_add", "'WORLD'", "'GLOBAL'")],
    "edit_mode_as_context_mode": [("'EDIT'", "'EDIT'", "'EDIT_MESH'")],
    "texture_type_misnamed": [("textures.new", "'CLOUDS'", "'CLOUD'")],
    "text_align_middle": [("align_x", "'CENTER'", "'MIDDLE'")],
    "pre40_principled_input": [("Coat Weight", "'Coat Weight'", "'Clearcoat'")],
    "base_color_misspelled": [('"Base Color"', '"Base Color"', '"BaseColor"')],
    "bsdf_output_as_shader": [('outputs["BSDF"]', '"BSDF"', '"Shader"')],
}
ALL = {m.__name__: m for mutators in MUTATORS.values() for m in mutators}
LINES = SCRIPT.splitlines()


def line_of(fragment: str) -> int:
    """The 1-based line of SCRIPT holding `fragment` (which must be unique)."""
    found = [i for i, line in enumerate(LINES, 1) if fragment in line]
    assert len(found) == 1, (fragment, found)
    return found[0]


def test_every_mutator_is_registered_once_under_a_known_category() -> None:
    assert set(MUTATORS) == set(CATEGORIES)
    assert len(ALL) == sum(len(m) for m in MUTATORS.values())
    assert set(EXPECTED) | {"inserted_pre40_principled_input"} == set(ALL)
    assert all(len(mutators) >= 3 for mutators in MUTATORS.values())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_mutator_plants_exactly_the_expected_edits(name: str) -> None:
    mutator = ALL[name]
    mutants = plant(mutator, SCRIPT)
    category = next(c for c, ms in MUTATORS.items() if mutator in ms)
    expected = set()
    for fragment, old, new in EXPECTED[name]:
        line = line_of(fragment)
        assert old in LINES[line - 1]
        expected.add((line, LINES[line - 1].replace(old, new, 1)))
    assert {(m.line, m.source.splitlines()[m.line - 1]) for m in mutants} == expected
    for m in mutants:
        assert (m.category, m.mutator) == (category, name) and m.description
        mutated = m.source.splitlines()
        assert len(mutated) == len(LINES) and m.source.endswith("\n")
        assert [i for i, (a, b) in enumerate(zip(LINES, mutated), 1) if a != b] == [m.line]


def test_inserted_principled_input_adds_two_lines_after_diffuse_color() -> None:
    [m] = planted.inserted_pre40_principled_input(SCRIPT)
    after = line_of("mat.diffuse_color")
    mutated = m.source.splitlines()
    assert m.category == planted.RENAMED_SOCKET and m.line == after + 2
    assert mutated[after : after + 2] == [
        "mat.use_nodes = True",
        'mat.node_tree.nodes["Principled BSDF"].inputs["Specular"].default_value = 0.5',
    ]
    assert mutated[:after] + mutated[after + 2 :] == LINES


def test_inserted_principled_input_keeps_indentation_and_rotates_sockets() -> None:
    source = "import bpy\nfor i in range(2):\n    m = bpy.data.materials.new(name='a')\n    m.diffuse_color = (1, 0, 0, 1)\nn = m\nn.diffuse_color = (0, 1, 0, 1)"
    first, second = planted.inserted_pre40_principled_input(source)
    assert first.source.splitlines()[first.line - 1] == '    m.node_tree.nodes["Principled BSDF"].inputs["Specular"].default_value = 0.5'
    assert second.source.splitlines()[second.line - 1] == 'n.node_tree.nodes["Principled BSDF"].inputs["Subsurface"].default_value = 0.1'
    assert second.line == 8 and second.source.splitlines()[:6] == source.splitlines()


@pytest.mark.parametrize("name", sorted(ALL))
def test_mutator_returns_nothing_where_it_does_not_apply(name: str) -> None:
    assert ALL[name]("import bpy\n\nprint(bpy.app.version_string)\n") == []
    assert ALL[name]("def broken(:\n    mat.diffuse_color = (1, 0, 0, 1)\n") == []


def test_near_misses_are_left_alone() -> None:
    untouched = "\n".join(
        [
            "import bpy",
            "coll = bpy.data.collections.new('c')",
            "coll.objects.link(bpy.context.object)",  # a user collection: 2.7x had no equivalent to plant
            "obj.select_set(state=True)",  # keyword form is not rewritten
            "view_layer.objects.active = obj",  # no context prefix to rebase onto the scene
            "bpy.ops.object.light_add(type='SPOT')",  # the one edit planted here
        ]
    )
    assert planted.scene_objects_link(untouched) == []
    assert planted.select_attribute(untouched) == []
    assert planted.scene_objects_active(untouched) == []
    [spot] = planted.light_type_misnamed(untouched)
    assert spot.line == 6 and "'SPOTLIGHT'" in spot.source


def test_plant_all_covers_every_category_of_the_script() -> None:
    mutants = plant_all(SCRIPT)
    assert {m.category for m in mutants} == set(CATEGORIES)
    assert len({m.source for m in mutants}) == len(mutants)


ONE_PER_CATEGORY = ("select_attribute", "singular_materials", "cube_size_as_radius", "modifier_type_misnamed", "pre40_principled_input")


@pytest.mark.blender
def test_planted_mutants_fail_in_blender_where_the_original_passes(pool: WorkerPool) -> None:
    original = pool.run(source=SCRIPT)
    assert original.status == "ok", original.exception
    mutants: list[Mutant] = [plant(ALL[name], SCRIPT)[0] for name in ONE_PER_CATEGORY]
    mutants.append(planted.inserted_pre40_principled_input(SCRIPT)[0])
    assert {m.category for m in mutants} == set(CATEGORIES)
    for m in mutants:
        report = pool.run(source=m.source)
        assert report.status == "error", (m.mutator, report.status)
        assert report.exception is not None and report.exception.line == m.line, (m.mutator, report.exception)
