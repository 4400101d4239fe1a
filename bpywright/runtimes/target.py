"""The target version of a request: the one asked for, else the configured default, and the runtime that runs it."""

from __future__ import annotations

from ..versions import major_minor
from .models import Runtime
from .registry import RuntimeRegistry


def target_version(requested: str | None, settings) -> str:
    """MAJOR.MINOR of the version asked for, else of settings.blender_version (VersionError when malformed)."""
    return major_minor(requested or settings.blender_version)


def runtime_for(requested: str | None, settings) -> Runtime:
    """The installed runtime of the target version; RuntimeMissing names the command that installs it."""
    return RuntimeRegistry.for_settings(settings).get(target_version(requested, settings))
