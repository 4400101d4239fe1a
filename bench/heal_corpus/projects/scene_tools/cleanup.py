import bpy
import utils

selected = utils.select_layer(0)
print(len(selected), "objects on layer 1")
