"""What each Blender runtime has and lacks (runtime files, stubs, symbol index), as doctor lines with the fixing command."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .models import Runtime
from .pythons import WHEEL_PYTHON, find_pythons
from .registry import RuntimeRegistry

LTS_TARGETS = ("4.5", "5.2")  # the versions `make setup` provides where it can (4.5 bundled, 5.2 with a CPython 3.13)


@dataclass
class RuntimeHealth:
    """One doctor line: a runtime (or a missing LTS target) and what it lacks."""

    version: str
    state: Literal["ok", "warn", "fail"]
    detail: str
    fix: str = ""


def _lacks(runtime: Runtime, settings) -> list[tuple[str, str]]:
    from ..harness.stubs import StubsError, typings_dir

    out = []
    try:
        typings_dir(runtime.version)
    except StubsError:
        out.append(("no stubs (lint uses uncorrected ones)", f"bpywright typings build --blender-version {runtime.version}"))
    if not (settings.index_for(runtime.version) / "symbols.jsonl").is_file():
        out.append(("no symbol index", f"bpywright ingest --blender-version {runtime.version}"))
    return out


def runtime_health(settings) -> list[RuntimeHealth]:
    """A line per registered runtime, and one per LTS target that is not installed (with what installing it needs)."""
    registry = RuntimeRegistry.for_settings(settings)
    lines: list[RuntimeHealth] = []
    seen = set()
    for item in registry.list():
        if not isinstance(item, Runtime):
            lines.append(RuntimeHealth(item[0], "fail", item[1], f"bpywright blender add {item[0]} --force"))
            continue
        seen.add(item.version)
        where = item.blender if item.kind == "executable" else item.python
        default = " (default target)" if item.version == settings.blender_version else ""
        if item.missing():
            lines.append(
                RuntimeHealth(item.version, "fail", f"{item.kind}: {item.missing()}", f"bpywright blender add {item.version} --force")
            )
            continue
        lacks = _lacks(item, settings)
        detail = f"Blender {item.blender_version} ({item.kind}) at {where}{default}"
        if lacks:
            lines.append(
                RuntimeHealth(item.version, "warn", f"{detail}; " + "; ".join(w for w, _ in lacks), " && ".join(f"`{c}`" for _, c in lacks))
            )
        else:
            lines.append(RuntimeHealth(item.version, "ok", f"{detail}; stubs and index built"))
    pythons = None
    for version in LTS_TARGETS:
        if version in seen:
            continue
        pythons = find_pythons() if pythons is None else pythons
        wanted = WHEEL_PYTHON[version]
        if wanted in pythons:
            lines.append(
                RuntimeHealth(
                    version, "warn", f"not installed (CPython {wanted} found at {pythons[wanted]})", f"`bpywright blender add {version}`"
                )
            )
        else:
            lines.append(
                RuntimeHealth(
                    version,
                    "warn",
                    f"not installed: its wheel needs CPython {wanted}, none found",
                    f"`pyenv install {wanted}` then `bpywright blender add {version}`, or `bpywright blender add /path/to/blender`",
                )
            )
    return lines
