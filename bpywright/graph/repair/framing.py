"""A blank render of a scene that holds geometry: the script's camera looks away from what it built. Small models aim
cameras by guessed Euler angles (the local model's star and candy jar ran, built their shapes, and rendered empty frames); the
deterministic fix a technical artist makes is to keep the camera where it stands and aim it at the built objects, backed
off until they fit the frame. It is appended to the script as a function call, so the user reads what changed."""

from __future__ import annotations

from ...harness.report import RunReport
from ..reading.expectations import MIN_NONBLANK, built_nothing

MARKER = "def frame_scene_camera("

FRAME_CAMERA = """

# bpywright: the render showed none of the objects built above, so the scene's camera is aimed at them from where it
# stands and backed off until they fit the frame.
def frame_scene_camera():
    import math

    import bpy
    from mathutils import Matrix, Vector

    scene = bpy.context.scene
    bpy.context.view_layer.update()
    shapes = [o for o in scene.objects if o.type in {"MESH", "CURVE", "SURFACE", "META", "FONT"} and not o.hide_render]
    corners = [o.matrix_world @ Vector(corner) for o in shapes for corner in o.bound_box]
    camera = scene.camera if scene.camera is not None and scene.camera.type == "CAMERA" else None
    camera = camera or next((o for o in scene.objects if o.type == "CAMERA"), None)
    if not corners or camera is None:
        return
    low = Vector([min(c[i] for c in corners) for i in range(3)])
    high = Vector([max(c[i] for c in corners) for i in range(3)])
    center, radius = (low + high) / 2, max((high - low).length / 2, 0.1)
    direction = camera.matrix_world.translation - center
    if direction.length < 1e-6:
        direction = Vector((1.0, -1.2, 0.8))
    direction.normalize()
    lens = camera.data
    distance = radius / math.sin(min(lens.angle_x, lens.angle_y) / 2) * 1.1
    if lens.type == "ORTHO":
        lens.ortho_scale = radius * 2.2
    camera.constraints.clear()
    camera.parent = None
    rotation = (-direction).to_track_quat("-Z", "Y").to_matrix().to_4x4()
    camera.matrix_world = Matrix.Translation(center + direction * distance) @ rotation
    lens.clip_start = min(lens.clip_start, max(distance - radius * 2, 0.001))
    lens.clip_end = max(lens.clip_end, distance + radius * 4)
    scene.camera = camera


frame_scene_camera()
"""


def blank_with_geometry(run: RunReport | None) -> bool:
    """The run succeeded and rendered an empty frame although the scene holds visible geometry the script built."""
    if run is None or not run.ok or run.render is None or run.render.nonblank_fraction is None or run.scene is None:
        return False
    return run.render.nonblank_fraction < MIN_NONBLANK and run.scene.bbox is not None and not built_nothing(run.scene)


def framed(script: str | None, run: RunReport | None) -> str | None:
    """The script with its camera aimed at what it built, when its render was blank for a scene with geometry and a
    camera (None otherwise, or when it already carries the framing)."""
    if script is None or MARKER in script or not blank_with_geometry(run):
        return None
    assert run is not None and run.scene is not None
    if not run.scene.camera:
        return None  # the harness frames a scene without a camera itself
    return script.rstrip("\n") + "\n" + FRAME_CAMERA
