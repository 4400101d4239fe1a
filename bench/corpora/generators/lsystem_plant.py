"""An L-system plant: rewrite an axiom, walk it with a turtle, build edges and give them thickness with a skin modifier."""

import math
import random

import bpy
from mathutils import Matrix, Vector

RULES = {"F": ["FF-[-F+F]+[+F-F]", "F[+F]F[-F]F"], "X": ["F-[[X]+X]+F[+FX]-X"]}


def rewrite(axiom, depth, rng):
    text = axiom
    for _ in range(depth):
        text = "".join(rng.choice(RULES[c]) if c in RULES else c for c in text)
    return text


def turtle(text, step=0.15, angle=math.radians(25)):
    position, heading = Vector((0, 0, 0)), Vector((0, 0, 1))
    stack, verts, edges = [], [(0.0, 0.0, 0.0)], []
    current = 0
    for c in text:
        if c == "F":
            position = position + heading * step
            verts.append(tuple(position))
            edges.append((current, len(verts) - 1))
            current = len(verts) - 1
        elif c in "+-":
            heading = Matrix.Rotation(angle if c == "+" else -angle, 3, "Y") @ heading
            heading = Matrix.Rotation(0.4, 3, "Z") @ heading
        elif c == "[":
            stack.append((position.copy(), heading.copy(), current))
        elif c == "]":
            position, heading, current = stack.pop()
    return verts, edges


def plant(seed, depth=3):
    rng = random.Random(seed)
    verts, edges = turtle(rewrite("X", depth, rng))
    mesh = bpy.data.meshes.new(f"plant_{seed}")
    mesh.from_pydata(verts, edges, [])
    obj = bpy.data.objects.new(f"plant_{seed}", mesh)
    bpy.context.scene.collection.objects.link(obj)
    skin = obj.modifiers.new("skin", "SKIN")
    skin.use_smooth_shade = True
    for vertex in mesh.skin_vertices[0].data:
        vertex.radius = (0.01, 0.01)
    obj.modifiers.new("subsurf", "SUBSURF").levels = 1
    return obj


plants = [plant(s) for s in range(2)]
for i, p in enumerate(plants):
    p.location.x = i * 2
print("plant edges:", [len(p.data.edges) for p in plants])
