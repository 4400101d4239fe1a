"""The "write a Blender script" prompt: the working method an assistant should follow with bpywright's tools."""

from __future__ import annotations

INSTRUCTIONS = (
    "bpywright runs Blender Python (bpy) scripts headless in a sandbox on a pinned Blender version, lints them against that "
    "version's API, fixes old API automatically and returns the render as an image. Never answer with a bpy script you have "
    "not run with run_script."
)

METHOD = """Write a Blender Python (bpy) script for this task: {task}

Target: Blender {version}, run headless (no UI, no viewport, no `bpy.context.area`). Work like this:
1. find_exemplars with the task's words: reuse what verified scripts for similar prompts do.
2. search_api for each thing you need (an operator, a modifier, a material node) and get_symbol for exact signatures,
   enum values and whether a property is read-only. Do not rely on memory: the API changes between versions.
3. Write one complete script: import bpy, build the scene from the factory startup scene (delete the default cube if it
   is in the way), set materials and a camera/light if the look matters (the harness adds them when missing).
4. lint_script it and fix every blocking finding.
5. run_script it with render=true and look at the attached render: does it show what the task asks for?
6. When it fails, heal_script it (old or misremembered API is fixed by rules); if that does not fix it, change the script
   yourself using the exception and its line, then run_script again.
7. Answer only with a script that ran (status ok), and say what the render shows.
"""


def method(task: str, version: str) -> str:
    """The prompt text for one task and Blender version."""
    return METHOD.format(task=task.strip() or "(describe the scene)", version=version)
