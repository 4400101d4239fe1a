"""Blender runtimes by version: the bundled 4.5 wheel, bpy wheels of other versions in their own venvs, Blender executables."""

from ..versions import VersionError, major_minor
from .models import DEFAULT_VERSION, Runtime
from .registry import RuntimeInstallError, RuntimeMissing, RuntimeRegistry

__all__ = ["DEFAULT_VERSION", "Runtime", "RuntimeInstallError", "RuntimeMissing", "RuntimeRegistry", "VersionError", "major_minor"]
