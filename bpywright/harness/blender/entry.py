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
"""

import array
import builtins
import ctypes
import errno
import json
import math
import os
import select
import signal
import sys
import time
import traceback

import bpy

SCHEMA_VERSION = 1
TAIL_CHARS = 4000
GEOMETRY_TYPES = {"MESH", "CURVE", "SURFACE", "META", "FONT", "CURVES", "POINTCLOUD", "VOLUME", "GPENCIL", "GREASEPENCIL"}
ENGINES = {
    "workbench": ["BLENDER_WORKBENCH"],
    "eevee": ["BLENDER_EEVEE_NEXT", "BLENDER_EEVEE"],  # 4.2-4.5 call it _NEXT; <4.2 and >=5.0 do not
    "cycles": ["CYCLES"],
}
_LIBC = ctypes.CDLL(None)
JOB_PID = [os.getpid()]  # the process allowed to write the report (the job's child, once forked)
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER = 1, 4, 36


def blender_version():
    """The running Blender's version string, e.g. '4.5.15 LTS'."""
    return bpy.app.version_string


def backend_name():
    """'blender-exe' when running inside a Blender binary, else 'bpy-module'."""
    return "bpy-module" if getattr(bpy.app, "binary_path", "") == "" else "blender-exe"


# ---------------------------------------------------------------- output capture


