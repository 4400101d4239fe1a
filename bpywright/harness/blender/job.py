"""One job, in the forked child: reset, run the script under capture, summarise, render, write the report, exit."""

import json
import os
import signal
import sys
import time

import bpy

from .capture import CapturedOutput
from .execute import exception_info, exec_script
from .libc import LIBC, PR_SET_PDEATHSIG
from .render import ensure_camera_and_light, render_scene
from .schema import SCHEMA_VERSION
from .summary import fit_summary, scene_summary

JOB_PID = [os.getpid()]  # the process allowed to write the report (the job's child, once forked)


def blender_version():
    """The running Blender's version string, e.g. '4.5.15 LTS'."""
    return bpy.app.version_string


def blender_tempdir():
    """The folder Blender made for itself in the private /tmp at start (bpy.app.tempdir), or None."""
    path = os.path.normpath(bpy.app.tempdir or "/")
    return path if os.path.dirname(path) == "/tmp" else None


def backend_name():
    """'blender-exe' when running inside a Blender binary, else 'bpy-module'."""
    return "bpy-module" if getattr(bpy.app, "binary_path", "") == "" else "blender-exe"


def run_job(job, timings):
    """Run one job end to end and return the report dict (never raises for script failures)."""
    script_path = job["script_path"]
    file_path = job.get("file_path") or script_path
    report = {
        "schema_version": SCHEMA_VERSION,
        "job_id": job["job_id"],
        "status": "ok",
        "blender_version": blender_version(),
        "backend": backend_name(),
        "exception": None,
        "stdout": "",
        "stderr": "",
        "blender_errors": [],
        "timings": timings,
        "scene": None,
        "render": None,
        "exit": None,
        "sandbox": job.get("sandbox", "rlimits-only"),
        "camera_light_added": [],
    }
    os.chdir(job["out_dir"])
    # What `blender -b --python SCRIPT -- ARGS` gives a script: its folder first on sys.path, ARGS after '--'.
    sys.argv = ["blender", "-b", "--python", file_path] + (["--"] + list(job["args"]) if job.get("args") else [])
    sys.path[0:1] = [os.path.dirname(file_path)]
    capture = CapturedOutput(job["job_dir"])
    t = time.perf_counter()
    with capture:
        exc = exec_script(script_path, file_path)
    timings["script"] = time.perf_counter() - t
    _guard_forked_child()
    if exc is not None:
        report["status"] = "rejected" if exc.pop("denied") else "error"
        report["exception"] = exc
    try:
        report["scene"] = scene_summary()
        trimmed = fit_summary(report["scene"])
        if trimmed:
            report["stderr"] += (
                f"bpywright: the scene summary left out the modifier settings and F-curves of {trimmed} objects to fit the report\n"
            )
    except Exception as err:  # the script may leave the scene in a state we cannot walk
        report["stderr"] += f"bpywright: scene summary failed: {err}\n"
    if exc is None and job.get("render_path"):
        t = time.perf_counter()
        try:
            with CapturedOutput(job["job_dir"], prefix="render_"):
                bbox = report["scene"]["bbox"] if report["scene"] else None
                report["camera_light_added"] = ensure_camera_and_light(bbox)
                report["render"] = render_scene(job)
        except Exception as err:
            report["status"] = "error"
            report["exception"] = exception_info(err, file_path)
            report["exception"].pop("denied")
            report["exception"]["message"] = f"render failed: {err}"
        timings["render"] = time.perf_counter() - t
    report["stdout"] = capture.tail("stdout")
    report["stderr"] = capture.tail("stderr") + report["stderr"]
    report["blender_errors"] = capture.blender_errors()
    return report


def _prefer_as_oom_victim():
    """Past the sandbox's memory cap the kernel kills the job's processes (which inherit this), not the zygote."""
    try:
        with open("/proc/self/oom_score_adj", "w") as fh:
            fh.write("1000")
    except OSError:
        pass


def _guard_forked_child():
    """A process forked by the script must never act as the job: end it quietly."""
    if os.getpid() != JOB_PID[0]:
        os._exit(0)


def write_report(report, path):
    """Write the report atomically (tmp file + rename), so a reader never sees half a file."""
    _guard_forked_child()
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(report, fh, default=str)
    os.replace(tmp, path)


def reset_scene(empty=False):
    """Back to factory startup data (the state `blender -b --factory-startup` gives a script)."""
    bpy.ops.wm.read_homefile(use_factory_startup=True, load_ui=False, use_empty=empty)


def child_main(job, control_fd):
    """The forked child: drop every channel to the host, run the job, write its report, exit."""
    code = 70
    try:
        JOB_PID[0] = os.getpid()
        LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # the zygote, as pid 1, keeps none: the script gets Python's
        os.close(control_fd)
        _prefer_as_oom_victim()
        # No way back to the zygote's stdin (job lines) or its log: the script gets /dev/null until capture.
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.close(null)
        timings = {"startup": 0.0, "reset": 0.0, "script": 0.0, "render": 0.0, "total": 0.0}
        t0 = time.perf_counter()
        if job.get("empty_scene", False):
            reset_scene(True)
        timings["reset"] = time.perf_counter() - t0
        report = run_job(job, timings)
        timings["total"] = time.perf_counter() - t0
        write_report(report, job["report_path"])
        code = 0 if report["status"] == "ok" else 1
    finally:
        os._exit(code)  # never run interpreter teardown (bpy can segfault there) or return into the zygote
