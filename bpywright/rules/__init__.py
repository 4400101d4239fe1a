"""The API-drift rule pack: detectors and CST autofixes keyed to Blender versions."""
