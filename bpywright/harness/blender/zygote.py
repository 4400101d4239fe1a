"""The zygote (serve mode): fork a child per job line, wait for it, clean up after it, report its end. Never runs user code."""

import errno
import json
import os
import signal
import sys
import time

from .job import backend_name, blender_tempdir, blender_version, child_main
from .libc import LIBC, PR_SET_DUMPABLE
from .private_dirs import empty_private_dirs, folder_modes, mount_points
from .processes import become_subreaper, end_job_processes, wait_child
from .shader_cache import lay_out_cache, warm_shader_cache


def _fork(attempts=5):
    """os.fork(), retried briefly when the system is out of processes or memory for a moment (EAGAIN, ENOMEM)."""
    for attempt in range(attempts):
        try:
            return os.fork()
        except OSError as err:
            if err.errno not in (errno.EAGAIN, errno.ENOMEM) or attempt == attempts - 1:
                raise
            time.sleep(0.05 * 2**attempt)
    raise OSError(errno.EAGAIN, "fork failed")


def _no_signal_handlers():
    """As the sandbox's pid 1, have no handler for any signal: the kernel then drops every signal a job sends to it.

    A process of the same pid namespace cannot kill its init with a signal the init leaves at SIG_DFL (SIGKILL and
    SIGSTOP included); a handler (Python's SIGINT one raises KeyboardInterrupt, Blender's own crash handler aborts)
    would let a job end the worker. The kernel's list of caught signals is read, since handlers set from C are not
    Python's to see; glibc keeps its two internal ones (32, 33), which act only on signals its own process sent.
    """
    for sig in caught_signals():
        try:
            signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError):
            pass


def caught_signals(pid="self"):
    """The signals a process has a handler for (SigCgt of /proc/PID/status)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("SigCgt:"):
                    mask = int(line.split()[1], 16)
                    return [n for n in range(1, 65) if mask >> (n - 1) & 1]
    except (OSError, ValueError):
        pass
    return []


def _wipe(mounts, modes, tempdir):
    """Empty /tmp and /dev/shm and check it (what is left, or ''), then make Blender's own temp folder afresh, empty."""
    left = empty_private_dirs(mounts, modes)
    if tempdir and not left:
        try:
            os.mkdir(tempdir, 0o700)
        except OSError:
            pass
    return left


def serve(control_fd, own_pid_namespace, warm=False):
    """Fork a child per job line on stdin; report each job's end on control_fd. Never runs user code."""
    become_subreaper()
    LIBC.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # children cannot read or ptrace the zygote's memory
    if own_pid_namespace:
        _no_signal_handlers()
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    control = os.fdopen(control_fd, "w", buffering=1)
    mounts = mount_points()
    modes = folder_modes(mounts) if own_pid_namespace else {}
    tempdir = blender_tempdir()
    template = {}
    if own_pid_namespace:  # /tmp is private only inside the sandbox
        if warm:
            template = warm_shader_cache()
        _wipe(mounts, modes, tempdir)  # every job starts from the same /tmp, the first one too
    control.write(json.dumps({"ready": True, "blender_version": blender_version(), "backend": backend_name()}) + "\n")
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        job = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        if template and job.get("render_path"):
            try:
                lay_out_cache(template)
            except OSError:  # a slower render, never a dead zygote
                pass
        try:
            pid = _fork()
        except OSError as err:  # no process to spare right now: this job fails, the zygote keeps serving
            control.write(json.dumps({"started": job["job_id"]}) + "\n")
            control.write(json.dumps({"done": job["job_id"], "error": f"could not start the job's process: {err}"}) + "\n")
            continue
        if pid == 0:
            child_main(job, control_fd)
        control.write(json.dumps({"started": job["job_id"]}) + "\n")
        outcome = wait_child(pid, float(job.get("timeout", 60)))
        end_job_processes(own_pid_namespace)
        if own_pid_namespace:
            left = _wipe(mounts, modes, tempdir)
            if left:
                outcome["unclean"] = left  # the host discards this worker
        outcome["done"] = job["job_id"]
        control.write(json.dumps(outcome) + "\n")
