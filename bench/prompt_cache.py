"""Prompt processing paid once: the local server's options on the loop's own sequence of calls.

    .venv/bin/python bench/prompt_cache.py [--model qwen2.5-coder-1.5b] [--repeats 1] [--json out.json]

On this CPU a plan-strategy request spends most of its wait reading prompts, not writing: a benchmark row's six calls
waited 18-59 s each for their first token (1,300-2,000 prompt tokens at ~40 tokens/s) and wrote 80-480 tokens. The
server keeps one conversation's cache: the critic's prompt evicts the plan's, so the plan's revision reads its system
prompt and library examples (1,200+ tokens) again, and the next review its own prefix.

The sequence, as a plan request runs it (greedy, the project's own prompts): plan → critique → revised plan → critique.
Each configuration gets a fresh server (models/server.py, as `make run` starts it) and runs the sequence `--repeats`
times on different requests; configurations alternate. Reported per call: seconds to the first token (prompt
processing) and in all, and whether the answers are identical across configurations (they must be: greedy, same model).
The server's resident memory is read after each sequence.

- today: the options before this benchmark (llama_cpp.server's defaults: logits_all on, no prompt cache);
- logits_all off: no logits kept for every prompt token (the server's default keeps n_ctx x vocabulary floats, 5 GB
  for Qwen2.5's 152k-token vocabulary at n_ctx 8192; nothing in bpywright reads them);
- + RAM prompt cache: llama-cpp-python's LlamaRAMCache keeps the states of recent prompts and restores the one with the
  longest shared prefix before evaluating.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REQUESTS = (
    "Please create a 3D model of a drum set. Include a bass drum, snare drum, and a couple of tom-toms.",
    "Create a bookshelf with five evenly spaced shelves. Ensure it has a back panel and is sturdy.",
    "Design a desk lamp with a round base, an adjustable arm and a cone-shaped shade.",
)
CONFIGS: dict[str, tuple[str, ...]] = {
    "today (server defaults)": (),
    "logits_all off": ("--logits_all", "false"),
    "logits_all off + RAM prompt cache": (
        "--logits_all",
        "false",
        "--cache",
        "true",
        "--cache_type",
        "ram",
        "--cache_size",
        str(512 << 20),
    ),
}


def rss_mb(pid: int | None) -> float | None:
    """The process's resident memory in MiB (Linux /proc)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        return None
    return None


def scene_of(plan: Any) -> Any:
    """A scene summary with one mesh per planned part, as the critic would see it (no Blender run needed for timing)."""
    from bpywright.harness.report import BoundingBox, ObjectSummary, SceneSummary

    objects = []
    for p in plan.parts:
        lo = tuple(c - s / 2 for c, s in zip(p.location, p.size, strict=True))
        hi = tuple(c + s / 2 for c, s in zip(p.location, p.size, strict=True))
        objects.append(
            ObjectSummary(
                name=p.name, type="MESH", vertices=8, faces=6, materials=["color"], visible=True, bbox=BoundingBox(min=lo, max=hi)
            )
        )
    return SceneSummary(object_count=len(objects), objects=objects, bbox=objects[0].bbox if objects else None, camera=True, light=True)


