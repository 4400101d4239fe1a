"""Running the user's script as `blender -b --python` would, and describing how it failed."""

import builtins
import errno
import os
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
    tb_obj = exc.__traceback__
    while tb_obj is not None and os.path.dirname(tb_obj.tb_frame.f_code.co_filename) == HARNESS_DIR:
        tb_obj = tb_obj.tb_next  # drop the harness's own frames
    tb = "".join(traceback.format_exception(type(exc), exc, tb_obj))
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
