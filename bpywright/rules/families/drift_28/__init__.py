"""Family drift_28: what Blender 2.80 changed (scene objects and collections, selection, layers, lamps → lights)."""
