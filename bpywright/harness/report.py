"""RunReport: what happened when a script ran in headless Blender (the harness's one output contract)."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from .. import pyast
from .diagnostics import LintReport

ENTRY_SCHEMA = Path(__file__).with_name("blender") / "schema.py"


def entry_schema_version(path: Path = ENTRY_SCHEMA) -> int:
    """The report's schema version as the in-Blender entry writes it, read from its module by path (never imported)."""
    for node in pyast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "SCHEMA_VERSION" for t in node.targets):
            return int(ast.literal_eval(node.value))
    raise RuntimeError(f"{path} defines no SCHEMA_VERSION: the run report's version is set there, for the entry and the host")


SCHEMA_VERSION = entry_schema_version()
SCHEMA_PATH = Path(__file__).with_name("run_report.schema.json")

Status = Literal["ok", "error", "timeout", "crash", "rejected"]
FAILED: frozenset[str] = frozenset({"error", "timeout", "crash", "rejected"})


class ExceptionInfo(BaseModel):
    """A Python exception raised by the script (or by the render it asked for)."""

    type: str
    message: str
    traceback: str = ""
    line: int | None = Field(None, description="Line in the user's script, when the traceback reaches it.")


class Timings(BaseModel):
    """Seconds spent per phase; startup is everything outside reset/script/render (process start, IPC)."""

    startup: float = 0.0
    reset: float = 0.0
    script: float = 0.0
    render: float = 0.0
    total: float = 0.0


class BoundingBox(BaseModel):
    """World-space axis-aligned bounds of the visible geometry."""

    min: tuple[float, float, float]
    max: tuple[float, float, float]


class ModifierSummary(BaseModel):
    """One modifier of an object: its type and its simple settings (by RNA identifier)."""

    name: str
    type: str  # Blender's enum: "SUBSURF", "ARRAY", "BEVEL", "SOLIDIFY", "MIRROR", "SCREW", "NODES", ...
    settings: dict[str, float | int | bool | str | list[float]] = {}


class FCurveSummary(BaseModel):
    """One animated channel: what it animates, how many keyframes, over which frames and values."""

    owner: str  # "object", "data", "material:<name>", "shape_keys", "world", "scene"
    data_path: str  # "location", "rotation_euler", "scale", "energy", ...
    index: int  # array index (0 = x)
    keyframes: int
    frame_min: float | None
    frame_max: float | None
    value_min: float | None
    value_max: float | None


class MaterialSummary(BaseModel):
    """A material a scene object uses, read from the Principled BSDF (or Emission / Glass BSDF) feeding its output."""

    name: str
    use_nodes: bool
    users: int  # objects in the scene using it (slots)
    base_color: tuple[float, float, float, float] | None  # linear RGB
    metallic: float | None
    roughness: float | None
    transmission: float | None
    emission_color: tuple[float, float, float, float] | None
    emission_strength: float | None
    alpha: float | None
    ior: float | None
    linked: list[str] = []  # Principled inputs fed by a link (a texture or node drives them, not the default value)
    node_types: list[str] = []  # the type of every node in its tree, e.g. "BSDF_PRINCIPLED", "EMISSION", "TEX_NOISE"


class LightSummary(BaseModel):
    """A light object's data."""

    type: str  # POINT, SUN, SPOT, AREA
    energy: float
    color: tuple[float, float, float]


class CameraSummary(BaseModel):
    """A camera object's data."""

    type: str  # PERSP, ORTHO, PANO
    lens: float  # focal length, mm


class CurveSummary(BaseModel):
    """A curve object's data."""

    dimensions: str  # "2D" / "3D"
    splines: int
    points: int  # control points over all splines
    bevel_depth: float
    extrude: float
    bevel_object: bool
    cyclic: bool  # any spline cyclic


