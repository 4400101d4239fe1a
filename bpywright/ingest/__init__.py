"""Ingest of the Blender API into a version-matched symbol index (inventory, introspect, merge, search)."""
