"""Blender Internal texture slots (removed in 2.80) carried into the material's node tree, before and after on Blender 4.5."""

from __future__ import annotations

import pytest

from bpywright.rules.families.materials import HELPER_NAME

from .helpers import fired, fixed, healed_in_blender, src

# A 2.7x city generator's ground and walls (texture slots as public 2.7x scripts wrote them).
CLOUDS_AND_NOISE = src("""
import bpy

bpy.ops.mesh.primitive_plane_add()
ground = bpy.context.object
mat = bpy.data.materials.new("Ground")
mat.diffuse_color = (0.2, 0.5, 0.2)
clouds = bpy.data.textures.new('GroundTex', type = 'CLOUDS')
clouds.noise_scale = 0.5
mtex = mat.texture_slots.add()
mtex.texture = clouds
mtex.color = (0.139,0.145,0.145)
mtex.texture_coords = 'UV'
mtex.use_map_color_diffuse = True
mtex.diffuse_color_factor = 0.8
mtex.mapping = 'FLAT'
ground.data.materials.append(mat)


def wall_material(name):
    wall = bpy.data.materials.new(name)
    grain = bpy.data.textures.new(name + 'Tex', type = 'WOOD')
    slot = wall.texture_slots.add()
    slot.texture = grain
    slot.use_map_color_diffuse = False
    slot.use_map_normal = True
    slot.normal_factor = 0.565
    slot.use_map_specular = True
    return wall


bpy.ops.mesh.primitive_cube_add()
bpy.context.object.data.materials.append(wall_material("Wall"))
""")

# An image texture in a slot (the image made in the script, as a generator that paints its own would).
IMAGE = src("""
import bpy

img = bpy.data.images.new("Checker", 16, 16)
tex = bpy.data.textures.new("CheckerTex", 'IMAGE')
tex.image = img
mat = bpy.data.materials.new("Screen")
slot = mat.texture_slots.add()
slot.texture = tex
slot.texture_coords = 'UV'
slot.mapping = 'CUBE'
slot.scale = (2.0, 2.0, 1.0)
bpy.ops.mesh.primitive_plane_add()
bpy.context.object.data.materials.append(mat)
bpy.ops.render.render(write_still=True)
""")


def test_a_sure_finding_on_every_slot() -> None:
    assert "texture-slots" in fired(CLOUDS_AND_NOISE)


def test_the_slot_and_its_settings_become_one_call_the_texture_kept() -> None:
    out = fixed(CLOUDS_AND_NOISE)
    assert "texture_slots" not in out and out.count(f"def {HELPER_NAME}(") == 1
    assert "mtex = texture_slot_nodes(\n    mat,\n    clouds,\n    color=(0.139,0.145,0.145),\n    texture_coords='UV'," in out
    assert "diffuse_color_factor=0.8," in out and "mapping='FLAT',\n)\n" in out
    # In a function: the call replaces the last setting, the texture is still made first; the return is kept.
    assert "    slot = texture_slot_nodes(" in out and "        grain,\n" in out and "use_map_specular=True," in out
    assert out.index("grain = bpy.data.textures.new") < out.index("slot = texture_slot_nodes(")
    assert "    return wall\n" in out
    assert fixed(out) == out  # the helper is written once; a second heal changes nothing


def test_a_slot_never_given_a_texture_still_builds_nodes() -> None:
    out = fixed("import bpy\nmat = bpy.data.materials.new('M')\nmtex = mat.texture_slots.add()\nmtex.texture_coords = 'UV'\n")
    assert "mtex = texture_slot_nodes(mat, None, texture_coords='UV')\n" in out


@pytest.mark.blender
def test_on_real_blender_procedural_textures_feed_the_principled_bsdf(blender_run) -> None:
    check = src("""
    nodes = bpy.data.materials["Ground"].node_tree.nodes
    noise = next(n for n in nodes if n.type == "TEX_NOISE")
    assert noise.label == "GroundTex" and abs(noise.inputs["Scale"].default_value - 2.0) < 1e-6
    bsdf = nodes["Principled BSDF"]
    mix = bsdf.inputs["Base Color"].links[0].from_node
    assert mix.type == "MIX" and mix.data_type == "RGBA"
    assert noise.inputs["Vector"].links[0].from_socket.name == "UV"
    wall = bpy.data.materials["Wall"].node_tree.nodes
    wave = next(n for n in wall if n.type == "TEX_WAVE")
    bump = wall["Principled BSDF"].inputs["Normal"].links[0].from_node
    assert bump.type == "BUMP" and bump.inputs["Height"].links[0].from_node == wave
    assert not wall["Principled BSDF"].inputs["Base Color"].links  # use_map_color_diffuse = False
    """)
    outcome, report = healed_in_blender(blender_run, CLOUDS_AND_NOISE, "should contain 4 items", check=check, max_rounds=3)
    assert "texture-slots" in {a.rule for r in outcome.rounds for a in r.applied}
    assert "no shader node counterpart for use_map_specular" in report.stdout


@pytest.mark.blender
def test_on_real_blender_an_image_slot_becomes_an_image_texture_and_the_render_stays(blender_run) -> None:
    check = src("""
    nodes = bpy.data.materials["Screen"].node_tree.nodes
    image = next(n for n in nodes if n.type == "TEX_IMAGE")
    assert image.image.name == "Checker" and image.projection == "BOX"
    mix = nodes["Principled BSDF"].inputs["Base Color"].links[0].from_node
    assert mix.inputs[7].links[0].from_node == image
    assert tuple(image.inputs["Vector"].links[0].from_node.inputs["Scale"].default_value) == (2.0, 2.0, 1.0)
    """)
    outcome, _ = healed_in_blender(blender_run, IMAGE, "has no attribute 'texture_slots'", check=check)
    assert "bpy.ops.render.render(write_still=True)" in outcome.script