class CapturedOutput:
    """Redirect fds 0/1/2 (Python and C level) to files in the job dir for the script's duration."""

    def __init__(self, job_dir, prefix=""):
        self.paths = {key: os.path.join(job_dir, prefix + key + ".txt") for key in ("stdout", "stderr")}
        self.saved = {}

    def __enter__(self):
        self._flush()
        for fd in (0, 1, 2):
            self.saved[fd] = os.dup(fd)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        for fd, key in ((1, "stdout"), (2, "stderr")):
            out = os.open(self.paths[key], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(out, fd)
            os.close(out)
        self.saved_streams = (sys.stdin, sys.stdout, sys.stderr)
        # line-buffered while the script runs, so a crash loses no printed line
        self.saved_buffering = [getattr(s, "line_buffering", False) for s in (sys.stdout, sys.stderr)]
        for stream in (sys.stdout, sys.stderr):
            _reconfigure(stream, True)
        return self

    def __exit__(self, *exc):
        self._flush()
        sys.stdin, sys.stdout, sys.stderr = self.saved_streams
        for stream, buffering in zip((sys.stdout, sys.stderr), self.saved_buffering):
            _reconfigure(stream, buffering)
        for fd, saved in self.saved.items():
            os.dup2(saved, fd)
            os.close(saved)
        return False

    @staticmethod
    def _flush():
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        _LIBC.fflush(None)

    def tail(self, key):
        """The last TAIL_CHARS characters of a captured stream."""
        try:
            with open(self.paths[key], "rb") as fh:
                fh.seek(0, os.SEEK_END)
                size = fh.tell()
                fh.seek(max(0, size - TAIL_CHARS * 4))
                return fh.read().decode("utf-8", "replace")[-TAIL_CHARS:]
        except OSError:
            return ""

    def blender_errors(self, limit=50):
        """Blender's own 'Error:' report lines (operators print these instead of raising in some paths)."""
        found = []
        for key in ("stdout", "stderr"):
            try:
                with open(self.paths[key], "rb") as fh:
                    for raw in fh:
                        line = raw.decode("utf-8", "replace").rstrip()
                        if line.startswith("Error:") or ": Error:" in line or line.startswith("ERROR ("):
                            found.append(line[:500])
                            if len(found) >= limit:
                                return found
            except OSError:
                pass
        return found


def _reconfigure(stream, line_buffering):
    try:
        stream.reconfigure(line_buffering=line_buffering)
    except Exception:
        pass


# ---------------------------------------------------------------- running the script


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
    while tb_obj is not None and tb_obj.tb_frame.f_code.co_filename == __file__:
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


# ---------------------------------------------------------------- scene summary


def _geometry(ev):
    """(vertices, faces, local bbox corners) of an evaluated object, modifiers applied.

    Meshes are read in place (the evaluated object's data is the evaluated mesh); curves, text and
    the rest go through to_mesh, whose vertices also give a tighter box than their loose bound_box.
    """
    if ev.type == "MESH":
        return len(ev.data.vertices), len(ev.data.polygons), [tuple(c) for c in ev.bound_box]
    try:
        mesh = ev.to_mesh()
    except Exception:
        mesh = None
    if mesh is None:
        return None, None, [tuple(c) for c in ev.bound_box]
    counts = len(mesh.vertices), len(mesh.polygons)
    corners = [tuple(c) for c in ev.bound_box]
    if len(mesh.vertices):
        flat = array.array("f", bytes(4 * 3 * len(mesh.vertices)))
        mesh.vertices.foreach_get("co", flat)
        corners = [tuple(min(flat[i::3]) for i in range(3)), tuple(max(flat[i::3]) for i in range(3))]
    ev.to_mesh_clear()
    return counts[0], counts[1], corners


def _world_corners(matrix, corners):
    """World-space corners of the box spanned by local corners."""
    from itertools import product

    from mathutils import Vector

    lo = [min(c[i] for c in corners) for i in range(3)]
    hi = [max(c[i] for c in corners) for i in range(3)]
    return [matrix @ Vector(p) for p in product(*zip(lo, hi))]


def scene_summary(max_objects=200):
    """Objects (type, vertex/face counts, materials, modifiers), bounding box, camera/light presence."""
    scene = bpy.context.scene
    depsgraph = bpy.context.evaluated_depsgraph_get()
    objects, lo, hi = [], [math.inf] * 3, [-math.inf] * 3
    for obj in scene.objects:
        entry = {
            "name": obj.name,
            "type": obj.type,
            "vertices": None,
            "faces": None,
            "materials": [slot.material.name for slot in obj.material_slots if slot.material],
            "modifiers": [mod.type for mod in obj.modifiers],
        }
        if obj.type in GEOMETRY_TYPES:
            ev = obj.evaluated_get(depsgraph)
            entry["vertices"], entry["faces"], corners = _geometry(ev)
            entry["visible"] = bool(obj.visible_get() and not obj.hide_render)
            world = _world_corners(ev.matrix_world, corners)
            entry["bbox"] = {"min": [min(c[i] for c in world) for i in range(3)], "max": [max(c[i] for c in world) for i in range(3)]}
            if obj.visible_get():
                for corner in world:
                    for i in range(3):
                        lo[i], hi[i] = min(lo[i], corner[i]), max(hi[i], corner[i])
        if len(objects) < max_objects:
            objects.append(entry)
    bbox = None if lo[0] == math.inf else {"min": lo, "max": hi}
    return {
        "object_count": len(scene.objects),
        "objects": objects,
        "bbox": bbox,
        "camera": scene.camera is not None or any(o.type == "CAMERA" for o in scene.objects),
        "light": any(o.type == "LIGHT" for o in scene.objects),
        "frame_range": [scene.frame_start, scene.frame_end],
    }


# ---------------------------------------------------------------- framing and render


def ensure_camera_and_light(bbox):
    """Add a camera framing bbox (and a sun) when the scene has none; return what was added."""
    from mathutils import Vector

    scene = bpy.context.scene
    added = []
    if bbox is None:
        lo, hi = Vector((-1, -1, -1)), Vector((1, 1, 1))
    else:
        lo, hi = Vector(bbox["min"]), Vector(bbox["max"])
    center = (lo + hi) / 2
    radius = max((hi - lo).length / 2, 0.1)
    if scene.camera is None:
        cams = [o for o in scene.objects if o.type == "CAMERA"]
        if cams:
            scene.camera = cams[0]
        else:
            data = bpy.data.cameras.new("bpywright_camera")
            cam = bpy.data.objects.new("bpywright_camera", data)
            scene.collection.objects.link(cam)
            direction = Vector((1.0, -1.2, 0.8)).normalized()
            half_fov = min(data.angle_x, data.angle_y) / 2 if hasattr(data, "angle_y") else data.angle / 2
            distance = radius / math.sin(half_fov) * 1.1
            cam.location = center + direction * distance
            cam.rotation_euler = (-direction).to_track_quat("-Z", "Y").to_euler()
            data.clip_end = max(data.clip_end, distance + radius * 4)
            data.clip_start = min(data.clip_start, max(distance - radius * 2, 0.001))
            scene.camera = cam
            added.append("camera")
    if not any(o.type == "LIGHT" for o in scene.objects):
        data = bpy.data.lights.new("bpywright_sun", type="SUN")
        data.energy = 3.0
        sun = bpy.data.objects.new("bpywright_sun", data)
        scene.collection.objects.link(sun)
        sun.location = center + Vector((0, 0, radius * 2))
        sun.rotation_euler = (math.radians(40), math.radians(10), math.radians(30))
        added.append("light")
    return added


def set_engine(scene, engine):
    """Set the render engine by short name, trying this version's identifiers in turn."""
    last = None
    for identifier in ENGINES[engine]:
        try:
            scene.render.engine = identifier
            return identifier
        except TypeError as exc:
            last = exc
    raise last


def render_scene(job):
    """Render the scene to job['render_path'] with the job's engine/resolution/samples."""
    scene = bpy.context.scene
    identifier = set_engine(scene, job.get("engine", "workbench"))
    res = int(job.get("resolution", 512))
    scene.render.resolution_x = res
    scene.render.resolution_y = res
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.render.filepath = job["render_path"]
    samples = int(job.get("samples", 16))
    if identifier == "CYCLES":
        scene.cycles.samples = samples
        scene.cycles.device = "CPU"
        scene.cycles.use_denoising = False  # OIDN is missing from some builds (Debian's 3.4)
    elif identifier.startswith("BLENDER_EEVEE"):
        if hasattr(scene.eevee, "taa_render_samples"):
            scene.eevee.taa_render_samples = samples
    bpy.ops.render.render(write_still=True)
    return {"path": job["render_path"], "width": res, "height": res, "engine": identifier, "nonblank_fraction": None}


# ---------------------------------------------------------------- one job (runs in the forked child)


def run_job(job, timings):
    """Run one job end to end and return the report dict (never raises for script failures)."""
    script_path = job["script_path"]
    file_path = job.get("file_path") or script_path
    report = {
        "schema_version": SCHEMA_VERSION,
        "job_id": job["job_id"],
        "status": "ok",
        "blender_version": blender_version(),
        "backend": backend_name(),
        "exception": None,
        "stdout": "",
        "stderr": "",
        "blender_errors": [],
        "timings": timings,
        "scene": None,
        "render": None,
        "exit": None,
        "sandbox": job.get("sandbox", "rlimits-only"),
        "camera_light_added": [],
    }
    os.chdir(job["out_dir"])
    # What `blender -b --python SCRIPT -- ARGS` gives a script: its folder first on sys.path, ARGS after '--'.
    sys.argv = ["blender", "-b", "--python", file_path] + (["--"] + list(job["args"]) if job.get("args") else [])
    sys.path[0:1] = [os.path.dirname(file_path)]
    capture = CapturedOutput(job["job_dir"])
    t = time.perf_counter()
    with capture:
        exc = exec_script(script_path, file_path)
    timings["script"] = time.perf_counter() - t
    _guard_forked_child()
    if exc is not None:
        report["status"] = "rejected" if exc.pop("denied") else "error"
        report["exception"] = exc
    try:
        report["scene"] = scene_summary()
    except Exception as err:  # the script may leave the scene in a state we cannot walk
        report["stderr"] += f"bpywright: scene summary failed: {err}\n"
    if exc is None and job.get("render_path"):
        t = time.perf_counter()
        try:
            with CapturedOutput(job["job_dir"], prefix="render_"):
                bbox = report["scene"]["bbox"] if report["scene"] else None
                report["camera_light_added"] = ensure_camera_and_light(bbox)
                report["render"] = render_scene(job)
        except Exception as err:
            report["status"] = "error"
            report["exception"] = exception_info(err, file_path)
            report["exception"].pop("denied")
            report["exception"]["message"] = f"render failed: {err}"
        timings["render"] = time.perf_counter() - t
    report["stdout"] = capture.tail("stdout")
    report["stderr"] = capture.tail("stderr") + report["stderr"]
    report["blender_errors"] = capture.blender_errors()
    return report


def _guard_forked_child():
    """A process forked by the script must never act as the job: end it quietly."""
    if os.getpid() != JOB_PID[0]:
        os._exit(0)


def write_report(report, path):
    """Write the report atomically (tmp file + rename), so a reader never sees half a file."""
    _guard_forked_child()
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(report, fh, default=str)
    os.replace(tmp, path)


def reset_scene(empty=False):
    """Back to factory startup data (the state `blender -b --factory-startup` gives a script)."""
    bpy.ops.wm.read_homefile(use_factory_startup=True, load_ui=False, use_empty=empty)


def child_main(job, control_fd):
    """The forked child: drop every channel to the host, run the job, write its report, exit."""
    code = 70
    try:
        JOB_PID[0] = os.getpid()
        _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        os.close(control_fd)
        # No way back to the zygote's stdin (job lines) or its log: the script gets /dev/null until capture.
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.close(null)
        timings = {"startup": 0.0, "reset": 0.0, "script": 0.0, "render": 0.0, "total": 0.0}
        t0 = time.perf_counter()
        if job.get("empty_scene", False):
            reset_scene(True)
        timings["reset"] = time.perf_counter() - t0
        report = run_job(job, timings)
        timings["total"] = time.perf_counter() - t0
        write_report(report, job["report_path"])
        code = 0 if report["status"] == "ok" else 1
    finally:
        os._exit(code)  # never run interpreter teardown (bpy can segfault there) or return into the zygote


# ---------------------------------------------------------------- the zygote (serve mode)


def become_subreaper():
    """PR_SET_CHILD_SUBREAPER: orphaned grandchildren reparent to the zygote so they can be reaped."""
    try:
        _LIBC.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
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
    import shutil

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
    """A fresh, private copy of the trusted shader cache for the next job."""
    for rel, data in template.items():
        path = os.path.join(MESA_CACHE, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)


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


def serve(control_fd, own_pid_namespace, warm=False):
    """Fork a child per job line on stdin; report each job's end on control_fd. Never runs user code."""
    become_subreaper()
    _LIBC.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # children cannot read or ptrace the zygote's memory
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    control = os.fdopen(control_fd, "w", buffering=1)
    mounts = mount_points()
    template = {}
    if warm and own_pid_namespace:  # /tmp is private only inside the sandbox
        template = warm_shader_cache()
        empty_private_dirs(mounts)
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
            empty_private_dirs(mounts)
        outcome["done"] = job["job_id"]
        control.write(json.dumps(outcome) + "\n")


def main(argv):
    """Parse the entry's own arguments (after '--' when run by a Blender executable)."""
    if "--" in argv:
        argv = argv[argv.index("--") + 1 :]
    if "--serve" not in argv or "--control-fd" not in argv:
        sys.stderr.write("usage: entry.py --serve --control-fd N [--own-pid-namespace] [--warm-render]\n")
        os._exit(2)
    serve(int(argv[argv.index("--control-fd") + 1]), "--own-pid-namespace" in argv, "--warm-render" in argv)
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
