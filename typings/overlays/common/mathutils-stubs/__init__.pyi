# Hand-written overlay for mathutils (all Blender versions); format: typings/README.md.
import collections.abc

class Vector:
    # Measured in Blender 4.5: a 3D cross product is a Vector (only 2D vectors give a float); the stubs'
    # `float | Vector` made every `a.cross(b).normalized()` an error.
    def cross(self, other: collections.abc.Sequence[float] | Vector) -> Vector:
        """Return the cross product of this vector and another.

        :param other: The other vector to perform the cross product with.
        :return: The cross product as a vector or a float when 2D vectors are used.
        """
