"""bench/generation.py against an OpenAI-compatible endpoint (the FAKE one, scripted): modes, caching, the table, the paired ratio.

The FAKE model's first script always raises; its heal reply runs. One-shot therefore fails on every prompt, and the loop heals
every prompt. The numbers in the table come from the real Blender runs of those scripts, not from the FAKE server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bpywright.graph.model.fake_llm import FakeLLM, critic_json

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data" / "blendnet" / "CADBench.jsonl"
pytestmark = pytest.mark.blender  # the bench runs every script in Blender

BROKEN = "```python\nimport bpy\n\nraise ValueError('the model got the dimensions wrong')\n```\n"
FIXED = """```python
import bpy

for obj in list(bpy.data.objects):
    bpy.data.objects.remove(obj, do_unlink=True)
bpy.ops.mesh.primitive_cube_add(size=2.0)
cam = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
bpy.context.scene.collection.objects.link(cam)
cam.location = (6.0, -6.0, 4.5)
cam.rotation_euler = (1.1, 0.0, 0.8)
bpy.context.scene.camera = cam
sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", type="SUN"))
bpy.context.scene.collection.objects.link(sun)
```
"""


def bench(base_url: str, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BPYWRIGHT_ARTIFACTS": str(out / "artifacts"), "BPYWRIGHT_LLM_BASE_URL": ""}
    cmd = [sys.executable, str(ROOT / "bench" / "generation.py"), "--base-url", base_url, "--model", "fake-coder", "--n", "3"]
    cmd += ["--modes", "one-shot,loop", "--max-rounds", "2", "--budget", "300", "--out", str(out / "bench"), *extra]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900, cwd=ROOT)


@pytest.mark.skipif(not DATA.is_file(), reason="CADBench.jsonl is read from ../shared/data")
def test_one_shot_vs_loop_table_from_real_runs_and_a_resumed_run_asks_nothing(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        # Replies enough for every round: the FIXED cube answers no prompt's named parts, so the loop keeps repairing it until its rounds end
        fake.script("generate", *([BROKEN] * 20)).script("heal", *([FIXED] * 20)).script("critic", *([critic_json(0.9, "a cube")] * 40))
        url = fake.base_url
        done = bench(url, tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
        asked = len(fake.chat_requests)
        table = (tmp_path / "bench" / "generation-fake-coder.md").read_text(encoding="utf-8")
        assert "| one-shot | 3 | 100.0 % |" in table  # the FAKE's first script raises in Blender: a run failure
        assert "| loop | 3 | 0.0 % |" in table  # healed by the LLM's reply, which ran
        loop_line = next(line for line in table.splitlines() if line.startswith("| loop |"))
        assert loop_line.endswith("| 100.0 % |")  # its own first script failed every time: the in-run baseline
        assert "- loop: run failure 0.0 % vs one-shot 100.0 % on 3 prompts" in table
        assert "ValueError: the model got the dimensions wrong" in table  # the failures list says why one-shot failed
        rows = [json.loads(p.read_text()) for p in sorted((tmp_path / "bench" / "fake-coder" / "loop").glob("*.json"))]
        assert len(rows) == 3 and all(r["ran"] and r["origin"] == "heal-llm" and r["rounds"] >= 1 for r in rows)
        loop_dir = tmp_path / "bench" / "fake-coder" / "loop"
        assert all(r["render"] == f"{r['id']}.png" and (loop_dir / r["render"]).is_file() for r in rows)  # kept beside the row
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        assert head and all(r["code"].rstrip("+") == head for r in rows)  # a long run spans commits: each row says its own
        assert f"Rows by the code version that wrote them: {rows[0]['code']} (6)" in table
        assert (tmp_path / "bench" / "generation-fake-coder.png").is_file()
        # every request of a row carries the row's own seed, so a row comes out the same whatever ran before it
        shots = [json.loads(p.read_text()) for p in (tmp_path / "bench" / "fake-coder" / "one-shot").glob("*.json")]
        seeds = {r["seed"] for r in rows + shots}
        assert len(seeds) == 6 and all(isinstance(s, int) for s in seeds)
        assert {body.get("seed") for body in fake.chat_requests} == seeds

        again = bench(url, tmp_path)  # every (prompt, mode) is cached: a resumed run asks the model nothing
        assert again.returncode == 0, again.stderr[-3000:]
        assert len(fake.chat_requests) == asked
        assert (tmp_path / "bench" / "generation-fake-coder.md").read_text(encoding="utf-8") == table
    (tmp_path / "bench" / "generation-fake-coder.md").unlink()
    only = bench(url, tmp_path, "--report-only")  # the endpoint is gone: the table comes from the cache alone
    assert only.returncode == 0, only.stderr[-3000:]
    assert (tmp_path / "bench" / "generation-fake-coder.md").read_text(encoding="utf-8") == table


def test_contact_sheet_puts_each_prompt_in_one_column_for_every_mode(tmp_path: Path) -> None:
    """A prompt missing from a mode leaves its cell empty instead of shifting the prompts after it under the wrong column."""
    import importlib.util

    from PIL import Image

    spec = importlib.util.spec_from_file_location("generation_bench", ROOT / "bench" / "generation.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)

    colours = {"a": (220, 30, 30), "b": (30, 220, 30), "c": (30, 30, 220)}
    for mode in ("one-shot", "loop"):
        (tmp_path / "m" / mode).mkdir(parents=True)
        for prompt_id, colour in colours.items():
            Image.new("RGB", (16, 16), colour).save(tmp_path / "m" / mode / f"{prompt_id}.png")
    results = {
        "one-shot": [{"id": "a", "render": "a.png"}, {"id": "c", "render": "c.png"}],  # b not measured in this mode
        "loop": [{"id": "a", "render": None}, {"id": "b", "render": "b.png"}, {"id": "c", "render": "c.png"}],  # a did not run
    }
    sheet = gen.contact_sheet(results, tmp_path / "generation-m.png", ["a", "b", "c"], cell=32, per_line=2)
    with Image.open(sheet) as img:
        assert img.size == (90 + 2 * 32, 2 * 2 * 32)  # two modes, two lines each (3 prompts, 2 to a line)

        def centre(mode_index: int, prompt: int) -> tuple[int, int, int]:
            line, col = divmod(prompt, 2)
            return img.getpixel((90 + col * 32 + 24, (mode_index * 2 + line) * 32 + 28))

        assert centre(0, 0) == colours["a"] and centre(0, 2) == colours["c"]  # c stays in prompt 3's cell
        assert centre(0, 1) == (255, 255, 255)  # not measured: empty
        assert centre(1, 0) == (200, 200, 200)  # measured, no script ran: grey
        assert centre(1, 1) == colours["b"] and centre(1, 2) == colours["c"]
