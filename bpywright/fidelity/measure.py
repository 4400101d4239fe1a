"""Measure the scene a script builds: the script runs and its scene is saved; a second job, which never runs the script,
opens that file and measures it (blender/measure.py). The host reads the result as untrusted data.

Why two jobs: the measurement must not be the script's word. In one job, the script runs first and so can prepare
the interpreter the measuring code runs in: plant MEASURE_FILE, then patch `open` so that the code appended after it
cannot overwrite the file (that attack worked: the run said ok and the host read forged geometry). Here the job that
ran the script only saves its scene (BLEND_FILE, `save_as_mainfile(copy=True)`); the host copies regular files only
(never links) out of it, size-capped (MAX_BLEND_BYTES), and hands the file to a fresh job of ours, which opens it with
scripts off (`use_scripts=False`: no registered text block or Python driver in it runs), measures, and writes
MEASURE_FILE. Whatever the script does to its own interpreter, what is measured is a Blender file: to be measured as
a chair, a script must have built a chair in Blender. (It could still build one, save it and delete it: a script can
always act differently when it is tested, and no test can tell.) A script that stops the save, or leaves another file
in its place, gets "not measured" or the measurement of a file it saved itself, never a number it wrote.
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
BLEND_FILE = "bpywright_scene.blend"  # the scene the script built, saved by the job that ran it
MAX_BLEND_BYTES = 256 * 1024 * 1024  # a scene bigger than this is not measured (a BlendNet reference saves 0.1–2 MB)
SAMPLES = 2048  # surface points per scene
SEED = 7  # fixed: a scene measured twice gives the same points
SNIPPET = Path(__file__).with_name("blender") / "measure.py"
# Which measurement a cached geometry is: raised when the snippet measures a scene differently (a backdrop floor left out)
MEASURE_VERSION = 2
# The floor every answer must beat: the unit cube (bench/fidelity.py's cube floor, graph/review/agreement.py's margin).
UNIT_CUBE = "import bpy\n\nbpy.ops.object.select_all(action='SELECT')\nbpy.ops.object.delete()\nbpy.ops.mesh.primitive_cube_add(size=1)\n"
SAVE = """


try:
    import os as _bpywright_os

    import bpy as _bpywright_bpy

    _bpywright_path = _bpywright_os.path.abspath({file})
    _bpywright_bpy.ops.wm.save_as_mainfile(filepath=_bpywright_path, copy=True, compress=True, check_existing=False)
except Exception as _bpywright_error:
    import sys as _bpywright_sys

    print(f"bpywright: the scene could not be saved to measure: {{_bpywright_error}}", file=_bpywright_sys.stderr)
"""
OPEN = """import os

import bpy

bpy.ops.wm.open_mainfile(filepath=os.path.abspath({file}), load_ui=False, use_scripts=False)
"""
CALL = """

try:
    _bpywright_measure_scene({args})
except Exception as _bpywright_error:
    import json as _bpywright_json

    with open({file}, "w", encoding="utf-8") as _bpywright_fh:
        _bpywright_json.dump({{"error": f"{{type(_bpywright_error).__name__}}: {{_bpywright_error}}"}}, _bpywright_fh)
"""


def saving_script(script: str) -> str:
    """The script with the save of its scene appended (its own lines, and so its tracebacks' line numbers, unchanged)."""
    return script.rstrip("\n") + SAVE.format(file=repr(BLEND_FILE))


def measuring_script(*, seed: int = SEED, samples: int = SAMPLES, size: int = MASK_SIZE) -> str:
    """Ours, run in a fresh job: open the saved scene with its scripts off, measure it, write MEASURE_FILE."""
    call = CALL.format(args=f"{MEASURE_FILE!r}, {int(seed)}, {int(samples)}, {int(size)}", file=repr(MEASURE_FILE))
    return OPEN.format(file=repr(BLEND_FILE)) + "\n\n" + SNIPPET.read_text(encoding="utf-8") + call


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
    """Run the script on a warm worker and save its scene; measure that file in a fresh job. The script's report (its
    render, when asked), and the geometry when it ran and its saved scene could be measured (else why not)."""
    run_options = options or pool.options
    with tempfile.TemporaryDirectory(prefix="bpywright-fidelity-") as folder:
        built, measured = Path(folder) / "built", Path(folder) / "measured"
        report = pool.run(source=saving_script(script), options=run_options, render_to=render_to, outputs_to=built)
        if report.status != "ok":
            why = f"the script did not finish ({report.status})" if report.status in ("timeout", "crash", "rejected") else report.failure
            return Measurement(report=report, why=why)
        try:
            scene = read_job_file(None, str(built / BLEND_FILE), MAX_BLEND_BYTES)
        except UnsafeFile as exc:
            return Measurement(
                report=report, why=f"its scene was not saved to measure: {str(exc).replace(str(built / BLEND_FILE), BLEND_FILE)}"
            )
        quiet = run_options.model_copy(update={"render": False})
        opened = pool.run(
            source=measuring_script(seed=seed, samples=samples), options=quiet, outputs_to=measured, inputs={BLEND_FILE: scene}
        )
        if not opened.ok:
            return Measurement(report=report, why=f"its saved scene could not be measured ({opened.failure})")
        geometry, why = read_geometry(measured / MEASURE_FILE)
    return Measurement(report=report, geometry=geometry, why=why)
