# Blender 2.79 tutorial style: a 5x5 grid of cubes with alternating heights, selected and joined.
import bpy

scene = bpy.context.scene
cubes = []
for x in range(5):
    for y in range(5):
        bpy.ops.mesh.primitive_cube_add(radius=0.4, location=(x, y, 0))
        cube = bpy.context.object
        cube.scale.z = 1 + (x + y) % 3
        cubes.append(cube)

bpy.ops.object.select_all(action="DESELECT")
for cube in cubes:
    cube.select = True
scene.objects.active = cubes[0]
bpy.ops.object.join()
print("joined into", bpy.context.object.name)
