"""Render engine ids: BLENDER_EEVEE ↔ BLENDER_EEVEE_NEXT (4.2–4.5 vs 5.0), Blender Internal/Game removed in 2.80.

A script's own `bpy.ops.render.render(...)` is never a rule's business: it is what the user asked for. The harness runs
it at validation size while it validates (harness/blender/execute.py: `small_renders`)."""

from __future__ import annotations

import libcst as cst

from ...versions import version_key
from ..base import DriftRule, RuleTransformer
from ..fragments import string_value


def eevee_id(target: str) -> str:
    """EEVEE's engine id in the target version."""
    return "BLENDER_EEVEE_NEXT" if (4, 2) <= version_key(target) < (5, 0) else "BLENDER_EEVEE"


class _EngineId(RuleTransformer):
    """Replaces engine-id string literals that the target version does not know."""

    OLD: tuple[str, ...] = ()

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
        old = string_value(original)
        if old not in self.OLD:
            return updated
        new = eevee_id(self.scope.target)
        if self.report(original, f'render engine "{old}" is "{new}" in Blender {self.scope.target}', f"'{new}'"):
            return cst.SimpleString(original.prefix + original.quote + new + original.quote)
        return updated


class _EeveeNext(_EngineId):
    OLD = ("BLENDER_EEVEE",)


class _EeveeBack(_EngineId):
    OLD = ("BLENDER_EEVEE_NEXT",)


class _Internal(_EngineId):
    OLD = ("BLENDER_RENDER", "BLENDER_GAME")


RULES = (
    DriftRule(
        "eevee-next",
        "BLENDER_EEVEE → BLENDER_EEVEE_NEXT (4.2 to 4.5)",
        "4.2",
        "4.2",
        _EeveeNext,
        (r'enum "BLENDER_EEVEE" not found',),
        fails_until="5.0",
        needles=("BLENDER_EEVEE",),
        example=("scene.render.engine = 'BLENDER_EEVEE'", "scene.render.engine = 'BLENDER_EEVEE_NEXT'"),
    ),
    DriftRule(
        "eevee-id-5",
        "BLENDER_EEVEE_NEXT → BLENDER_EEVEE again (5.0)",
        "5.0",
        "2.80",
        _EeveeBack,
        (r'enum "BLENDER_EEVEE_NEXT" not found',),
        needles=("BLENDER_EEVEE_NEXT",),
        example=("scene.render.engine = 'BLENDER_EEVEE_NEXT'", "scene.render.engine = 'BLENDER_EEVEE'"),
    ),
    DriftRule(
        "engine-removed",
        "Blender Internal/Game engines removed in 2.80 → EEVEE",
        "2.80",
        "2.80",
        _Internal,
        (r'enum "BLENDER_(RENDER|GAME)" not found',),
        needles=("BLENDER_RENDER", "BLENDER_GAME"),
        example=("scene.render.engine = 'BLENDER_RENDER'", "scene.render.engine = 'BLENDER_EEVEE'"),
    ),
)
