"""Introspect pass: run probe.py inside the harness's Blender (sandboxed) and return what it found."""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path

from .errors import IngestError

PROBE_PATH = Path(__file__).with_name("probe.py")
PROBE_OUTPUT = "symbols.json"
TAIL = 1500


def probe_sha256() -> str:
    """Content hash of the probe script (part of the ingest's input hashes)."""
    return hashlib.sha256(PROBE_PATH.read_bytes()).hexdigest()


def introspect(blender: Path | None = None, timeout: float = 600, *, sandbox: bool = True, python: Path | None = None) -> dict:
    """The probe's JSON (structs, operators, modules, enums, blender_version) from the bpy module or a Blender executable."""
    from ..harness.launcher import run_script
    from ..harness.options import RunOptions

    options = RunOptions(render=False, timeout=timeout, blender=blender, sandbox=sandbox, python=python)
    where = f"Blender at {blender}" if blender is not None else f"the bpy module of {python or 'this Python'}"
    with tempfile.TemporaryDirectory(prefix="bpywright-probe-") as tmp:
        out_dir = Path(tmp)
        try:
            report = run_script(PROBE_PATH, options, outputs_to=out_dir)
        except Exception as exc:  # e.g. no Blender executable / bpy not importable: the harness raises before running
            raise IngestError(f"cannot start {where} to introspect it: {exc}; check `bpywright doctor`") from exc
        if report.status != "ok":
            detail = report.exception.message if report.exception is not None else ""
            raise IngestError(
                f"introspecting {where} failed ({report.status}): {detail}\n{report.stderr[-TAIL:]}".rstrip()
                + "\nrun `bpywright doctor` to check the Blender backend"
            )
        # the probe writes out/symbols.json in its working dir, which the harness copies whole into out_dir
        path = next((p for p in (out_dir / "out" / PROBE_OUTPUT, out_dir / PROBE_OUTPUT) if p.is_file()), out_dir / PROBE_OUTPUT)
        if not path.is_file():
            raise IngestError(f"the probe ran in {where} but wrote no {PROBE_OUTPUT}; stdout: {report.stdout[-TAIL:]}")
        data = json.loads(path.read_text(encoding="utf-8"))
    data.setdefault("blender_version", report.blender_version or "")
    return data
