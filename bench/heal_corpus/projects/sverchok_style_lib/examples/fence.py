import os
import sys
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))

import bmesh
from mathutils import Matrix
import mylib

for i in range(10):
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    mylib.transform(bm, Matrix.Translation((i * 1.2, 0, 0.5)) * Matrix.Scale(0.2, 4))
    mylib.link_new("Post%d" % i, bm)
