import math
import textutil

for i in range(5):
    textutil.add_text("step %d" % i, (math.cos(i), math.sin(i), i * 0.5))
