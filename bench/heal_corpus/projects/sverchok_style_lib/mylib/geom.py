import bmesh
from mathutils import Matrix, Vector


def jitter(bm, amount, seed=0):
    import random
    random.seed(seed)
    for i in range(len(bm.verts)):
        v = bm.verts[i]
        v.co += Vector((random.random(), random.random(), random.random())) * amount


def transform(bm, mat):
    for v in bm.verts:
        v.co = mat * v.co
