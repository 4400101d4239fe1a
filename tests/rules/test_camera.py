"""Camera data assigned where its object belongs: fixed only where a run failed with "expected a Object type, not Camera"."""

from __future__ import annotations

import pytest

from .helpers import fired, healed_in_blender, healed_once, src

ERROR = "bpy_struct: item.attr = val: Scene.camera expected a Object type, not Camera"

# What a small model wrote in the generation benchmark (three heal rounds spent on it).
DATA_ONLY = src("""
import bpy

scene = bpy.context.scene
bpy.ops.mesh.primitive_cube_add(size=1.0)
cam_data = bpy.data.cameras.new("Camera")
scene.camera = cam_data
""")

WITH_OBJECT = src("""
import bpy

scene = bpy.context.scene


def link(obj):
    scene.collection.objects.link(obj)
    return obj


bpy.ops.mesh.primitive_cube_add(size=1.0)
cam_data = bpy.data.cameras.new("Camera")
cam = link(bpy.data.objects.new("Camera", cam_data))
cam.location = (6.0, -6.0, 4.5)
scene.camera = cam_data
""")


def test_never_a_finding_without_the_run() -> None:
    assert "camera-data-as-object" not in fired(DATA_ONLY)


def test_the_object_made_from_the_data_is_assigned() -> None:
    healed = healed_once(WITH_OBJECT, "TypeError", ERROR, 15)
    assert [r.rule for r in healed.applied] == ["camera-data-as-object"] and healed.explained == "camera-data-as-object"
    assert healed.script.endswith("scene.camera = cam\n") and healed.script.count("objects.new") == 1


def test_without_an_object_one_is_made_and_linked() -> None:
    healed = healed_once(DATA_ONLY, "TypeError", ERROR, 6)
    assert "cam_data_object = bpy.data.objects.new(cam_data.name, cam_data)\n" in healed.script
    assert "bpy.context.scene.collection.objects.link(cam_data_object)\nscene.camera = cam_data_object\n" in healed.script


def test_an_object_made_only_after_the_failing_line_is_not_used() -> None:
    later = DATA_ONLY + 'cam = bpy.data.objects.new("Camera", cam_data)\n'
    healed = healed_once(later, "TypeError", ERROR, 6)
    assert "scene.camera = cam_data_object" in healed.script


@pytest.mark.blender
def test_on_real_blender_both_forms_fail_and_the_fixes_run(blender_run) -> None:
    for script in (DATA_ONLY, WITH_OBJECT):
        outcome, _ = healed_in_blender(blender_run, script, "expected a Object type, not Camera")
        assert {a.rule for r in outcome.rounds for a in r.applied} == {"camera-data-as-object"}


# A small model's star (three heal rounds): the camera data made and assigned in one chained statement.
CHAINED = src("""
import bpy
from bpy import context, data

bpy.ops.mesh.primitive_cube_add(size=1.0)
cam = context.scene.camera = data.cameras.new(name="Camera")
cam.lens = 35
""")


@pytest.mark.blender
def test_camera_data_made_in_the_assignment_gets_an_object_made_linked_and_assigned(blender_run) -> None:
    healed = healed_once(CHAINED, "TypeError", ERROR, 5)
    assert [r.rule for r in healed.applied] == ["camera-data-as-object"]
    assert 'cam = data.cameras.new(name="Camera")\ncam_object = bpy.data.objects.new(cam.name, cam)\n' in healed.script
    assert "context.scene.camera = cam_object\n" in healed.script and "cam.lens = 35\n" in healed.script
    plain = healed_once("import bpy\nbpy.context.scene.camera = bpy.data.cameras.new('C')\n", "TypeError", ERROR, 2)
    assert "camera_data = bpy.data.cameras.new('C')\n" in plain.script and "bpy.context.scene.camera = camera_data_object\n" in plain.script
    check = "assert bpy.context.scene.camera.data.lens == 35\n"
    healed_in_blender(blender_run, CHAINED, "expected a Object type, not Camera", check=check)
