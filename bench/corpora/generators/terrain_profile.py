"""A terrain strip whose height profile is interpolated with scipy and extrapolated past the control points."""

import bpy
import numpy as np
from scipy.interpolate import interp1d


def height_profile(seed, n_controls=6):
    rng = np.random.default_rng(seed)
    xs = np.linspace(0.0, 8.0, n_controls)
    hs = rng.uniform(0.0, 1.5, n_controls)
    return interp1d(xs, hs, kind="quadratic", fill_value="extrapolate", bounds_error=False)


def grid_mesh(name, profile, nx=60, ny=12, width=3.0):
    xs = np.linspace(-1.0, 9.0, nx)
    ys = np.linspace(-width / 2, width / 2, ny)
    verts = [(float(x), float(y), float(profile(x)) * (1.0 - abs(y) / width)) for y in ys for x in xs]
    faces = [(j * nx + i, j * nx + i + 1, (j + 1) * nx + i + 1, (j + 1) * nx + i) for j in range(ny - 1) for i in range(nx - 1)]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    return mesh


def add_displacement(obj, strength=0.2):
    texture = bpy.data.textures.new("terrain_noise", type="CLOUDS")
    texture.noise_scale = 0.6
    texture.noise_depth = 3
    modifier = obj.modifiers.new("displace", "DISPLACE")
    modifier.texture = texture
    modifier.strength = strength
    modifier.texture_coords = "LOCAL"
    return modifier


profile = height_profile(4)
terrain = bpy.data.objects.new("terrain", grid_mesh("terrain", profile))
bpy.context.scene.collection.objects.link(terrain)
add_displacement(terrain)
subsurf = terrain.modifiers.new("smooth", "SUBSURF")
subsurf.levels = 1
mat = bpy.data.materials.new("ground")
mat.use_nodes = True
mat.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (0.2, 0.35, 0.12, 1.0)
terrain.data.materials.append(mat)
heights = [v.co.z for v in terrain.data.vertices]
print("terrain height range:", round(min(heights), 3), round(max(heights), 3))
