"""Run a script with the measurement snippet appended, and read back what the snippet wrote, as untrusted data.

The snippet (blender/measure.py, standard library + bpy) runs after the script's last line, in the same job, and
writes MEASURE_FILE into the job's working directory; the harness copies regular files only (never links) out of it,
and the host reads that one name, size-capped, and validates it into a SceneGeometry. A script that writes its own
MEASURE_FILE is overwritten by the snippet, which runs after it; one that stops the snippet (exits, patches json) gets
"not measured" or a scene that fails validation — a failure, never a trusted number.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from ..harness.job import UnsafeFile, read_job_file
from ..harness.options import RunOptions
from .models import MASK_SIZE, Measurement, SceneGeometry

if TYPE_CHECKING:
    from ..harness.pool import WorkerPool

MEASURE_FILE = "bpywright_fidelity.json"
MAX_MEASURE_BYTES = 4 * 1024 * 1024
SAMPLES = 2048  # surface points per scene
SEED = 7  # fixed: a scene measured twice gives the same points
SNIPPET = Path(__file__).with_name("blender") / "measure.py"
# The floor every answer must beat: the unit cube (bench/fidelity.py's cube floor, graph/agreement.py's margin).
UNIT_CUBE = "import bpy\n\nbpy.ops.object.select_all(action='SELECT')\nbpy.ops.object.delete()\nbpy.ops.mesh.primitive_cube_add(size=1)\n"
CALL = """

try:
    _bpywright_measure_scene({args})
except Exception as _bpywright_error:
    import json as _bpywright_json

    with open({file}, "w", encoding="utf-8") as _bpywright_fh:
        _bpywright_json.dump({{"error": f"{{type(_bpywright_error).__name__}}: {{_bpywright_error}}"}}, _bpywright_fh)
"""


def measured_script(script: str, *, seed: int = SEED, samples: int = SAMPLES, size: int = MASK_SIZE) -> str:
    """The script with the measurement appended (its own lines, and so its tracebacks' line numbers, unchanged)."""
    call = CALL.format(args=f"{MEASURE_FILE!r}, {int(seed)}, {int(samples)}, {int(size)}", file=repr(MEASURE_FILE))
    return script.rstrip("\n") + "\n\n\n" + SNIPPET.read_text(encoding="utf-8") + call


def read_geometry(path: Path) -> tuple[SceneGeometry | None, str]:
    """The geometry the job left at path (a regular file, capped, validated), or None and why not."""
    try:
        raw = read_job_file(None, str(path), MAX_MEASURE_BYTES)
    except UnsafeFile as exc:
        return None, f"no measurement: {str(exc).replace(str(path), path.name)}"
    try:
        data = json.loads(raw)
    except ValueError:
        return None, "the measurement is not JSON"
    if isinstance(data, dict) and isinstance(data.get("error"), str) and len(data) == 1:
        return None, f"the measurement failed in Blender: {data['error'][:300]}"
    try:
        return SceneGeometry.model_validate(data), ""
    except ValidationError as exc:
        return None, f"the measurement is malformed ({exc.error_count()} errors)"


def measure(
    pool: WorkerPool,
    script: str,
    options: RunOptions | None = None,
    *,
    render_to: Path | None = None,
    seed: int = SEED,
    samples: int = SAMPLES,
) -> Measurement:
    """Run the script with the measurement appended on a warm worker; the report, and the geometry when it ran."""
    with tempfile.TemporaryDirectory(prefix="bpywright-fidelity-") as outputs:
        report = pool.run(
            source=measured_script(script, seed=seed, samples=samples), options=options, render_to=render_to, outputs_to=Path(outputs)
        )
        if report.status in ("timeout", "crash", "rejected"):
            return Measurement(report=report, why=f"the script did not finish ({report.status})")
        geometry, why = read_geometry(Path(outputs) / MEASURE_FILE)
    return Measurement(report=report, geometry=geometry, why=why)
