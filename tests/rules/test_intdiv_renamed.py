"""int-from-division (Python 2 `/` given to an int keyword) and renamed-helper (camelCase ↔ snake_case), each failing
on real Blender before the heal and running after it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bpywright.harness.report import RunReport
from bpywright.rules.families.imports.renamed import renamed_to
from bpywright.rules.healer import fix_file

from .helpers import healed_in_blender, healed_once, src

pytestmark = pytest.mark.blender


def test_bmesh_keyword_given_a_float_from_division_gets_int(blender_run: Callable[[str], RunReport]) -> None:
    script = src("""
        import bpy, bmesh
        rings = 12
        bm = bmesh.new()
        bmesh.ops.create_cone(bm, cap_ends=True, segments=rings / 2, radius1=1.0, radius2=0.0, depth=2.0)
        me = bpy.data.meshes.new("cone")
        bm.to_mesh(me)
        """)
    outcome, _ = healed_in_blender(blender_run, script, 'keyword "segments" expected an int, not float')
    assert "segments=int(rings / 2)" in outcome.script and outcome.rounds[0].explained == "int-from-division"


def test_operator_keyword_and_range_given_a_float_get_int(blender_run: Callable[[str], RunReport]) -> None:
    script = src("""
        import bpy
        sides = 9
        for i in range(sides / 3):
            bpy.ops.mesh.primitive_cone_add(vertices=sides * 2 / 3, location=(i * 3, 0, 0))
        """)
    outcome, report = healed_in_blender(
        blender_run, script, "cannot be interpreted as an integer", check="\nassert len(bpy.data.objects) == 6\n"
    )
    assert "range(int(sides / 3))" in outcome.script and "vertices=int(sides * 2 / 3)" in outcome.script


def test_int_from_division_only_touches_the_failing_call() -> None:
    script = """
        import bmesh
        a = bmesh.ops.create_cone(bm, segments=n / 2)
        b = bmesh.ops.create_cone(bm, segments=n / 2)
        """
    result = healed_once(script, "TypeError", 'create_cone: keyword "segments" expected an int, not float', 2)
    assert result.script.count("int(n / 2)") == 1 and "b = bmesh.ops.create_cone(bm, segments=n / 2)" in result.script
    untouched = healed_once(script, "TypeError", 'create_cone: keyword "radius1" expected an int, not float', 2)
    assert not untouched.changed


def test_renamed_helper_needs_exactly_one_name_that_normalises_the_same() -> None:
    assert renamed_to("rainbowLights", ("rainbow_lights", "three_point")) == "rainbow_lights"
    assert renamed_to("rainbowLights", ("rainbow_lights", "RainbowLights")) is None  # two candidates: no guess
    assert renamed_to("rainbowLights", ("rainbow_light",)) is None
    error = "AttributeError: module 'lights' has no attribute 'rainbowLights'"
    script = "import lights\nlights.rainbowLights(3)\nlights.rainbowLights(4)\n"
    fixed = fix_file(script, error, 2, module_names=("rainbow_lights",))
    assert fixed.script == "import lights\nlights.rainbow_lights(3)\nlights.rainbowLights(4)\n"
    assert not fix_file(script, error, 2).changed  # without the module's names (not the project's module): nothing
    imported = fix_file(
        "from lights import rainbowLights\nrainbowLights()\n",
        "ImportError: cannot import name 'rainbowLights' from 'lights' (x)",
        1,
        module_names=("rainbow_lights",),
    )
    assert imported.script.startswith("from lights import rainbow_lights as rainbowLights\n")


def test_renamed_helper_heals_on_blender(tmp_path: Path, capsys) -> None:
    from bpywright.cli import main

    tmp_path.chmod(0o755)  # the job reads of its project only what any user may (it runs as an unprivileged host uid)
    (tmp_path / "lights.py").write_text(
        "import bpy\n\n\ndef rainbow_lights(n):\n"
        "    for i in range(n):\n        data = bpy.data.lights.new(f'L{i}', 'POINT')\n"
        "        bpy.context.collection.objects.link(bpy.data.objects.new(f'L{i}', data))\n"
    )
    (tmp_path / "show.py").write_text("import bpy\nimport lights\n\nlights.rainbowLights(3)\nassert len(bpy.data.lights) == 4\n")
    assert main(["run", str(tmp_path / "show.py")]) != 0
    assert "has no attribute 'rainbowLights'" in capsys.readouterr().out
    assert main(["heal", str(tmp_path / "show.py"), "--write"]) == 0
    assert "lights.rainbow_lights(3)" in (tmp_path / "show.py").read_text()
    assert "renamed-helper" in capsys.readouterr().out


def test_a_division_reaching_an_int_keyword_through_a_dict_or_kwargs_gets_int(blender_run: Callable[[str], RunReport]) -> None:
    script = src("""
        import bpy, bmesh

        def cone(bm, **options):
            return bmesh.ops.create_cone(bm, cap_ends=True, radius1=1.0, radius2=0.0, depth=2.0, **options)

        def cones(bm, n):
            params = {"segments": n / 2, "cap_tris": False}
            bmesh.ops.create_cone(bm, cap_ends=True, radius1=1.0, radius2=0.0, depth=2.0, **params)

        bm = bmesh.new()
        rings = 12
        cones(bm, rings)
        cone(bm, segments=rings / 3)
        me = bpy.data.meshes.new("cones")
        bm.to_mesh(me)
        """)
    outcome, _ = healed_in_blender(
        blender_run,
        script,
        'keyword "segments" expected an int, not float',
        check="\nassert len(me.polygons) >= 6 + 4  # both cones, their sides\n",
    )
    assert '"segments": int(n / 2)' in outcome.script and "cone(bm, segments=int(rings / 3))" in outcome.script
