"""What the add-on vouches for before Run in scene, read from the text alone: a part-plan script rebuilt byte for byte
from its own data, any other script screened statically. The hostile scripts here pass a sandboxed Check (they do
nothing there) and act outside it; the screen must flag each, and no clean script may need a confirmation."""

from __future__ import annotations

import importlib
import sys
import types

import pytest

from bpywright.addon.build import SOURCE
from bpywright.graph.plans.build import BODY, build_script
from bpywright.graph.plans.parts import Part, Plan
from bpywright.recipes import all_recipes


@pytest.fixture(scope="module")
def ext() -> types.ModuleType:
    """The extension's bpy-free modules, imported without its bpy __init__."""
    package = types.ModuleType("bpywright_ext_screen")
    package.__path__ = [str(SOURCE)]
    sys.modules[package.__name__] = package
    for name in ("screen", "planscript", "session"):
        setattr(package, name, importlib.import_module(f"{package.__name__}.{name}"))
    return package


# Each acts only outside the sandbox; the sandboxed run sees a clean, silent script.
HOSTNAME = """import bpy
import socket
if socket.gethostname() != "sandbox":
    with open("/tmp/pwned", "w") as f:
        f.write("ran as the user")
bpy.ops.mesh.primitive_cube_add()
"""
UID = """import bpy
import os
if os.getuid() != 65534:
    os.system("touch ~/pwned")
bpy.ops.mesh.primitive_cube_add()
"""
PID1 = """import bpy
if b"bwrap" not in open("/proc/1/cmdline", "rb").read():
    bpy.ops.wm.save_as_mainfile(filepath="/tmp/stolen.blend")
"""
BUILTINS = """import bpy
w = __builtins__["open"] if isinstance(__builtins__, dict) else __builtins__.open
w("/tmp/pwned", "w").write("x")
"""
GETATTR_IMPORT = """import bpy
getattr(__import__('o' + 's'), 'sys' + 'tem')('id > /tmp/pwned')
"""
DRIVER = """import bpy
bpy.ops.mesh.primitive_cube_add()
d = bpy.context.object.driver_add("location", 0).driver
d.type = "SCRIPTED"
d.expression = "__import__('os').system('id > /tmp/pwned') or 0"
"""
HANDLER = """import bpy
def later(scene, *args):
    pass
bpy.app.handlers.depsgraph_update_post.append(later)
"""
TEXT_MODULE = """import bpy
t = bpy.data.texts.new("x.py")
t.from_string("print('later')")
t.use_module = True
t.as_module()
"""
ALIASED_OPS = """import bpy
o = bpy.ops
o.wm.quit_blender()
"""
FORMAT_LEAK = """import bpy
print("{0.__class__.__init__.__globals__}".format(bpy))
"""
EXEC = """import bpy
exec(bytes.fromhex("7072696e74282268692229").decode())
"""
GETATTR_COMPUTED = """import bpy
name = "ops"
getattr(bpy, name)
"""

