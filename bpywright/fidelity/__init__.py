"""Fidelity: how closely the scene a script builds matches a reference scene, measured in Blender, compared on the host."""
