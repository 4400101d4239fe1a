"""Vines and ribbons from numpy-sampled curves: bevelled 3D splines and a filled 2D outline."""

import math

import bpy
import numpy as np


def helix_points(turns, radius, height, n, rng):
    t = np.linspace(0.0, turns * 2 * math.pi, n)
    jitter = rng.normal(0.0, 0.02, (n, 3))
    pts = np.stack([radius * np.cos(t), radius * np.sin(t), np.linspace(0.0, height, n)], axis=1)
    return pts + jitter


def make_curve_object(name, points, bevel=0.02, dims="3D"):
    curve = bpy.data.curves.new(name, type="CURVE")
    curve.dimensions = dims
    spline = curve.splines.new("POLY")
    spline.points.add(len(points) - 1)
    for point, co in zip(spline.points, points):
        point.co = (float(co[0]), float(co[1]), float(co[2]), 1.0)
    curve.bevel_depth = bevel
    curve.bevel_resolution = 3
    obj = bpy.data.objects.new(name, curve)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def vine(seed):
    rng = np.random.default_rng(seed)
    obj = make_curve_object(f"vine_{seed}", helix_points(3, 0.4, 2.0, 64, rng))
    obj.data.fill_mode = "FULL"
    obj.data.use_fill_caps = True
    obj.location.x = seed * 1.5
    return obj


def leaf_outline(name, width=0.4, length=1.0):
    curve = bpy.data.curves.new(name, type="CURVE")
    curve.dimensions = "2D"
    curve.fill_mode = "BOTH"
    spline = curve.splines.new("BEZIER")
    spline.bezier_points.add(3)
    for point, (x, y) in zip(spline.bezier_points, [(0, 0), (width, length / 2), (0, length), (-width, length / 2)]):
        point.co = (x, y, 0.0)
        point.handle_left_type = point.handle_right_type = "AUTO"
    spline.use_cyclic_u = True
    curve.extrude = 0.01
    obj = bpy.data.objects.new(name, curve)
    bpy.context.scene.collection.objects.link(obj)
    return obj


vines = [vine(s) for s in range(3)]
leaf = leaf_outline("leaf")
leaf.data.fill_mode = "FRONT"
leaf.data.fill_mode = "BOTH"
mesh = bpy.data.meshes.new_from_object(leaf.evaluated_get(bpy.context.evaluated_depsgraph_get()))
print("vines:", len(vines), "leaf faces:", len(mesh.polygons))
