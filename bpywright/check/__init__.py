"""`bpywright check`: smoke-test folders of bpy scripts for CI (JUnit, renders, contact sheet, baselines)."""
