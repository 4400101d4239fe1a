import os
import sys
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))

import bmesh
import mylib

bm = bmesh.new()
bmesh.ops.create_icosphere(bm, subdivisions=3, diameter=1.0)
mylib.jitter(bm, 0.15, seed=5)
mylib.link_new("Rock", bm)