class ObjectSummary(BaseModel):
    """One object of the scene after the script ran (counts are of the evaluated geometry)."""

    name: str
    type: str
    vertices: int | None = None
    faces: int | None = None
    materials: list[str] = []
    modifiers: list[str] = []
    visible: bool | None = None  # geometry only: shown in the viewport and in renders
    bbox: BoundingBox | None = None  # geometry only: world-space bounds of the evaluated object
    modifier_settings: list[ModifierSummary] = []  # `modifiers` stays as it is (types), for old readers
    location: tuple[float, float, float] | None = None
    rotation: tuple[float, float, float] | None = None  # euler XYZ, radians
    scale: tuple[float, float, float] | None = None
    parent: str | None = None
    text: str | None = None  # FONT objects: the body
    text_extrude: float | None = None
    curve: CurveSummary | None = None
    light: LightSummary | None = None
    camera: CameraSummary | None = None
    fcurves: list[FCurveSummary] = []  # the object's own action, its data's, its shape keys'
    instances: int = 0  # instances this object emits into the depsgraph (particles, geometry nodes, instancing)


class SceneSummary(BaseModel):
    """What the script built."""

    object_count: int
    objects: list[ObjectSummary]
    bbox: BoundingBox | None
    camera: bool
    light: bool
    frame_range: tuple[int, int] | None = None
    materials: list[MaterialSummary] = []  # every material used by a scene object (cap 64)
    material_fcurves: list[FCurveSummary] = []  # keyframes on materials' node trees (owner "material:<name>")
    instance_count: int = 0  # total instances in the evaluated depsgraph
    active_camera: str | None = None
    world_color: tuple[float, float, float] | None = None  # Background node colour (or world.color)
    world_strength: float | None = None
    fps: int | None = None


class RenderInfo(BaseModel):
    """The PNG rendered after the script, and how much of it shows something."""

    path: str
    width: int
    height: int
    engine: str
    nonblank_fraction: float | None = Field(None, description="Share of pixels that differ from the background.")


class ExitInfo(BaseModel):
    """How the Blender process (or worker) ended; signal is a name such as SIGSEGV."""

    returncode: int | None = None
    signal: str | None = None


class RunReport(BaseModel):
    """The result of running one script: status, exception, output tails, timings, scene and render."""

    schema_version: int = SCHEMA_VERSION
    status: Status
    blender_version: str | None = None
    backend: Literal["bpy-module", "blender-exe"]
    exception: ExceptionInfo | None = None
    stdout: str = ""
    stderr: str = ""
    blender_errors: list[str] = Field([], description="Blender's own 'Error:' report lines printed during the run.")
    timings: Timings = Timings()
    scene: SceneSummary | None = None
    render: RenderInfo | None = None
    exit: ExitInfo | None = None
    sandbox: Literal["bwrap", "rlimits-only"]
    camera_light_added: list[str] = Field([], description="What the harness added to frame the render.")
    script_path: str | None = None
    lint: LintReport | None = Field(None, description="Static checks run before the script, when asked for (--lint).")

    @property
    def ok(self) -> bool:
        """True when the script ran cleanly (and rendered, when a render was asked for)."""
        return self.status == "ok"

    @property
    def failure(self) -> str:
        """What went wrong, on one line: 'Type: message', or how the run ended without one; '' when it passed."""
        if self.ok:
            return ""
        if self.exception is not None:
            lines = self.exception.message.strip().splitlines()
            return f"{self.exception.type}: {lines[0] if lines else ''}".rstrip(": ")
        if self.status == "timeout":
            return "timed out (the script or its render ran past the timeout)"
        if self.status == "crash":
            signal = self.exit.signal if self.exit and self.exit.signal else None
            return f"Blender crashed ({signal or f'exit code {self.exit.returncode if self.exit else None}'})"
        return self.status

    @property
    def failure_with_line(self) -> str:
        """`failure` and the script line the exception points at: 'Type: message (line N)'."""
        line = self.exception.line if self.exception is not None and not self.ok else None
        return self.failure + (f" (line {line})" if line else "")

    def write(self, path: Path) -> None:
        """Write the report as indented JSON."""
        path.write_text(self.model_dump_json(indent=2), encoding="utf-8")


def json_schema() -> dict:
    """The RunReport JSON Schema as committed in run_report.schema.json."""
    return RunReport.model_json_schema()


def export_schema(path: Path = SCHEMA_PATH) -> Path:
    """(Re)write the committed JSON Schema file."""
    path.write_text(json.dumps(json_schema(), indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path
