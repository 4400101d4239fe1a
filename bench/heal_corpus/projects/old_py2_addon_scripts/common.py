import bpy


def names_by_type():
    found = {}
    for ob in bpy.data.objects:
        found.setdefault(ob.type, []).append(ob.name)
    for kind, names in found.iteritems():
        print(kind, len(names))
    return found
