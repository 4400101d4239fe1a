"""Wiping between jobs: empty the sandbox's private /tmp and /dev/shm (sparing the binds mounted there), remove the
job's SysV IPC objects, put back the folders' own modes and extended attributes, then check that nothing is left.

The zygote runs as the job's uid without capabilities, so whatever modes a job set (files 0444, folders 0500 or
0000) are undone by the owner: a folder is made 0700 before it is emptied. All of the job's processes are dead by
then, so nothing can swap an entry between the check and the removal. What cannot be removed is reported, and the
host then discards the worker rather than hand the next job anything of this one.
"""

import ctypes
import os
import stat

PRIVATE = ("/tmp", "/dev/shm")
MAX_DEPTH = 200  # deeper folders are not followed (file descriptors): the check then fails and the worker is replaced
IPC_RMID = 0
_IPC_CALLS = {"shm": "shmctl", "sem": "semctl", "msg": "msgctl"}


def mount_points():
    """Every mount point this process sees (the sandbox's binds must survive the clean-up of /tmp)."""
    points = set()
    try:
        with open("/proc/self/mountinfo", encoding="utf-8") as fh:
            for line in fh:
                fields = line.split()
                if len(fields) > 4:
                    points.add(fields[4].encode().decode("unicode_escape"))
    except OSError:
        pass
    return points


def folder_modes(mounts):
    """The modes of /tmp, /dev/shm, the folders in them that lead to a bind and the binds, as the sandbox made them.

    A job may chmod any of them it owns (the sandbox's folders are its uid's): the wipe puts each mode back.
    """
    modes = {}
    for top in PRIVATE:
        for path in [top] + sorted(m for m in mounts if m.startswith(top + "/")):
            while path not in modes and (path == top or path.startswith(top + "/")):
                try:
                    modes[path] = stat.S_IMODE(os.lstat(path).st_mode)
                except OSError:
                    break
                path = os.path.dirname(path)
    return modes


def empty_private_dirs(mounts, modes=None):
    """Remove what the job left in /tmp and /dev/shm (never following a symlink) and its SysV IPC objects; put the
    sandbox's folders back as they were (modes, no extended attributes).

    Returns what is left of the job ('' when nothing): the zygote reports it and the host discards the worker.
    """
    modes = modes or {}
    for top in PRIVATE:
        try:
            if stat.S_IMODE(os.lstat(top).st_mode) & 0o700 != 0o700:
                os.chmod(top, 0o700)
            fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            _wipe(fd, top, mounts, 0)
        finally:
            os.close(fd)
    found = []
    for top in PRIVATE:  # before the modes go back: a folder of the sandbox's may be 0111, which even we cannot list
        _remaining(top, mounts, found)
    for path in sorted(modes, key=len, reverse=True):
        _restore(path, modes[path])
    had_ipc = remove_ipc_objects() > 0  # none listed: none can appear, no process of the job is left
    return "; ".join((found + leftovers(modes, had_ipc))[:5])


def _restore(path, mode):
    """One of the sandbox's own folders: its mode back, and no extended attributes (a channel to the next job)."""
    try:
        if stat.S_IMODE(os.lstat(path).st_mode) != mode:
            os.chmod(path, mode)
        if not _read_only(path):
            for name in _user_xattrs(path):
                os.removexattr(path, name, follow_symlinks=False)
    except OSError:
        pass


def _user_xattrs(path):
    """The user.* extended attributes: the only ones a job without capabilities can set (security.* labels stay)."""
    return [name for name in os.listxattr(path, follow_symlinks=False) if name.startswith("user.")]


def _read_only(path):
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return True


def _wipe(fd, path, mounts, depth):
    """Empty the folder open at fd (path names it), keeping mount points and the folders that lead to one."""
    try:
        names = os.listdir(fd)
    except OSError:
        return
    for name in names:
        child = path + "/" + name
        if child in mounts:
            continue
        try:
            mode = os.lstat(name, dir_fd=fd).st_mode
            if not stat.S_ISDIR(mode):
                os.unlink(name, dir_fd=fd)
                continue
            if depth >= MAX_DEPTH:
                continue
            if stat.S_IMODE(mode) & 0o700 != 0o700:
                os.chmod(name, 0o700, dir_fd=fd)  # a folder (lstat above), and no process of the job is left to swap it
            sub = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
        except OSError:
            continue
        try:
            _wipe(sub, child, mounts, depth + 1)
        finally:
            os.close(sub)
        if not any(m.startswith(child + "/") for m in mounts):
            try:
                os.rmdir(name, dir_fd=fd)
            except OSError:
                pass


def remove_ipc_objects():
    """IPC_RMID every SysV shared-memory segment, semaphore set and message queue of the sandbox's IPC namespace;
    returns how many there were.

    The namespace is the worker's own (bubblewrap --unshare-ipc); the job made them as the zygote's uid, so the
    zygote, their creator's uid, may remove them. A segment is freed once no process has it attached: none is left.
    """
    found = 0
    for kind, call in _IPC_CALLS.items():
        for ident in ipc_ids(kind):
            found += 1
            if kind == "sem":
                getattr(_libc(), call)(ctypes.c_int(ident), ctypes.c_int(0), ctypes.c_int(IPC_RMID))
            else:
                getattr(_libc(), call)(ctypes.c_int(ident), ctypes.c_int(IPC_RMID), None)
    return found


_LIBC = []


def _libc():
    if not _LIBC:
        _LIBC.append(ctypes.CDLL(None, use_errno=True))
    return _LIBC[0]


def ipc_ids(kind):
    """The ids of the SysV IPC objects of one kind ('shm', 'sem', 'msg') in this IPC namespace."""
    ids = []
    try:
        with open(f"/proc/sysvipc/{kind}", encoding="utf-8") as fh:
            next(fh, None)  # the header line
            for line in fh:
                fields = line.split()
                if len(fields) > 1 and fields[1].isdigit():
                    ids.append(int(fields[1]))
    except OSError:
        pass
    return ids


def leftovers(modes, ipc=True):
    """What the job changed that the wipe could not put back: the sandbox's folders' modes, their extended
    attributes, SysV IPC objects (the entries left in /tmp and /dev/shm are found by _remaining)."""
    found = []
    for path, mode in modes.items():
        try:
            now = stat.S_IMODE(os.lstat(path).st_mode)
            if now != mode:
                found.append(f"{path} is mode {now:o}, not {mode:o}")
            if not _read_only(path) and _user_xattrs(path):
                found.append(f"{path} has extended attributes")
        except OSError as err:
            found.append(f"{path}: {err.strerror}")
    for kind in _IPC_CALLS if ipc else ():
        ids = ipc_ids(kind)
        if ids:
            found.append(f"{len(ids)} SysV {kind} object(s)")
    return found


def _remaining(path, mounts, found):
    """Add to found each entry under path that is neither a mount point nor a folder that leads to one."""
    try:
        names = os.listdir(path)
    except OSError:
        return
    for name in names:
        child = path + "/" + name
        if child in mounts:
            continue
        if any(m.startswith(child + "/") for m in mounts) and os.path.isdir(child) and not os.path.islink(child):
            _remaining(child, mounts, found)  # a folder that holds a bind: what else is in it
        else:
            found.append(child)
