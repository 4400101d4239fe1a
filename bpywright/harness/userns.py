"""The sandbox's own user namespace, made by bpywright when it runs as root: the job's uid 65534 is host uid 65534 too.

bubblewrap's --unshare-user maps the sandbox uid to the uid that started it: host root, when bpywright runs
as root, so a job could read every root-only (0600) file in its view. As root we can instead write the maps
ourselves and hand the namespace to bwrap (--userns FD):

- uid/gid 65534 → host 65534: the job's uid, without capabilities, is "nobody" on the host as well;
- host root → uid 1 (never 0): bwrap's setup, which keeps its capabilities in the namespace while it switches
  to 65534 (ns root is unmapped, so setuid() does not clear them), may then bind root-owned paths behind a
  0700 home (the pyenv interpreter under /root). Nothing in the sandbox runs as uid 1: bwrap sets
  NoNewPrivs and binds everything nosuid, so no set-uid file can become it;
- max_user_namespaces = 0 inside it: no nested user namespace (what bwrap's --disable-userns does, which
  needs --unshare-user), on top of the seccomp filter.
"""

from __future__ import annotations

import ctypes
import functools
import os
import shutil
import subprocess

SANDBOX_UID = 65534  # "nobody": the job's uid inside the sandbox, and on the host where this module applies
CLONE_NEWUSER = 0x10000000
ROOT_AS = 1  # the uid (and gid) host root has inside the namespace: never 0, see the module's docstring
ID_MAP = f"{ROOT_AS} 0 1\n{SANDBOX_UID} {SANDBOX_UID} 1\n"


class UsernsUnavailable(OSError):
    """The namespace could not be made here (not root, user namespaces disabled, a seccomp'd container)."""


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _enter_new_namespace() -> None:
    """In the helper child, before exec: a new user namespace in which nobody may make another."""
    if _libc().unshare(CLONE_NEWUSER) != 0:
        os._exit(120)
    try:
        with open("/proc/sys/user/max_user_namespaces", "w") as fh:
            fh.write("0")
    except OSError:
        os._exit(121)


def new_user_namespace() -> int:
    """An fd of a fresh user namespace with the maps above (the caller closes it); raises UsernsUnavailable.

    A short-lived helper (`cat`, ended by closing its stdin) enters the namespace; this process, root on the
    host, writes its maps; the fd keeps the namespace alive for bwrap once the helper is gone.
    """
    if os.geteuid() != 0:
        raise UsernsUnavailable("only root writes a user namespace's maps for another uid")
    cat = shutil.which("cat") or "/bin/cat"
    try:
        helper = subprocess.Popen([cat], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, preexec_fn=_enter_new_namespace)
    except (OSError, subprocess.SubprocessError) as exc:
        raise UsernsUnavailable(f"the namespace helper did not start: {exc}") from exc
    try:
        proc = f"/proc/{helper.pid}"
        if os.readlink(f"{proc}/ns/user") == os.readlink("/proc/self/ns/user"):
            raise UsernsUnavailable("unshare(CLONE_NEWUSER) failed")
        _write(f"{proc}/uid_map", ID_MAP)
        _write(f"{proc}/setgroups", "deny\n")
        _write(f"{proc}/gid_map", ID_MAP)
        return os.open(f"{proc}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
    except UsernsUnavailable:
        raise
    except OSError as exc:
        if helper.poll() is not None and helper.returncode in (120, 121):
            what = "unshare(CLONE_NEWUSER)" if helper.returncode == 120 else "max_user_namespaces"
            raise UsernsUnavailable(f"{what} was refused in the helper") from exc
        raise UsernsUnavailable(f"cannot set up the namespace: {exc}") from exc
    finally:
        assert helper.stdin is not None
        helper.stdin.close()
        try:
            helper.wait(timeout=10)
        except subprocess.TimeoutExpired:
            helper.kill()
            helper.wait()


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)
