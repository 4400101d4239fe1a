"""Mount wiping: empty the sandbox's private /tmp and /dev/shm between jobs, sparing the binds mounted there."""

import os
import shutil


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


def empty_private_dirs(mounts):
    """Remove what the job left in the sandbox's private /tmp and /dev/shm, sparing the binds (never follows symlinks)."""
    for top in ("/tmp", "/dev/shm"):
        _wipe(top, mounts)


def _wipe(folder, mounts):
    """Empty folder, keeping the mount points in it and the folders that lead to one."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        path = entry.path
        if path in mounts:
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                if any(m.startswith(path + "/") for m in mounts):
                    _wipe(path, mounts)  # a folder bwrap made to hold a bind: keep it, clean around it
                else:
                    shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
        except OSError:
            pass
