from mathutils import Matrix, Vector


def local_to_world(ob, co):
    return ob.matrix_world * Vector(co)


def rotate_about_z(angle, v):
    return Matrix.Rotation(angle, 4, 'Z') * Vector(v)
