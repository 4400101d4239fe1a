"""Borrowed helpers: a function the script calls but never defines, copied from the prompt's example or an exemplar."""

from __future__ import annotations

from bpywright.graph.model.prompting import render
from bpywright.graph.repair.borrow import borrow_helpers, code_blocks

from .samples import src

EXEMPLAR = src("""
import bpy, math

def aim(obj, target):
    obj.rotation_euler = direction(obj.location, target).to_track_quat("-Z", "Y").to_euler()

def direction(a, b):
    from mathutils import Vector
    return Vector(b) - Vector(a)

def unrelated():
    return 1
""")


def test_the_prompts_own_example_defines_link() -> None:
    blocks = code_blocks(render("generate_system", version="4.5"))
    script = "import bpy\n\nbox = link(bpy.data.objects.new('Box', None))\n"
    new, names = borrow_helpers(script, "NameError: name 'link' is not defined", blocks) or ("", [])
    assert names == ["link"]
    assert new.index("def link(obj):") < new.index("box = link(") and new.startswith("import bpy\n")
    compile(new, "new.py", "exec")


def test_a_helper_comes_with_the_helpers_it_calls_and_nothing_else() -> None:
    script = src("""
    import bpy
    \"\"\"A camera aimed at the origin.\"\"\"
    cam = bpy.context.scene.camera
    aim(cam, (0, 0, 0))
    """)
    new, names = borrow_helpers(script, "NameError: name 'aim' is not defined", ["x = (", EXEMPLAR]) or ("", [])
    assert names == ["aim", "direction"] and "def unrelated" not in new
    assert new.index('"""A camera aimed at the origin."""') < new.index("def aim") < new.index("cam = bpy.context")


def test_nothing_is_borrowed_without_the_error_or_a_definition() -> None:
    script = "import bpy\naim(None, None)\n"
    assert borrow_helpers(script, "AttributeError: 'NoneType' object has no attribute 'x'", [EXEMPLAR]) is None
    assert borrow_helpers(script, "NameError: name 'add_floor' is not defined", [EXEMPLAR]) is None
    defined = "import bpy\ndef aim(a, b):\n    pass\naim(None, None)\n"
    assert borrow_helpers(defined, "NameError: name 'aim' is not defined", [EXEMPLAR]) is None
    assert borrow_helpers("import bpy\naim(None\n", "NameError: name 'aim' is not defined", [EXEMPLAR]) is None
