"""Running the user's script as `blender -b --python` would, and describing how it failed."""

import builtins
import contextlib
import errno
import os
import sys
import traceback

from .capture import TAIL_CHARS

HARNESS_DIR = os.path.dirname(os.path.abspath(__file__))  # the entry and its siblings: their frames are not the script's


def exception_info(exc, script_path):
    """Type, message, traceback and the line in the user's script for an exception."""
    line = None
    if isinstance(exc, SyntaxError) and exc.filename == script_path:
        line = exc.lineno
    else:
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename == script_path:
                line = frame.lineno
    # the harness's own frames (its entry above the script, its render guard between a call and Blender) are left out
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.dirname(f.filename) != HARNESS_DIR]
    tb = "".join(
        (["Traceback (most recent call last):\n"] if frames else [])
        + traceback.format_list(frames)
        + traceback.format_exception_only(type(exc), exc)
    )
    return {
        "type": type(exc).__name__,
        "message": str(exc),
        "traceback": tb[-TAIL_CHARS * 2 :],
        "line": line,
        "denied": sandbox_denied(exc),
    }


# errno values by which the sandbox refuses: read-only fs, file too large, no network, no more processes
_DENIED_ERRNOS = {
    errno.EROFS,
    errno.EFBIG,
    errno.ENOSPC,
    errno.EDQUOT,
    errno.ENETUNREACH,
    errno.EAFNOSUPPORT,
    errno.EAGAIN,
    errno.EPERM,
    errno.EACCES,
}


def sandbox_denied(exc):
    """True when the exception is the sandbox refusing something (a limit or a forbidden resource)."""
    if isinstance(exc, MemoryError):
        return True
    return isinstance(exc, OSError) and exc.errno in _DENIED_ERRNOS


# A script's own render (`bpy.ops.render.render(...)`) runs during validation, as the user wrote it, only smaller: at most
# this many pixels on a side, this many samples, one frame of an animation, EEVEE as Workbench (EEVEE's shaders take
# minutes to compile on a headless CPU), written into the job's output folder (the
# working directory) rather than the project's. Scene settings are put back after each call, so the scene the harness
# measures and renders is the script's. `blender -b --python` outside the harness renders it as written.
VALIDATION_PIXELS = 96
VALIDATION_SAMPLES = 4
RENDER_NOTE = (
    "bpywright: the script's bpy.ops.render.render({args}) ran for validation at {x}x{y} px, at most {samples} samples{engine}{frames},"
    " writing into the job's output folder; blender -b --python renders it as written\n"
)


@contextlib.contextmanager
def _validation_settings(scene, kw):
    """The scene's render settings made small for one render call, put back after it."""
    render = scene.render
    saved = [(render, "resolution_percentage", render.resolution_percentage), (render, "filepath", render.filepath)]
    largest = max(render.resolution_x, render.resolution_y) * render.resolution_percentage / 100
    if largest > VALIDATION_PIXELS:
        render.resolution_percentage = max(1, int(100 * VALIDATION_PIXELS / max(render.resolution_x, render.resolution_y)))
    name = os.path.basename(plain_path(render.filepath).rstrip("/\\")) or "render"
    render.filepath = os.path.join(os.getcwd(), name)
    for owner, prop in ((getattr(scene, "cycles", None), "samples"), (getattr(scene, "eevee", None), "taa_render_samples")):
        if owner is not None and hasattr(owner, prop) and getattr(owner, prop) > VALIDATION_SAMPLES:
            saved.append((owner, prop, getattr(owner, prop)))
            setattr(owner, prop, VALIDATION_SAMPLES)
    engine = ""
    if render.engine.startswith("BLENDER_EEVEE"):  # its shaders compile for minutes on a headless CPU
        saved.append((render, "engine", render.engine))
        render.engine = "BLENDER_WORKBENCH"
        engine = ", with Workbench in place of EEVEE"
    frames = ""
    if kw.get("animation"):
        saved.append((scene, "frame_end", scene.frame_end))
        scene.frame_end = scene.frame_start
        frames = ", one frame"
    pct = render.resolution_percentage / 100
    note = RENDER_NOTE.format(
        args=", ".join(f"{k}={v!r}" for k, v in kw.items()),
        x=int(render.resolution_x * pct),
        y=int(render.resolution_y * pct),
        samples=VALIDATION_SAMPLES,
        engine=engine,
        frames=frames,
    )
    sys.stderr.write(note)
    try:
        yield
    finally:
        for owner, prop, value in reversed(saved):
            with contextlib.suppress(Exception):
                setattr(owner, prop, value)


def plain_path(path):
    """A render path without Blender's leading `//` (relative to the .blend file)."""
    return path[2:] if path.startswith("//") else path


@contextlib.contextmanager
def small_renders():
    """While the script runs, its own render calls run at validation size (see VALIDATION_PIXELS)."""
    ops = sys.modules.get("bpy.ops")
    call = getattr(ops, "_op_call", None) if ops is not None else None
    if call is None:  # a Blender whose operator layer differs: the script's renders run as written
        yield
        return
    import bpy

    def guarded(idname, kw, *args):
        if idname != "render.render" or bpy.context.scene is None:
            return call(idname, kw, *args)
        with _validation_settings(bpy.context.scene, kw):
            return call(idname, kw, *args)

    ops._op_call = guarded
    try:
        yield
    finally:
        ops._op_call = call


def exec_script(script_path, file_path=None):
    """Execute the script's text (read from script_path) as __main__ named file_path, as `blender -b --python` does.

    Returns exception info (lines counted in the script) or None.
    """
    file_path = file_path or script_path
    with open(script_path, "rb") as fh:
        source = fh.read()
    namespace = {"__name__": "__main__", "__file__": file_path, "__builtins__": builtins}
    try:
        code = compile(source, file_path, "exec")
        with small_renders():
            exec(code, namespace)
    except SystemExit as exc:
        if exc.code in (None, 0):
            return None
        info = exception_info(exc, file_path)
        info["message"] = f"SystemExit({exc.code!r})"
        return info
    except BaseException as exc:  # noqa: BLE001 - every failure of the user's script is data
        return exception_info(exc, file_path)
    finally:
        namespace.clear()
    return None
