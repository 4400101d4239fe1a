# Pasted from the Python console: uses the console's C and D shorthands.

C.scene.frame_end = 120
cube = D.objects["Cube"]
cube.location.z = 1.0
for ob in D.objects:
    print(ob.name, ob.type)
print(C.scene.frame_end)