def sequence(llm: Any, request: str) -> list[dict[str, Any]]:
    """plan → critique → revised plan → critique, greedy; each call's timing and answer."""
    from bpywright.graph.loop.nodes.critic import RUBRIC_SCHEMA
    from bpywright.graph.model.prompting import critic_messages
    from bpywright.graph.plans.plan import PLAN_SCHEMA, build_script, parse_plan, plan_messages, plan_view

    out = []

    def call(name: str, messages: list[dict[str, str]], schema: dict[str, Any]) -> str:
        start = time.monotonic()
        text = llm.structured(messages, name, schema, generator=name == "plan")
        s = llm.stats[-1]
        out.append(
            {"call": name, "first_token_s": s.first_token_s, "seconds": time.monotonic() - start, "tokens": s.tokens, "answer": text}
        )
        return text

    plan = parse_plan(call("plan", plan_messages(request, "4.5", examples=2), PLAN_SCHEMA))
    script = build_script(plan, "4.5")
    checks = {"run": True, "lint": True, "render": True}
    review = call(
        "critique",
        critic_messages(request, plan_view(script) or script, checks, [], scene_of(plan), "128x128, 40% non-blank", 0.75),
        RUBRIC_SCHEMA,
    )
    feedback = "The critic rejected the scene: " + review[:400]
    revised = parse_plan(call("plan", plan_messages(request, "4.5", feedback=feedback, previous=plan, examples=2), PLAN_SCHEMA))
    script = build_script(revised, "4.5")
    call(
        "critique",
        critic_messages(request, plan_view(script) or script, checks, [], scene_of(revised), "128x128, 40% non-blank", 0.75),
        RUBRIC_SCHEMA,
    )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--configs", default=",".join(CONFIGS), help="comma-separated names of CONFIGS")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    import os

    from bpywright.config import Settings
    from bpywright.graph.model.llm import LLMClient
    from bpywright.models.catalogue import CATALOGUE
    from bpywright.models.install import model_path
    from bpywright.models.server import LocalServer

    settings = Settings.from_env()
    spec = CATALOGUE[args.model]
    path = model_path(settings, spec)
    names = [c.strip() for c in args.configs.split(",") if c.strip()]
    results: dict[str, list[list[dict[str, Any]]]] = {n: [] for n in names}
    memory: dict[str, list[float]] = {n: [] for n in names}
    load = [os.getloadavg()[0]]
    for r in range(args.repeats):
        request = REQUESTS[r % len(REQUESTS)]
        for name in names if r % 2 == 0 else list(reversed(names)):
            server = LocalServer(
                path, spec.name, log_path=settings.models_dir / "bench-server.log", n_ctx=spec.n_ctx, options=CONFIGS[name]
            )
            server.start()
            try:
                llm = LLMClient(server.base_url, spec.name, api_key=server.api_key, sampling={"repeat_penalty": 1.0}, timeout=600)
                calls = sequence(llm, request)
                results[name].append(calls)
                if (mb := rss_mb(server.pid)) is not None:
                    memory[name].append(mb)
            finally:
                server.stop()
            print(name, [f"{c['call']} {c['first_token_s']:.1f}/{c['seconds']:.1f}s" for c in calls], flush=True)
        load.append(os.getloadavg()[0])
    text = markdown(results, memory, load)
    print(text)
    if args.json:
        args.json.write_text(json.dumps({"results": results, "memory_mb": memory, "load": load}, indent=1), encoding="utf-8")
    return 0


def markdown(results: dict[str, list[list[dict[str, Any]]]], memory: dict[str, list[float]], load: list[float]) -> str:
    names = list(results)
    lines = [
        f"# Prompt processing on the plan sequence (load average {min(load):.1f} to {max(load):.1f})",
        "",
        "| server options | plan: first token s | critique | revised plan | critique again | sequence s | server RSS MiB |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in names:
        runs = results[name]
        if not runs:
            continue
        cells = [statistics.median(run[i]["first_token_s"] or 0.0 for run in runs) for i in range(4)]
        total = statistics.median(sum(c["seconds"] for c in run) for run in runs)
        mem = f"{statistics.median(memory[name]):.0f}" if memory[name] else "–"
        lines.append(f"| {name} | " + " | ".join(f"{c:.1f}" for c in cells) + f" | {total:.0f} | {mem} |")
    if len(names) > 1 and all(results[n] for n in names):
        same = all(
            [c["answer"] for c in results[names[0]][r]] == [c["answer"] for c in results[n][r]]
            for n in names[1:]
            for r in range(min(len(results[n]) for n in names))
        )
        lines += ["", f"Answers identical across the options (greedy): {'yes' if same else 'NO'}."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
