"""A red ball bouncing three times across the floor over 48 frames, squashing on each impact.

Location and scale are keyframed with keyframe_insert. Impact keys get vector
handles so the ball snaps off the floor instead of easing into it.
"""

import math

import bpy
from mathutils import Vector

BLENDER = ">=4.4"  # layered actions (action.layers, slots, channelbags) arrived in 4.4

RADIUS = 0.6
FRAME_START, FRAME_END = 1, 48
# (frame, x, height of the ball's bottom above the floor); height 0 is an impact.
BOUNCE_KEYS = [
    (1, -4.5, 3.0),
    (11, -2.5, 0.0),
    (20, -1.0, 2.0),
    (28, 0.5, 0.0),
    (35, 1.7, 1.1),
    (41, 2.9, 0.0),
    (48, 4.0, 0.5),
]
SQUASH = (1.25, 1.25, 0.7)
STRETCH = (0.9, 0.9, 1.2)
ROUND = (1.0, 1.0, 1.0)


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    for block in (bpy.data.meshes, bpy.data.materials, bpy.data.actions, bpy.data.lights, bpy.data.cameras):
        for item in list(block):
            if item.users == 0:
                block.remove(item)


def make_material(name, color, roughness=0.4):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    mat.diffuse_color = (*color, 1.0)
    return mat


def add_ball():
    bpy.ops.mesh.primitive_uv_sphere_add(radius=RADIUS, segments=32, ring_count=16)
    ball = bpy.context.active_object
    ball.name = "Ball"
    ball.data.shade_smooth()
    # Put the origin at the bottom of the ball so squashing keeps it on the floor.
    for vert in ball.data.vertices:
        vert.co.z += RADIUS
    ball.data.materials.append(make_material("Rubber", (0.85, 0.08, 0.05)))
    return ball


def keyframe_bounces(ball):
    for frame, x, height in BOUNCE_KEYS:
        ball.location = (x, 0.0, height)
        ball.keyframe_insert(data_path="location", frame=frame)


def keyframe_squash(ball):
    """Round at the apexes, stretched just around each impact, squashed on it."""
    for frame, _x, height in BOUNCE_KEYS:
        if height > 0.0:
            scale_keys = [(frame, ROUND)]
        else:
            scale_keys = [(frame - 2, STRETCH), (frame, SQUASH), (frame + 2, STRETCH)]
        for key_frame, scale in scale_keys:
            ball.scale = scale
            ball.keyframe_insert(data_path="scale", frame=key_frame)


def channelbag_fcurves(obj):
    """F-curves of the object's action, via the layered-action API of Blender 4.4+."""
    anim = obj.animation_data
    for layer in anim.action.layers:
        for strip in layer.strips:
            channelbag = strip.channelbag(anim.action_slot)
            if channelbag is not None:
                return channelbag.fcurves
    return []


def sharpen_impacts(ball):
    impact_frames = {frame for frame, _x, height in BOUNCE_KEYS if height == 0.0}
    for fcurve in channelbag_fcurves(ball):
        if fcurve.data_path == "location" and fcurve.array_index == 0:
            # Horizontal travel should be steady, not eased at every key.
            for key in fcurve.keyframe_points:
                key.interpolation = "LINEAR"
            continue
        for key in fcurve.keyframe_points:
            if round(key.co.x) in impact_frames:
                key.handle_left_type = "VECTOR"
                key.handle_right_type = "VECTOR"
        fcurve.update()


def add_floor(size):
    mesh = bpy.data.meshes.new("Floor")
    mesh.from_pydata([(-size, -size, 0), (size, -size, 0), (size, size, 0), (-size, size, 0)], [], [(0, 1, 2, 3)])
    mesh.materials.append(make_material("Floor", (0.75, 0.72, 0.65), roughness=0.8))
    floor = bpy.data.objects.new("Floor", mesh)
    bpy.context.scene.collection.objects.link(floor)
    return floor


def aim(obj, target):
    obj.rotation_euler = (Vector(target) - obj.location).to_track_quat("-Z", "Y").to_euler()


def main():
    clear_scene()
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = FRAME_START, FRAME_END
    scene.render.fps = 24

    ball = add_ball()
    keyframe_bounces(ball)
    keyframe_squash(ball)
    sharpen_impacts(ball)
    add_floor(15.0)

    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    camera.data.lens = 35
    camera.location = (0.0, -8.5, 4.5)
    aim(camera, (0.0, 0.0, 1.0))
    scene.collection.objects.link(camera)
    scene.camera = camera

    sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", "SUN"))
    sun.data.energy = 3.5
    sun.rotation_euler = (math.radians(40), 0.0, math.radians(-25))
    scene.collection.objects.link(sun)

    # Workbench previews have no shadows by default; one shows how high the ball is.
    scene.display.shading.show_shadows = True

    # Show a frame just after the first impact, with the ball rising again.
    scene.frame_set(14)


main()
