"""Reaping: wait for the job's child (killing it at its timeout), then kill and reap every process the job left."""

import os
import select
import signal
import time

from .libc import LIBC, PR_SET_CHILD_SUBREAPER


def become_subreaper():
    """PR_SET_CHILD_SUBREAPER: orphaned grandchildren reparent to the zygote so they can be reaped."""
    try:
        LIBC.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except Exception:
        pass


def wait_child(pid, timeout):
    """Wait for the job's child up to timeout seconds (then kill it); {'returncode': N} or {'timeout': True}."""
    timed_out = False
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        fd = None
    if fd is not None:
        ready, _, _ = select.select([fd], [], [], timeout)
        os.close(fd)
        timed_out = not ready
    else:
        deadline = time.monotonic() + timeout
        while os.waitpid(pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > deadline:
                timed_out = True
                break
            time.sleep(0.005)
        else:
            return {"returncode": None}
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if timed_out:
        return {"timeout": True}
    return {"returncode": os.waitstatus_to_exitcode(status)}


def end_job_processes(own_pid_namespace):
    """Kill every process the job left (daemons, forks) and reap them, before the next job can start."""
    if own_pid_namespace:
        # Inside the sandbox's pid namespace every other process but its init belongs to the job.
        for _ in range(3):
            try:
                os.kill(-1, signal.SIGKILL)
            except OSError:
                pass
            if not _reap_all():
                break
    else:
        for _ in range(3):
            if not reap_descendants():
                break


def _reap_all(seconds=20.0):
    """Reap every child (all were sent SIGKILL); True when some were found. A zygote that cannot reap them in
    `seconds` exits: the host then replaces it rather than letting a stuck job's processes reach the next job."""
    reaped = False
    deadline = time.monotonic() + seconds
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return reaped
        if pid > 0:
            reaped = True
        elif time.monotonic() > deadline:
            os._exit(3)
        else:
            time.sleep(0.002)


def reap_descendants():
    """Kill every descendant of this process (orphans included: we are their subreaper); True when any was found."""
    children = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fh:
                    stat = fh.read()
                ppid = int(stat[stat.rfind(")") + 2 :].split()[1])
                children.setdefault(ppid, []).append(int(name))
            except (OSError, ValueError, IndexError):
                pass
    stack, victims = [os.getpid()], []
    while stack:
        for child in children.get(stack.pop(), []):
            victims.append(child)
            stack.append(child)
    for pid in victims:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    for _ in victims:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    return bool(victims)
