"""The API-drift rule pack: detectors (and, later, CST autofixes) keyed to Blender versions."""

from __future__ import annotations

import functools
from collections.abc import Callable

from ..harness.diagnostics import Diagnostic

Rule = Callable[[str], list[Diagnostic]]


def rule_pack(version: str = "4.5") -> list[Rule]:
    """Static rules for scripts targeting `version`: each takes source text, returns diagnostics."""
    from .sockets import check_node_sockets

    return [functools.partial(check_node_sockets, version=version)]
