"""Runs inside Blender: execute one user script (or serve many), summarise the scene, render, report.

Loaded by path, never imported as part of the package: standard library + bpy/mathutils only,
and Python 3.10-compatible so that older Blender executables (Debian's 3.4) can run it.

    python -I entry.py --serve --control-fd N [--own-pid-namespace]
    blender -b --factory-startup -noaudio --python-exit-code 1 --python entry.py -- --serve --control-fd N

The process started is a zygote: it imports bpy once, then for every job line on stdin forks a child
that runs the user's script in a pristine copy of the factory scene, writes the job's report and
exits. The zygote never runs user code: it waits for the child (killing it at the job's timeout),
kills every process the job left behind, empties the private /tmp and /dev/shm, and only then
writes "done" (with the child's exit status) on the control fd, which no child holds. Nothing a
job does (threads, monkeypatches, daemons, files in /tmp) reaches the next job.

The work lives in the modules beside this file, one concern each: capture (the script's output), execute (the
script itself), summary (the scene; its readers object_facts, animation and materials share readings), render, job
(one job in the forked child), zygote (the serve loop), processes (waiting and reaping), private_dirs (wiping /tmp
and /dev/shm), shader_cache, libc, schema (the report's version).
They are loaded by this file's path as one private package, before any user code runs: neither `-I` nor Blender
puts this folder on sys.path, and the user's script, which gets its own folder there, can neither shadow nor
import them by a plain name.
"""

import importlib
import importlib.machinery
import importlib.util
import os
import sys

PACKAGE = "_bpywright_blender"  # the siblings' package name: no user module has it


def load(module):
    """A sibling module of this file, imported by path as PACKAGE.module (its own relative imports resolve the same way)."""
    if PACKAGE not in sys.modules:
        spec = importlib.machinery.ModuleSpec(PACKAGE, None, is_package=True)
        spec.submodule_search_locations = [os.path.dirname(os.path.abspath(__file__))]
        sys.modules[PACKAGE] = importlib.util.module_from_spec(spec)
    writes_bytecode = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # leave the harness folder as shipped (read-only inside the sandbox anyway)
    try:
        return importlib.import_module(PACKAGE + "." + module)
    finally:
        sys.dont_write_bytecode = writes_bytecode


def main(argv):
    """Parse the entry's own arguments (after '--' when run by a Blender executable)."""
    if "--" in argv:
        argv = argv[argv.index("--") + 1 :]
    if "--serve" not in argv or "--control-fd" not in argv:
        sys.stderr.write("usage: entry.py --serve --control-fd N [--own-pid-namespace] [--warm-render]\n")
        os._exit(2)
    zygote = load("zygote")
    zygote.serve(int(argv[argv.index("--control-fd") + 1]), "--own-pid-namespace" in argv, "--warm-render" in argv)
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
