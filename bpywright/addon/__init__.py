"""The Blender extension (extension/, runs inside Blender) and its builder (`bpywright addon build` → dist/*.zip)."""
