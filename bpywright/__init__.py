"""bpywright: Blender Python scripts that are known to work (linted, run headless, rendered, healed)."""

__version__ = "0.1.0"
