"""Framing and render: a camera and light when the script made none, then one still in the job's engine."""

import math

import bpy

ENGINES = {
    "workbench": ["BLENDER_WORKBENCH"],
    "eevee": ["BLENDER_EEVEE_NEXT", "BLENDER_EEVEE"],  # 4.2-4.5 call it _NEXT; <4.2 and >=5.0 do not
    "cycles": ["CYCLES"],
}


def ensure_camera_and_light(bbox):
    """Add a camera framing bbox (and a sun) when the scene has none; return what was added."""
    from mathutils import Vector

    scene = bpy.context.scene
    added = []
    if bbox is None:
        lo, hi = Vector((-1, -1, -1)), Vector((1, 1, 1))
    else:
        lo, hi = Vector(bbox["min"]), Vector(bbox["max"])
    center = (lo + hi) / 2
    radius = max((hi - lo).length / 2, 0.1)
    if scene.camera is None:
        cams = [o for o in scene.objects if o.type == "CAMERA"]
        if cams:
            scene.camera = cams[0]
        else:
            data = bpy.data.cameras.new("bpywright_camera")
            cam = bpy.data.objects.new("bpywright_camera", data)
            scene.collection.objects.link(cam)
            direction = Vector((1.0, -1.2, 0.8)).normalized()
            half_fov = min(data.angle_x, data.angle_y) / 2 if hasattr(data, "angle_y") else data.angle / 2
            distance = radius / math.sin(half_fov) * 1.1
            cam.location = center + direction * distance
            cam.rotation_euler = (-direction).to_track_quat("-Z", "Y").to_euler()
            data.clip_end = max(data.clip_end, distance + radius * 4)
            data.clip_start = min(data.clip_start, max(distance - radius * 2, 0.001))
            scene.camera = cam
            added.append("camera")
    if not any(o.type == "LIGHT" for o in scene.objects):
        data = bpy.data.lights.new("bpywright_sun", type="SUN")
        data.energy = 3.0
        sun = bpy.data.objects.new("bpywright_sun", data)
        scene.collection.objects.link(sun)
        sun.location = center + Vector((0, 0, radius * 2))
        sun.rotation_euler = (math.radians(40), math.radians(10), math.radians(30))
        added.append("light")
    return added


def set_engine(scene, engine):
    """Set the render engine by short name, trying this version's identifiers in turn."""
    last = None
    for identifier in ENGINES[engine]:
        try:
            scene.render.engine = identifier
            return identifier
        except TypeError as exc:
            last = exc
    raise last


def render_scene(job):
    """Render the scene to job['render_path'] with the job's engine/resolution/samples."""
    scene = bpy.context.scene
    identifier = set_engine(scene, job.get("engine", "workbench"))
    res = int(job.get("resolution", 512))
    scene.render.resolution_x = res
    scene.render.resolution_y = res
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.render.filepath = job["render_path"]
    samples = int(job.get("samples", 16))
    if identifier == "CYCLES":
        scene.cycles.samples = samples
        scene.cycles.device = "CPU"
        scene.cycles.use_denoising = False  # OIDN is missing from some builds (Debian's 3.4)
    elif identifier.startswith("BLENDER_EEVEE"):
        if hasattr(scene.eevee, "taa_render_samples"):
            scene.eevee.taa_render_samples = samples
    bpy.ops.render.render(write_still=True)
    return {"path": job["render_path"], "width": res, "height": res, "engine": identifier, "nonblank_fraction": None}
