"""The seccomp filter every sandboxed job runs under: the usual container deny list, compiled with libseccomp.

Nothing a Blender script needs is on it. What is: tracing or reading other processes (ptrace,
process_vm_*), new namespaces (unshare, clone with a CLONE_NEW* flag, setns), mounts, kernel
modules, keyrings, BPF, perf, userfaultfd, io_uring, NUMA placement, memfd_secret, modify_ldt, POSIX message
queues, sockets of any family but AF_UNIX/AF_INET/AF_INET6, and the like: kernel attack surface for no purpose.
A denied call fails with EPERM, which the entry reports as the sandbox refusing (status `rejected`).
clone3 fails with ENOSYS (its flags are behind a pointer a filter cannot read), so libc falls back to clone.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import os

DENIED = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "pidfd_getfd",
    "kcmp",
    "unshare",
    "setns",
    "mount",
    "umount",
    "umount2",
    "pivot_root",
    "chroot",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "move_mount",
    "open_tree",
    "mount_setattr",
    "bpf",
    "perf_event_open",
    "keyctl",
    "add_key",
    "request_key",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "create_module",
    "swapon",
    "swapoff",
    "reboot",
    "open_by_handle_at",
    "name_to_handle_at",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "acct",
    "quotactl",
    "syslog",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "iopl",
    "ioperm",
    "lookup_dcookie",
    "nfsservctl",
    "uselib",
    "vhangup",
    "personality",
    "memfd_secret",  # memory the kernel hides from itself: nothing to render there, and a rarely audited path
    "modify_ldt",  # 16-bit segments (x86): old exploit surface, no use to a 64-bit Blender
    "set_mempolicy",  # NUMA placement (as Docker's profile, without CAP_SYS_NICE): Blender runs without it
    "set_mempolicy_home_node",
    "mbind",
    "migrate_pages",
    "move_pages",
    "mq_open",  # POSIX message queues live in the worker's IPC namespace, outside /dev/shm: no wipe could see them
    "mq_unlink",
    "mq_timedsend",
    "mq_timedreceive",
    "mq_notify",
    "mq_getsetattr",
)
# socket(2) and socketpair(2) families a job may open: local (AF_UNIX) and IP, which the empty network namespace
# keeps on loopback. Netlink (the kernel's routing, audit, … interfaces), vsock (to the hypervisor), packet, bluetooth
# and the rest are refused.
SOCKET_FAMILIES = (1, 2, 10)  # AF_UNIX, AF_INET, AF_INET6
CLONE_NAMESPACE_FLAGS = (
    0x00000080,  # CLONE_NEWTIME
    0x00020000,  # CLONE_NEWNS
    0x02000000,  # CLONE_NEWCGROUP
    0x04000000,  # CLONE_NEWUTS
    0x08000000,  # CLONE_NEWIPC
    0x10000000,  # CLONE_NEWUSER
    0x20000000,  # CLONE_NEWPID
    0x40000000,  # CLONE_NEWNET
)
_ALLOW = 0x7FFF0000
_CMP_EQ = 4
_CMP_GT = 6
_CMP_MASKED_EQ = 7
_NR_ERROR = -1


def _errno_action(code: int) -> int:
    return 0x00050000 | (code & 0xFFFF)


class _ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


@functools.cache
def _libseccomp() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        return None
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    lib.seccomp_syscall_resolve_name.restype = ctypes.c_int
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.restype = ctypes.c_int
    lib.seccomp_rule_add_array.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(_ArgCmp),
    ]
    lib.seccomp_export_bpf.restype = ctypes.c_int
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return lib


@functools.cache
def compiled_filter() -> bytes | None:
    """The filter as a classic BPF program (what bwrap --seccomp reads), or None where libseccomp is missing."""
    lib = _libseccomp()
    if lib is None:
        return None
    ctx = lib.seccomp_init(_ALLOW)
    if not ctx:
        return None
    try:
        deny = _errno_action(errno.EPERM)
        for name in DENIED:
            nr = lib.seccomp_syscall_resolve_name(name.encode())
            if nr != _NR_ERROR and lib.seccomp_rule_add_array(ctx, deny, nr, 0, None) != 0:
                raise OSError(f"libseccomp refused a rule for {name}")
        clone = lib.seccomp_syscall_resolve_name(b"clone")
        for flag in CLONE_NAMESPACE_FLAGS:
            cmp = _ArgCmp(0, _CMP_MASKED_EQ, flag, flag)
            if lib.seccomp_rule_add_array(ctx, deny, clone, 1, ctypes.byref(cmp)) != 0:
                raise OSError("libseccomp refused the clone rule")
        for call in (b"socket", b"socketpair"):
            nr = lib.seccomp_syscall_resolve_name(call)
            if nr == _NR_ERROR:
                continue
            for cmp in _refused_families():
                if lib.seccomp_rule_add_array(ctx, deny, nr, 1, ctypes.byref(cmp)) != 0:
                    raise OSError(f"libseccomp refused the {call.decode()} family rule")
        clone3 = lib.seccomp_syscall_resolve_name(b"clone3")
        if clone3 != _NR_ERROR and lib.seccomp_rule_add_array(ctx, _errno_action(errno.ENOSYS), clone3, 0, None) != 0:
            raise OSError("libseccomp refused the clone3 rule")
        fd = os.memfd_create("bpywright-seccomp-export", os.MFD_CLOEXEC)
        try:
            if lib.seccomp_export_bpf(ctx, fd) != 0:
                raise OSError("libseccomp could not export the filter")
            size = os.lseek(fd, 0, os.SEEK_CUR)
            return os.pread(fd, size, 0)
        finally:
            os.close(fd)
    finally:
        lib.seccomp_release(ctx)


def _refused_families() -> list[_ArgCmp]:
    """One comparison of socket's first argument per refused rule: each family below the largest allowed one that is
    not allowed, and every value above it (compared as 64 bits: whatever the upper half, the kernel's int is refused)."""
    top = max(SOCKET_FAMILIES)
    rules = [_ArgCmp(0, _CMP_EQ, family, 0) for family in range(top) if family not in SOCKET_FAMILIES]
    return [*rules, _ArgCmp(0, _CMP_GT, top, 0)]


def filter_fd() -> int | None:
    """A fresh readable fd holding the compiled filter (bwrap reads it to its end), or None without libseccomp."""
    program = compiled_filter()
    if program is None:
        return None
    fd = os.memfd_create("bpywright-seccomp", 0)  # not CLOEXEC: bwrap inherits it
    os.write(fd, program)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def seccomp_status() -> str:
    """For doctor: whether jobs run under the filter."""
    if compiled_filter() is None:
        return "unavailable (libseccomp.so.2 not found: jobs run without a syscall filter; install libseccomp2)"
    return (
        f"on ({len(DENIED)} syscalls denied, namespace flags of clone refused, socket families other than "
        "AF_UNIX/AF_INET/AF_INET6 refused, clone3 → ENOSYS)"
    )
