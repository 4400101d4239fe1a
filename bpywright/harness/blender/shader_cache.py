"""Mesa's shader cache: compiled once before any user code ran, laid out afresh for every job that renders."""

import os

import bpy

from .render import set_engine

MESA_CACHE = "/tmp/.bpywright-shader-cache"


def warm_shader_cache():
    """Render one small frame in a throw-away child and keep Mesa's shader cache it wrote, in memory.

    A forked child cannot reuse the zygote's GL context, so each job's render compiles its shaders again
    (seconds on a software GL). Mesa's disk cache cuts that, but it must be writable, and a cache shared
    between jobs would let one job plant compiled code for the next: instead every job gets a fresh copy
    of this trusted template (made before any user code ran) in its private /tmp.
    """
    os.environ["MESA_SHADER_CACHE_DIR"] = MESA_CACHE
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (1, 2):
                os.dup2(null, fd)
            scene = bpy.context.scene
            set_engine(scene, "workbench")
            scene.render.resolution_x = scene.render.resolution_y = 32
            scene.render.filepath = "/tmp/.bpywright-warm.png"
            bpy.ops.render.render(write_still=True)
            code = 0
        finally:
            os._exit(code)
    os.waitpid(pid, 0)
    template, total = {}, 0
    for folder, _, files in os.walk(MESA_CACHE):
        for name in files:
            path = os.path.join(folder, name)
            if os.path.islink(path) or total > 64 << 20:
                continue
            with open(path, "rb") as fh:
                template[os.path.relpath(path, MESA_CACHE)] = data = fh.read()
            total += len(data)
    return template


def lay_out_cache(template):
    """A fresh, private copy of the trusted shader cache for the next job, in the /tmp the last wipe left empty.

    Every file is created anew (never opened where something already is, never through a link): the wipe after
    each job, checked, removed the previous job's copy whatever it did to it (rewritten entries, modes 0444/0555).
    """
    for rel, data in template.items():
        path = os.path.join(MESA_CACHE, rel)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
