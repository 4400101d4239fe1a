"""A shelf asset factory in the style of procedural asset generators: a class samples parameters, then builds."""

import random

import bmesh
import bpy
from mathutils import Vector


class ShelfFactory:
    """Samples a shelf's dimensions from a seed and builds its boards as one mesh."""

    def __init__(self, seed, coarse=False):
        self.rng = random.Random(seed)
        self.coarse = coarse
        self.params = self.sample_parameters()

    def sample_parameters(self):
        return {
            "width": self.rng.uniform(0.8, 1.6),
            "depth": self.rng.uniform(0.25, 0.4),
            "height": self.rng.uniform(1.2, 2.0),
            "shelves": self.rng.randint(3, 6),
            "thickness": self.rng.uniform(0.02, 0.04),
        }

    def board(self, bm, center, size):
        geom = bmesh.ops.create_cube(bm, size=1.0)
        bmesh.ops.scale(bm, vec=size, verts=geom["verts"])
        bmesh.ops.translate(bm, vec=center, verts=geom["verts"])

    def create_asset(self):
        p = self.params
        bm = bmesh.new()
        t = p["thickness"]
        for side in (-1, 1):
            self.board(bm, Vector((side * (p["width"] / 2 - t / 2), 0, p["height"] / 2)), Vector((t, p["depth"], p["height"])))
        for i in range(p["shelves"]):
            z = t / 2 + i * (p["height"] - t) / (p["shelves"] - 1)
            self.board(bm, Vector((0, 0, z)), Vector((p["width"], p["depth"], t)))
        self.board(bm, Vector((0, p["depth"] / 2 - 0.005, p["height"] / 2)), Vector((p["width"], 0.01, p["height"])))
        bmesh.ops.remove_doubles(bm, verts=bm.verts, dist=1e-5)
        mesh = bpy.data.meshes.new("shelf")
        bm.to_mesh(mesh)
        bm.free()
        obj = bpy.data.objects.new("shelf", mesh)
        bpy.context.scene.collection.objects.link(obj)
        if not self.coarse:
            bevel = obj.modifiers.new("bevel", "BEVEL")
            bevel.width = t * 0.2
            bevel.segments = 2
            weld = obj.modifiers.new("weld", "WELD")
            weld.merge_threshold = 1e-4
        return obj

    def finalize_assets(self, assets):
        for asset in assets:
            apply_wear(asset, self.rng.uniform(0, 1))


shelves = [ShelfFactory(seed).create_asset() for seed in range(3)]
for i, shelf in enumerate(shelves):
    shelf.location.x = i * 2.0
print("shelves:", [len(s.data.polygons) for s in shelves])
