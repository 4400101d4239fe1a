"""Scripts and replies the FAKE LLM answers with in the graph tests (real Blender runs them)."""

from __future__ import annotations

import textwrap

from bpywright.harness.report import ExceptionInfo, RunReport

PROMPT = "three red cubes in a row"


def src(text: str) -> str:
    """Dedented script text with one trailing newline."""
    return textwrap.dedent(text).lstrip("\n").rstrip("\n") + "\n"


def fenced(script: str, before: str = "Here is the script:", after: str = "") -> str:
    """An LLM-style reply: prose, one ```python block, maybe more prose."""
    return f"{before}\n\n```python\n{script}```\n{after}"


CLEAR = """
import bpy

for obj in list(bpy.data.objects):
    bpy.data.objects.remove(obj, do_unlink=True)

mat = bpy.data.materials.new("Red")
mat.diffuse_color = (0.8, 0.1, 0.1, 1.0)
"""

THREE_CUBES = src(
    CLEAR
    + """
for i in range(3):
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(i * 2.0, 0.0, 0.0))
    cube = bpy.context.active_object
    cube.name = f"Cube{i}"
    cube.data.materials.append(mat)
"""
)

# Stacked instead of in a row: runs, passes the objective checks, the critic rejects it.
STACKED_CUBES = src(
    CLEAR
    + """
for i in range(3):
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0.0, 0.0, i * 1.0))
    cube = bpy.context.active_object
    cube.name = f"Cube{i}"
    cube.data.materials.append(mat)
"""
)

TWO_CUBES = THREE_CUBES.replace("range(3)", "range(2)")

# 2.7x drift the rule pack fixes: scene.objects.link → collection.objects.link.
DRIFT_CUBES = src(
    CLEAR
    + """
VERTS = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
FACES = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
for i in range(3):
    mesh = bpy.data.meshes.new(f"Cube{i}")
    mesh.from_pydata(VERTS, [], FACES)
    mesh.materials.append(mat)
    cube = bpy.data.objects.new(f"Cube{i}", mesh)
    cube.location = (i * 2.0, 0.0, 0.0)
    bpy.context.scene.objects.link(cube)
"""
)

# A plain bug no drift rule explains: the third cube has no offset (IndexError).
INDEX_BUG = src(
    CLEAR
    + """
offsets = [0.0, 2.0]
for i in range(3):
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(offsets[i], 0.0, 0.0))
    cube = bpy.context.active_object
    cube.name = f"Cube{i}"
    cube.data.materials.append(mat)
"""
)

INDEX_FIXED = INDEX_BUG.replace("offsets = [0.0, 2.0]", "offsets = [0.0, 2.0, 4.0]")

# Fails earlier than INDEX_BUG (on the first statement after the imports): a patch to this is "worse".
EARLY_BUG = INDEX_BUG.replace('mat = bpy.data.materials.new("Red")', 'mat = bpy.data.materials["Red"]')

# The prompt's example helper `link(obj)` called but never defined, and the `scene` it needs never bound (seen with the local model).
LINK_UNDEFINED = src(
    CLEAR
    + """
for i in range(3):
    mesh = bpy.data.meshes.new(f"Cube{i}")
    mesh.from_pydata([(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)], [], [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)])
    mesh.materials.append(mat)
    cube = link(bpy.data.objects.new(f"Cube{i}", mesh))
    cube.location = (i * 2.0, 0.0, 0.0)
"""
)

# A bug inside a helper: a small model's heal reply is often only the corrected function.
HELPER_BUG = src(
    CLEAR
    + """
def place(i):
    offsets = [0.0, 2.0]
    return (offsets[i], 0.0, 0.0)


for i in range(3):
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=place(i))
    cube = bpy.context.active_object
    cube.name = f"Cube{i}"
    cube.data.materials.append(mat)
"""
)

CONSTANT_UNDEFINED = src(
    CLEAR
    + """
CUBE_SIZE = 1.0

for i in range(3):
    bpy.ops.mesh.primitive_cube_add(size=CUBE_SIZE, location=(i * SPACING, 0.0, 0.0))
    bpy.context.active_object.data.materials.append(mat)
"""
)


def failed_run(kind: str, message: str, line: int) -> RunReport:
    """The report of a sandboxed run that raised `kind: message` at `line` of the script."""
    return RunReport(status="error", backend="bpy-module", sandbox="bwrap", exception=ExceptionInfo(type=kind, message=message, line=line))


# Three cubes and a camera looking away from them (the local model's star and candy jar: guessed Euler angles): runs, renders blank.
LOOKING_AWAY = (
    THREE_CUBES
    + """
camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
bpy.context.scene.collection.objects.link(camera)
camera.location = (2.0, -8.0, 1.0)
camera.rotation_euler = (1.5708, 0.0, 3.1416)
bpy.context.scene.camera = camera
"""
)

# A red ball that should bounce and does not move: it runs, and lacks the keyframes a bounce asks for.
STILL_BALL = src(
    CLEAR
    + """
bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, location=(0.0, 0.0, 0.5))
ball = bpy.context.active_object
ball.name = "Ball"
ball.data.materials.append(mat)
"""
)

# The same ball keyed up and down over 24 frames.
BOUNCING_BALL = STILL_BALL + src(
    """
for frame, z in ((1, 0.5), (12, 2.0), (24, 0.5)):
    ball.location.z = z
    ball.keyframe_insert(data_path="location", index=2, frame=frame)
"""
)
