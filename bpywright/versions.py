"""Blender version strings: the MAJOR.MINOR key that runtimes, stubs, indexes, rules and the store are keyed by."""

from __future__ import annotations

import re

# '4.5', '4.5.3', '4.5.3 LTS', 'Blender 4.4.3', '5.0.0 Release Candidate'; never a path.
_VERSION = re.compile(r"^\s*(?:Blender\s+)?(\d{1,2})\.(\d{1,2})(?:\.\d{1,3})?(?:\s+\w+)*\s*$")


class VersionError(ValueError):
    """A Blender version that cannot be parsed; the message shows the accepted form."""


def major_minor(text: str | None) -> str:
    """'5.2' from '5.2', '5.2.3' or '5.2.3 LTS'; anything else (paths, '../x', '', None) raises VersionError."""
    match = _VERSION.match(text or "")
    if match is None:
        raise VersionError(f"not a Blender version: {text!r} (use MAJOR.MINOR, e.g. 4.5 or 5.2)")
    return f"{int(match.group(1))}.{int(match.group(2))}"


def version_key(text: str) -> tuple[int, int]:
    """(major, minor) of '4.5', '4.5.15' or '4.5.15 LTS', for comparing versions; lenient (a missing minor is 0)."""
    parts = (text.split() or ["0"])[0].split(".")
    return int(parts[0]), int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def version_tuple(text: str) -> tuple[int, int]:
    """(5, 2) of '5.2.3 LTS', for ordering."""
    return version_key(major_minor(text))
