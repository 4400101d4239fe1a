"""Snapshot tests of the prompt templates' rendering (BPYWRIGHT_UPDATE_SNAPSHOTS=1 rewrites the snapshots after a deliberate change)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bpywright.graph.loop.state import Critique, ExemplarBrief, SymbolBrief
from bpywright.graph.model.prompting import critic_messages, generator_messages, heal_messages, replacement_request
from bpywright.harness.report import ObjectSummary, SceneSummary

from .samples import INDEX_BUG, THREE_CUBES

pytestmark = pytest.mark.blender

SNAPSHOTS = Path(__file__).with_name("snapshots")
CUBE = SymbolBrief(
    name="bpy.ops.mesh.primitive_cube_add",
    kind="operator",
    signature="(size=2.0, location=(0.0, 0.0, 0.0))",
    description="Construct a cube mesh",
    uri="https://docs.blender.org/api/4.5/bpy.ops.mesh.html#bpy.ops.mesh.primitive_cube_add",
)
COLOUR = SymbolBrief(
    name="bpy.types.Material.diffuse_color", kind="property", signature=": float array of 4 items", description="Diffuse color"
)
EXAMPLE = ExemplarBrief(id="0123456789abcdef", prompt="Three red cubes", script=THREE_CUBES)


def as_text(messages: list[dict[str, str]]) -> str:
    return "\n".join(f"=== {m['role']} ===\n{m['content']}" for m in messages)


def check(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("BPYWRIGHT_UPDATE_SNAPSHOTS") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"missing snapshot {path}: run with BPYWRIGHT_UPDATE_SNAPSHOTS=1 and review it"
    assert text == path.read_text(encoding="utf-8")


def test_generator_prompt() -> None:
    check("generate", as_text(generator_messages("three red cubes in a row", "4.5", [CUBE, COLOUR], [EXAMPLE])))


def test_generator_prompt_without_symbols_or_exemplars() -> None:
    text = as_text(generator_messages("a cube", "4.5", [], []))
    check("generate_bare", text)
    assert "API reference" not in text and "Verified scripts" not in text


def test_heal_prompt_for_a_runtime_error() -> None:
    failure = 'IndexError: list index out of range (line 12)\nTraceback (most recent call last):\n  File "script.py", line 12'
    check(
        "heal_error",
        as_text(heal_messages("three red cubes in a row", "4.5", INDEX_BUG, failure=failure, fix_block="", critique=None, symbols=[CUBE])),
    )


def test_heal_prompt_for_a_rejection_and_the_replacement_turn() -> None:
    critique = Critique(score=0.3, reasons=["the cubes are stacked"], suggested_fix="offset them along X")
    messages = heal_messages(
        "three red cubes in a row",
        "4.5",
        THREE_CUBES,
        failure="",
        fix_block="line 3: something [ruff F821, blocking]",
        critique=critique,
        symbols=[],
    )
    check("heal_rejected", as_text([*messages, replacement_request("hunk 1 (at line 5): its context/removed lines are not in the script")]))


def test_critic_prompt() -> None:
    scene = SceneSummary(
        object_count=4,
        objects=[
            ObjectSummary(name="Cube0", type="MESH", vertices=8, faces=6, materials=["Red"]),
            ObjectSummary(name="Camera", type="CAMERA"),
            ObjectSummary(name="Cube1", type="MESH", vertices=8, faces=6, modifiers=["Bevel"]),
            ObjectSummary(name="Sun", type="LIGHT"),
        ],
        bbox=None,
        camera=True,
        light=True,
    )
    checks = {"run": True, "lint": True, "render": True, "scene: 3 cube": False}
    text = as_text(
        critic_messages("three red cubes", THREE_CUBES, checks, ["the scene has 2 cube object(s)"], scene, "64x64, 8% non-blank", 0.75)
    )
    check("critic", text)
    # The small critic rejected scenes for the camera and lights the generator was told to add: they are listed apart.
    scene_part = text.split("Scene built by the script")[1].split("Staging")[0]
    assert "Cube1" in scene_part and "Camera" not in scene_part and "Sun" not in scene_part
    assert "Staging (ignore): Camera, Sun" in text and "told to add" not in text  # the local model read "told to" as asked for


@pytest.mark.parametrize("name", ["generate", "generate_bare", "heal_error", "heal_rejected", "critic"])
def test_snapshots_are_committed_text(name: str) -> None:
    assert (SNAPSHOTS / f"{name}.txt").read_text(encoding="utf-8").strip()


@pytest.mark.runtimes
@pytest.mark.parametrize("version", ["4.5", "5.2"])
def test_the_system_prompts_example_runs_on_its_version(version: str, runtime, tmp_path: Path) -> None:
    """The calls the generator is told exist must run on the version it is told they run on (a small model copies them)."""
    import re

    from bpywright.harness.options import RunOptions
    from bpywright.harness.pool import WorkerPool

    system = generator_messages("a red chair", version, [], [])[0]["content"]
    found = re.search(r"```python\n(.*?)```", system, re.S)
    assert found is not None and f"Blender {version}" in system
    script = tmp_path / "example.py"
    script.write_text(found.group(1), encoding="utf-8")
    options = runtime(version).run_options(RunOptions(render=False, timeout=60))
    with WorkerPool(1, options) as pool:
        report = pool.run(script)
    assert report.ok, report.failure_with_line
    assert report.scene is not None and report.scene.object_count == 4
