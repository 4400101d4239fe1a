"""Runtime: one installed Blender a script can target (the bundled wheel, a wheel in its own venv, or an executable)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from ..harness.backend import Backend
    from ..harness.options import RunOptions

RuntimeKind = Literal["bundled", "wheel", "executable"]
DEFAULT_VERSION = "4.5"  # the LTS whose wheel is pinned in the project's own venv: the default never depends on the machine


class Runtime(BaseModel):
    """A Blender of one version: where its bpy module or binary lives, and what it reported when probed."""

    version: str = Field(description="MAJOR.MINOR, the key targets use (e.g. '5.2').")
    blender_version: str = Field(description="What the runtime reported, e.g. '5.2.3 LTS'.")
    kind: RuntimeKind
    python: Path | None = Field(None, description="Interpreter that imports this bpy (bundled, wheel).")
    blender: Path | None = Field(None, description="Blender executable (executable runtimes).")
    root: Path | None = Field(None, description="The data-dir folder of a wheel runtime (its venv lives there).")
    added_at: str | None = None

    def missing(self) -> str:
        """Why this runtime cannot start ('' when its files are in place)."""
        path = self.blender if self.kind == "executable" else self.python
        if path is None:
            return "no interpreter or executable recorded"
        if not Path(path).exists():
            return f"{path} does not exist"
        return ""

    def backend(self) -> Backend:
        """The harness backend that starts this Blender."""
        from ..harness.backend import Backend

        return Backend.resolve(self.blender, None if self.kind == "bundled" else self.python)

    def run_options(self, base: RunOptions | None = None, **changes) -> RunOptions:
        """RunOptions (base's settings, or the defaults) that run scripts on this runtime."""
        from ..harness.options import RunOptions

        target = {"blender": self.blender, "python": None if self.kind == "bundled" else self.python}
        return (base or RunOptions()).model_copy(update={**changes, **target})

    def describe(self) -> str:
        """One line for people: version, kind and location."""
        where = self.blender if self.kind == "executable" else self.python
        return f"{self.version:<5} {self.blender_version:<12} {self.kind:<10} {where}"