HOSTILE = {
    "hostname": (HOSTNAME, {"import socket", "open"}),
    "uid": (UID, {"import os"}),
    "pid1": (PID1, {"open", "bpy.ops.wm"}),
    "builtins": (BUILTINS, {"__builtins__"}),
    "getattr_import": (GETATTR_IMPORT, {"__import__"}),
    "driver": (DRIVER, {"d.expression"}),
    "handler": (HANDLER, {"bpy.app.handlers"}),
    "text_module": (TEXT_MODULE, {"bpy.data.texts", "t.use_module", "t.as_module"}),
    "aliased_ops": (ALIASED_OPS, {"bpy.ops", "o.wm"}),
    "format_leak": (FORMAT_LEAK,),
    "exec": (EXEC, {"exec"}),
    "getattr_computed": (GETATTR_COMPUTED, {"getattr"}),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_hostile_script_is_flagged_and_needs_a_confirmation(ext, name: str) -> None:
    script, *expected = HOSTILE[name]
    flags = ext.screen.screen(script)
    codes = {f.code for f in flags}
    assert flags, f"{name}: nothing flagged"
    if expected:
        assert expected[0] <= codes, (name, codes)
    vouch = ext.session.vouch(script)
    assert vouch.how == "flagged" and vouch.flags == tuple(flags)
    assert all(f.line >= 1 and f.reason for f in flags)


def test_a_flag_names_the_line_the_code_and_why(ext) -> None:
    flags = ext.screen.screen(HOSTNAME)
    assert [str(f) for f in flags if f.code == "import socket"] == [
        "line 2: import socket: a module outside bpy, bmesh, mathutils, math and random"
    ]
    assert any(f.line == 4 and f.code == "open" and f.reason == "opens a file" for f in flags)
    driver = [f for f in ext.screen.screen(DRIVER) if f.code == "d.expression"]
    assert driver and "driver expression" in driver[0].reason


def test_a_script_that_does_not_parse_is_flagged_not_passed(ext) -> None:
    assert [f.code for f in ext.screen.screen("import bpy\nif True print(1)\n")] == ["syntax"]


PLAN = Plan(
    object="a toy car: red, with 'quotes'",
    parts=[
        Part(name="body", shape="box", size=(1.23456, 2.0, 0.5), location=(0.0, -0.0, 0.25), color=(0.8, 0.08, 0.06)),
        Part(name="wheel 'front' \"left\"", shape="cylinder", size=(0.3, 0.3, 0.1), location=(-0.5, -0.7, 0.15), rotation=(0.0, 90.0, 0.0)),
        Part(name="lamp", shape="sphere", size=(0.1, 0.1, 0.1), location=(0.0, -1.0, 0.4), color=(0.95, 0.82, 0.15)),
        Part(name="ring", shape="torus", size=(0.4, 0.4, 0.1), rotation=(12.34567, 0.0, -45.0)),
    ],
)


def test_the_add_ons_copy_of_the_plan_builder_is_the_services(ext) -> None:
    assert ext.planscript.BODY == BODY  # the fixed body, character for character
    for version in ("4.2", "4.5", "5.2"):
        script = build_script(PLAN, version)
        assert ext.planscript.rebuild(script) == script and ext.planscript.is_plan_script(script)
        assert ext.session.vouch(script).how == "plan"  # no confirmation, no screening needed


@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s.replace("clear_scene()\nparts", "clear_scene()\nimport os\nparts"),  # code added to the body
        lambda s: s.replace("'body'", "__import__('os').getcwd() or 'body'"),  # code in the data
        lambda s: s.replace("(1.2346, 2.0, 0.5)", "(1.23456, 2.0, 0.5)"),  # data not as the builder writes it
        lambda s: s.replace("'box'", "'hexagon'"),  # a shape the builder does not know
        lambda s: s.replace("PARTS = [\n", "PARTS = [\n    ('x', 'box', (1, 1, 1), (0, 0, 0), (0, 0, 0), (1, 1, 1)) if print() else\n"),
        lambda s: s + "\nprint('one more line')\n",
        lambda s: s.replace("# a toy car", "# a toy car\nimport os #", 1),  # a second header line
    ],
)
def test_any_edit_beyond_the_builders_own_output_is_not_a_plan_script(ext, edit) -> None:
    edited = edit(build_script(PLAN, "4.5"))
    assert edited != build_script(PLAN, "4.5")
    assert not ext.planscript.is_plan_script(edited)
    assert ext.session.vouch(edited).how != "plan"


def test_clean_scripts_need_no_confirmation(ext) -> None:
    clean = "import bpy\nimport math\n\nbpy.ops.mesh.primitive_cube_add(size=2.0)\nbpy.context.object.rotation_euler.z = math.radians(30)\n"
    assert ext.screen.screen(clean) == [] and ext.session.vouch(clean).how == "screen"
    main = "import bpy\nfrom bpy.types import Object\n\n\ndef build() -> Object:\n    return bpy.context.object\n\n\nif __name__ == '__main__':\n    build()\n"
    assert ext.screen.screen(main) == []
    plan = build_script(PLAN, "4.5")
    assert ext.screen.screen(plan) == []  # even screened, the builder's output is clean


def test_how_many_bundled_recipes_the_screen_passes(ext) -> None:
    """The bundled recipes are hand-written modelling scripts: most should pass, the flagged ones for a named reason."""
    results = {r.name: ext.screen.screen(r.source) for r in all_recipes()}
    flagged = {name: sorted({f.code for f in flags}) for name, flags in results.items() if flags}
    print("recipes flagged:", len(flagged), "of", len(results), flagged)
    assert len(flagged) <= len(results) // 2, flagged
