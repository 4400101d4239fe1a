import bpy


def add_text(body, location):
    bpy.ops.object.text_add(location=location)
    ob = bpy.context.active_object
    ob.data.body = body
    print "added", body
    return ob
