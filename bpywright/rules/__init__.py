"""The API-drift rule pack: detectors and libcst autofixes keyed to Blender versions, and the healer that applies them."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from ..harness.diagnostics import Diagnostic

Rule = Callable[[str], list[Diagnostic]]


def rule_pack(version: str = "4.5", index_root: Path | None = None) -> list[Rule]:
    """Static rules for scripts targeting `version`: each takes source text, returns diagnostics.

    The node-socket check and the drift rules always run; api-check joins when index_root (the caller's
    settings.index_dir) holds that version's symbol index. Without index_root there is no api-check: nothing here
    reads the environment.
    """
    from .pack import drift_check
    from .sockets import check_node_sockets

    rules: list[Rule] = [functools.partial(check_node_sockets, version=version), functools.partial(drift_check, version=version)]
    api = _api_check_rule(version, index_root) if index_root is not None else None
    if api is not None:
        rules.append(api)
    return rules


def _api_check_rule(version: str, root: Path) -> Rule | None:
    from ..ingest.apicheck import check_source, load_names

    if not (root / version / "symbols.jsonl").is_file():
        return None
    api = load_names(root / version)
    others = {d.name: load_names(d) for d in sorted(root.iterdir()) if d.name != version and (d / "symbols.jsonl").is_file()}
    return functools.partial(check_source, api=api, others=others)
