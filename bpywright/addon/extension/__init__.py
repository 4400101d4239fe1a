"""bpywright for Blender: generate, check and heal bpy scripts through the bpywright service; run only what passed.

Runs inside Blender (4.2–5.2): standard library and bpy only. The service does the work (lint against this Blender's
stubs, a sandboxed run and a render on this Blender version) after proving it holds the token; the add-on runs a
script in the open scene only when the exact text (its SHA-256) passed there for this Blender version, in this
session, and it can vouch for what the script does here: rebuilt byte for byte from its part plan, or screened with
nothing flagged, or its flagged code confirmed by the user.
"""

from __future__ import annotations

import bpy

from . import operators, panels, preferences, session

CLASSES = (preferences.BPYWRIGHT_AP_preferences, *operators.CLASSES, *panels.CLASSES)


def register() -> None:
    """Register the preferences, operators, panels and the prompt box (a WindowManager property: not saved in .blend)."""
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.WindowManager.bpywright_prompt = bpy.props.StringProperty(  # type: ignore[attr-defined]
        name="Prompt", description="What to build, e.g. 'a low-poly pine tree on snowy ground'", default=""
    )
    session.CURRENT[:] = [session.Session()]
    preferences.forget_stored_token(bpy.context)


def unregister() -> None:
    """Undo register(); a call in flight finishes on its thread and is dropped."""
    if bpy.app.timers.is_registered(operators.tick):
        bpy.app.timers.unregister(operators.tick)
    session.CURRENT.clear()
    del bpy.types.WindowManager.bpywright_prompt  # type: ignore[attr-defined]
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
