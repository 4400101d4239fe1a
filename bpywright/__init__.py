"""bpywright: Blender Python scripts that are known to work (linted, run headless, rendered, healed)."""

__version__ = "0.2.0"
