"""A tree from a parameter 'genome': a bmesh trunk, recursive branches as curves, leaves as instanced planes."""

import math
import random
from dataclasses import dataclass, field

import bmesh
import bpy
from mathutils import Matrix, Vector


@dataclass
class TreeParams:
    trunk_height: float = 3.0
    trunk_radius: float = 0.18
    levels: int = 3
    branches: int = 4
    spread: float = 0.6
    taper: float = 0.65
    seed: int = 0
    leaf_sizes: list = field(default_factory=lambda: [0.12, 0.18])


def random_params(seed):
    rng = random.Random(seed)
    return TreeParams(trunk_height=rng.uniform(2.5, 4.0), branches=rng.randint(3, 5), spread=rng.uniform(0.4, 0.8), seed=seed)


def params_from_genome(genome):
    """Alternative entry point used by the evolutionary search (not run here)."""
    params = sample_genome(genome)
    set_geomod_inputs(params, genome)
    return params


def trunk_mesh(params):
    bm = bmesh.new()
    bmesh.ops.create_cone(
        bm, cap_ends=True, segments=12, radius1=params.trunk_radius, radius2=params.trunk_radius * params.taper, depth=params.trunk_height
    )
    bmesh.ops.translate(bm, verts=bm.verts, vec=(0.0, 0.0, params.trunk_height / 2))
    mesh = bpy.data.meshes.new("trunk")
    bm.to_mesh(mesh)
    bm.free()
    return mesh


def branch_curve(curve, start, direction, length, level, params, rng):
    if level == 0:
        return []
    end = start + direction.normalized() * length
    spline = curve.splines.new("POLY")
    spline.points.add(1)
    spline.points[0].co = (*start, 1.0)
    spline.points[1].co = (*end, 1.0)
    spline.points[0].radius = 1.0
    spline.points[1].radius = params.taper
    tips = [end]
    for _ in range(params.branches - 1):
        turn = Matrix.Rotation(rng.uniform(-params.spread, params.spread), 3, "X") @ Matrix.Rotation(rng.uniform(0, 2 * math.pi), 3, "Z")
        tips += branch_curve(curve, end, turn @ direction, length * params.taper, level - 1, params, rng)
    return tips


def build_tree(params):
    rng = random.Random(params.seed)
    trunk = bpy.data.objects.new("trunk", trunk_mesh(params))
    bpy.context.scene.collection.objects.link(trunk)
    curve = bpy.data.curves.new("branches", type="CURVE")
    curve.dimensions = "3D"
    curve.bevel_depth = params.trunk_radius * 0.4
    curve.use_fill_caps = True
    top = Vector((0.0, 0.0, params.trunk_height))
    tips = branch_curve(curve, top, Vector((0.2, 0.0, 1.0)), 1.2, params.levels, params, rng)
    branches = bpy.data.objects.new("branches", curve)
    bpy.context.scene.collection.objects.link(branches)
    leaf_mesh = bpy.data.meshes.new("leaf")
    size = params.leaf_sizes[0]
    leaf_mesh.from_pydata([(-size, 0, 0), (size, 0, 0), (0, size * 2, 0)], [], [(0, 1, 2)])
    for i, tip in enumerate(tips):
        leaf = bpy.data.objects.new(f"leaf_{i}", leaf_mesh)
        leaf.location = tip
        leaf.rotation_euler = (rng.uniform(0, 3), rng.uniform(0, 3), rng.uniform(0, 3))
        bpy.context.scene.collection.objects.link(leaf)
    return trunk, branches, len(tips)


trunk, branches, leaves = build_tree(random_params(5))
print("tree:", len(trunk.data.vertices), "trunk vertices,", len(branches.data.splines), "branches,", leaves, "leaves")
