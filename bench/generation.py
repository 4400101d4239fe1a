"""Generation benchmark: CADBench prompts through one-shot, retrieval and the full loop, on the same model, in one run.

    .venv/bin/python bench/generation.py [--n 30] [--modes one-shot,retrieval,loop] [--base-url URL --model NAME]
                                         [--local qwen2.5-coder-1.5b] [--max-rounds 3] [--out bench/results/generation]
                                         [--first K] [--report-only]

Without --base-url the installed local model is served on loopback (BPYWRIGHT_LOCAL_MODEL or the best installed); with it,
any OpenAI-compatible endpoint (a GPU user's `vllm serve`) is used unchanged. The sample is fixed and seeded: 2/3 "Simulative",
1/3 "Wild" (20 + 10 by default). Each (prompt, mode) result is cached under --out/MODEL/MODE/ID.json with its render beside it
(ID.png), so a long run resumes where it stopped and can run in the background. The default --out is committed: on a CPU the
whole sample takes longer than one working session, so the rows (each naming the commit whose code wrote it) are kept in
the repository and the next run resumes from them. Modes, on the same prompts and model:
  one-shot   the model's first script for the bare prompt (our system prompt, no retrieval), run once;
  retrieval  the same with retrieved API symbols and verified exemplars in the prompt, run once;
  loop       the whole graph: retrieve, generate, lint, run, critic, rules-then-LLM heal (<= --max-rounds rounds);
  plan       the loop with the plan strategy (Settings.strategy / BPYWRIGHT_STRATEGY=plan: parts as JSON, a builder writes
             the script), measured as its own mode.
A prompt counts as a run failure unless a *generated* script ran: a retrieved exemplar is never an answer here, and neither
is a copy (graph/review/copies.py: >= 0.8 of the answer's code lines found in something its prompt showed: the system prompt's
example, an exemplar, a bundled recipe). Copies are judged when the table is written, so committed rows are re-judged.
Row generation (generate_row, run_rows) is shared with bench/fidelity.py.
The table (Markdown) is written to --out/generation-MODEL.md with a contact sheet of the renders per mode.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpywright.config import Settings  # noqa: E402
from bpywright.graph.loop.context import RunContext  # noqa: E402
from bpywright.graph.loop.state import GenState  # noqa: E402
from bpywright.graph.model.llm import LLMClient, LLMError  # noqa: E402
from bpywright.graph.reading.expectations import MIN_NONBLANK  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "blendnet" / "CADBench.jsonl"
MODES = ("one-shot", "retrieval", "loop", "plan")
STRATEGY = {"plan": "plan"}  # modes that run the loop under another generation strategy (Settings.strategy)
PUBLISHED = {"Qwen2.5-Coder-7B one-shot": 31.4, "GPT-4o": 21.4, "BlenderLLM": 3.4}  # CADBench E_syntax, %


def sample(path: Path, n: int, seed: int) -> list[dict[str, Any]]:
    """A fixed, seeded sample: 2/3 Simulative, 1/3 Wild (n=30 → 20 + 10)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    wild_n = n // 3
    rng = random.Random(seed)
    sim = rng.sample([r for r in rows if r["type"] == "Simulative"], n - wild_n)
    wild = rng.sample([r for r in rows if r["type"] == "Wild"], wild_n)
    return [{"id": r["id"], "type": r["type"], "prompt": r["instruction"]} for r in sim + wild]


def row_seed(prompt_id: str, mode: str) -> int:
    """Every request of one row is sent with this seed (OpenAI's `seed`, honoured by llama.cpp's server and vLLM): the
    server otherwise seeds once at start and derives each request's seed from the last, so a row depended on how many
    requests came before it (a resumed run drew different answers than an uninterrupted one)."""
    return zlib.crc32(f"{prompt_id}:{mode}".encode())


def tokens_since(llm: LLMClient, mark: int) -> int:
    """Output tokens of the completions made after stats index mark."""
    return sum(s.tokens for s in llm.stats[mark:])


def single(
    item: dict[str, Any], mode: str, settings: Settings, llm: LLMClient, pool: Any, run_dir: str, store: Any = None
) -> dict[str, Any]:
    """One-shot or retrieval: one generation, validated and scored by the same nodes the graph uses (objective checks + rubric)."""
    from bpywright.graph.loop.drafts import finished, new_attempts
    from bpywright.graph.loop.nodes.critic import critic_node
    from bpywright.graph.loop.nodes.retrieve import retrieve_node
    from bpywright.graph.loop.validation import validate_one

    ctx = RunContext(settings=settings, thread_id=run_dir, pool=pool, llm=llm, store=store)
    state = GenState(prompt=item["prompt"], version="4.5", n=1, max_rounds=0)
    if mode == "retrieval":
        state = state.model_copy(update=retrieve_node(state, ctx))
    first_token = None
    start, mark = time.monotonic(), len(llm.stats)
    try:
        attempt = finished(state, ctx, new_attempts(state, ctx, round_=0))[0]  # a plan revised as the graph revises it
        first_token = llm.stats[-1].first_token_s if llm.stats else None
    except LLMError as exc:
        return {"error": str(exc), "ran": False, "seconds": time.monotonic() - start, "tokens": tokens_since(llm, mark)}
    try:
        attempt = validate_one(attempt, ctx)
        state = state.model_copy(update={"attempts": [attempt], "current": 0})
        scored = state.model_copy(update=critic_node(state, ctx)).attempts[0]
    finally:
        if ctx.linter is not None:  # its dmypy daemon (470 MB) otherwise idles 15 minutes after every one-shot row
            ctx.linter.close()
    out = record(scored, time.monotonic() - start, tokens_since(llm, mark), rounds=0, first_token=first_token)
    return out | {"shown": shown(state)}


def shown(state: GenState) -> list[dict[str, str]]:
    """The exemplars the generator prompt showed (id, source, script, and the part plan the plan strategy showed in its
    place): what an answer must not copy."""
    return [{"id": e.id, "source": e.source, "prompt": e.prompt, "script": e.script, "plan": e.plan} for e in state.exemplars]


def record(a: Any, seconds: float, tokens: int, *, rounds: int, first_token: float | None, outcome: str = "") -> dict[str, Any]:
    """What the table needs from one attempt (ran, non-blank render, objective checks, accepted) plus its script and render."""
    ran = a is not None and a.origin != "retrieved" and a.run is not None and a.run.ok
    nonblank = bool(ran and a.run.render is not None and a.run.render.nonblank_fraction >= MIN_NONBLANK)
    critique = a.critique if a is not None else None
    failure = None
    if a is not None and not ran:
        exc = a.run.exception if a.run is not None else None
        failure = a.failure or (f"{exc.type}: {exc.message}" if exc else (a.run.status if a.run else "no script"))
    return {
        "ran": ran,
        "nonblank": nonblank,
        "objective": bool(ran and critique and critique.objective_ok),
        "accepted": bool(ran and critique and critique.accepted),
        "seconds": round(seconds, 1),
        "tokens": tokens,
        "rounds": rounds,
        "first_token_s": first_token,
        "outcome": outcome,
        "failure": failure,
        "origin": a.origin if a is not None else None,
        "script": a.script if a is not None else None,
        "render": a.render_path if ran else None,
    }


def loop(
    item: dict[str, Any], settings: Settings, llm: LLMClient, pool: Any, max_rounds: int, thread_id: str, store: Any = None
) -> dict[str, Any]:
    """The full graph for one prompt (store: the exemplars it may retrieve, e.g. a leave-one-out view; None: the default)."""
    from bpywright.graph.loop.build import build_graph, checkpoint_db, sqlite_checkpointer
    from bpywright.graph.loop.run import generate

    start, mark = time.monotonic(), len(llm.stats)
    result = generate(item["prompt"], settings=settings, max_rounds=max_rounds, pool=pool, llm=llm, thread_id=thread_id, store=store)
    seconds = time.monotonic() - start
    with sqlite_checkpointer(checkpoint_db(settings)) as saver:
        values = build_graph(checkpointer=saver).get_state({"configurable": {"thread_id": thread_id}}).values
    state = GenState.model_validate(values)
    best = state.attempt(state.best)
    first = next((s.first_token_s for s in llm.stats[mark:] if s.first_token_s is not None), None)
    out = record(best, seconds, tokens_since(llm, mark), rounds=state.rounds, first_token=first, outcome=result.outcome)
    out["trail"] = trail(state)
    if best is not None and best.critique is not None and best.critique.agreement:
        out["agreement"] = best.critique.agreement  # the neighbours or archetype it was compared with (F, a cube's F)
    out["shown"] = shown(state)
    out["replies"] = heal_replies(settings.runs_dir / thread_id / "attempts", state)
    if best is not None and best.ran_ok and best.render_path is None and result.render_path:
        out["render"] = result.render_path
    return out


def heal_replies(folder: Path, state: GenState, limit: int = 6000) -> dict[str, str]:
    """The raw heal replies that gave no script (attempts/NN-TURN.txt), for reading why: file name → text (cut at limit)."""
    unusable = {a.index for a in state.attempts if a.script is None}
    return {
        p.name: p.read_text(encoding="utf-8", errors="replace")[:limit]
        for p in sorted(folder.glob("*.txt"))
        if p.name[:2].isdigit() and int(p.name[:2]) in unusable
    }


def trail(state: GenState) -> list[dict[str, Any]]:
    """Each attempt of a loop: what made it, what it was healed from, and how it ended (for reading the failures)."""
    rows = []
    for a in state.attempts:
        ended = a.failure or (a.run.failure if a.run is not None and not a.run.ok else ("ran" if a.ran_ok else "not run"))
        blocking = len(a.lint.blocking) if a.lint is not None else None
        rows.append(
            {"index": a.index, "origin": a.origin, "round": a.round, "parent": a.parent, "note": a.note[:160], "ended": str(ended)[:300]}
            | ({"blocking_lint": blocking} if blocking else {})
            | ({"critique": "; ".join(a.critique.reasons)[:300]} if a.critique is not None and a.ran_ok else {})
        )
    return rows


def copy_of(row: dict[str, Any], version: str = "4.5") -> str | None:
    """What the row's answer copies (>= COPY_RATIO of its code lines) among what its prompt showed, or None: the exemplars
    the row records (rows before 11/2026 recorded none: their retrieval came from the bundled recipes, which are always
    checked), the system prompt's example and every recipe."""
    from bpywright.graph.loop.state import ExemplarBrief
    from bpywright.graph.review.copies import copied_exemplar, describe, shown_sources

    exemplars = [
        ExemplarBrief(id=e["id"], prompt=e.get("prompt", ""), script=e["script"], source=e.get("source", ""), plan=e.get("plan", ""))
        for e in row.get("shown") or []
    ]
    found = copied_exemplar(row.get("script"), shown_sources(version, exemplars))
    return describe(found) if found is not None else None


def honest(results: dict[str, list[dict[str, Any]]], version: str = "4.5") -> dict[str, list[dict[str, Any]]]:
    """The rows with `copy_of` judged now and `generated` (a script that is not a copy ran): copies count as failures."""
    out = {}
    for mode, rows in results.items():
        judged = []
        for r in rows:
            copied = copy_of(r, version) if r.get("ran") else None
            judged.append(r | {"copy_of": copied, "generated": bool(r.get("ran")) and copied is None})
        out[mode] = judged
    return out


def summarise(results: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, float]]:
    """Per mode (rows judged by honest()): run failure counting copies as failures, copies, non-blank, objective-pass and
    accepted rates (of answers that are not copies); median seconds and tokens; heal rounds."""
    table = {}
    for mode, rows in results.items():
        if not rows:
            continue
        n = len(rows)
        table[mode] = {
            "n": n,
            "run_failure": 100 * sum(not r["generated"] for r in rows) / n,
            "copies": 100 * sum(bool(r.get("copy_of")) for r in rows) / n,
            "run_failure_uncounted": 100 * sum(not r["ran"] for r in rows) / n,
            "nonblank": 100 * sum(r["nonblank"] and r["generated"] for r in rows) / n,
            "objective": 100 * sum(r["objective"] and r["generated"] for r in rows) / n,
            "accepted": 100 * sum(r["accepted"] and r["generated"] for r in rows) / n,
            "median_s": statistics.median(r["seconds"] for r in rows),
            "median_tokens": statistics.median(r["tokens"] for r in rows),
            "mean_rounds": statistics.mean(r["rounds"] for r in rows),
            "median_first_token_s": statistics.median([r["first_token_s"] for r in rows if r.get("first_token_s") is not None] or [0.0]),
        }
        firsts = [r["trail"][0] for r in rows if r.get("trail")]
        if firsts:  # the loop's own first script, before any repair: a baseline measured in the same requests
            table[mode]["first_failure"] = 100 * sum(t.get("ended") != "ran" for t in firsts) / len(firsts)
    return table


def row_files(folder: Path) -> list[Path]:
    """A mode folder's rows (ID.json), sorted: not the measurements and verdicts other benchmarks cache beside them
    (ID.*.json, which the same glob matches)."""
    return sorted(p for p in folder.glob("*-*-*-*-*.json") if p.name.count(".") == 1)


def endpoint(base: Settings, base_url: str | None, model: str | None, local: str | None, **changes: Any) -> Settings:
    """base with a benchmark's --base-url, --model and --local (each left as configured when not given), and changes."""
    return dataclasses.replace(
        base,
        llm_base_url=base_url or base.llm_base_url,
        llm_model=model or base.llm_model,
        local_model=local or base.local_model,
        **changes,
    )


def code_version() -> str:
    """The commit whose code writes the rows (with '+' when the code has changes; results don't count): a long run spans
    commits."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
        return done.stdout.strip() if done.returncode == 0 else ""

    head = git("rev-parse", "--short", "HEAD")
    changed = git("status", "--porcelain", "--untracked-files=no", "--", "bpywright", "bench", ":(exclude)bench/results")
    return (head + ("+" if changed else "")) or "unknown"


def markdown(model: str, table: dict[str, dict[str, float]], results: dict[str, list[dict[str, Any]]]) -> str:
    """The table, the ratios to one-shot, CADBench's published E_syntax beside ours, and the failures by kind."""
    lines = [
        f"# Generation benchmark: {model}",
        "",
        "| mode | n | run failure (E_syntax), copies counted as failures | copies | run failure, copies counted as runs "
        "| non-blank render | objective checks | accepted "
        "| median s | median tokens | heal rounds (mean) | median first token s | its first script failed |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for mode, t in table.items():
        first = f"{t['first_failure']:.1f} %" if "first_failure" in t else "–"
        lines.append(
            f"| {mode} | {t['n']} | {t['run_failure']:.1f} % | {t['copies']:.1f} % | {t['run_failure_uncounted']:.1f} % "
            f"| {t['nonblank']:.1f} % | {t['objective']:.1f} % | {t['accepted']:.1f} % "
            f"| {t['median_s']:.0f} | {t['median_tokens']:.0f} | {t['mean_rounds']:.2f} | {t['median_first_token_s']:.1f} "
            f"| {first} |"
        )
    base = table.get("one-shot")
    if base:
        lines += ["", "Ratios to one-shot, on the prompts both modes finished (same prompts, same model):"]
        one_shot = {r["id"]: r for r in results["one-shot"]}
        for mode, rows in results.items():
            paired = [(one_shot[r["id"]], r) for r in rows if mode != "one-shot" and r["id"] in one_shot]
            if not paired:
                continue
            base_fail = 100 * sum(not b["generated"] for b, _ in paired) / len(paired)
            fail = 100 * sum(not r["generated"] for _, r in paired) / len(paired)
            ratio = f"{base_fail / fail:.1f}× lower" if fail else "none of its answers failed: no finite ratio"
            lines.append(f"- {mode}: run failure {fail:.1f} % vs one-shot {base_fail:.1f} % on {len(paired)} prompts ({ratio})")
    lines += [
        "",
        "Its first script failed: the loop's first script (with retrieval) before any rule or heal, in the same requests.",
        "Copies: answers that ran but hold >= 80 % of their code lines (difflib, stripped, comments dropped) in the system "
        "prompt's example, a shown exemplar or a bundled recipe (graph/review/copies.py); they count as failures in every column "
        "but 'run failure, copies counted as runs' (the figure before copies were counted).",
    ]
    versions: dict[str, int] = {}
    for rows in results.values():
        for r in rows:
            versions[r.get("code") or "not recorded"] = versions.get(r.get("code") or "not recorded", 0) + 1
    lines += ["", "Rows by the code version that wrote them: " + ", ".join(f"{v} ({n})" for v, n in versions.items())]
    lines += ["", "CADBench's published E_syntax: " + ", ".join(f"{k} {v} %" for k, v in PUBLISHED.items()), "", "## Failures", ""]
    for mode, rows in results.items():
        for r in rows:
            if r.get("copy_of"):
                lines.append(f"- {mode} `{r['id'][:8]}`: ran, but is {r['copy_of']}")
            elif not r["ran"]:
                why = " ".join(str(r.get("failure") or r.get("error")).split())  # one line: a failure may span several
                lines.append(f"- {mode} `{r['id'][:8]}`: {why[:160]}")
    return "\n".join(lines) + "\n"


def keep_render(render: str | None, target: Path) -> str | None:
    """The render copied beside its row (the run's own folder is not kept): its file name, relative to the row; None without one."""
    if not render or not Path(render).is_file():
        return None
    target.write_bytes(Path(render).read_bytes())
    return target.name


def contact_sheet(
    results: dict[str, list[dict[str, Any]]], path: Path, order: list[str], cell: int = 128, per_line: int = 10
) -> Path | None:
    """Each mode's renders in prompt order, `per_line` to a line: the render, a grey "did not run" cell where no generated
    script ran, a white one where the prompt was not measured in that mode. Cells are numbered by prompt, and every mode
    puts a prompt in the same column, so the modes compare down the sheet. `order`: the prompts' ids in sample order.

    A row's render is a file name beside the row (out/MODEL/MODE/), read from the folder the sheet is written into."""
    from PIL import Image, ImageDraw

    modes = [m for m in results if results[m]]
    if not modes:
        return None
    measured = {r["id"] for m in modes for r in results[m]}
    ids = [i for i in order if i in measured]  # the sample's order
    lines = -(-len(ids) // per_line)
    label_w = 90
    sheet = Image.new("RGB", (label_w + min(len(ids), per_line) * cell, len(modes) * lines * cell), "white")
    draw = ImageDraw.Draw(sheet)
    for m, mode in enumerate(modes):
        draw.text((4, m * lines * cell + cell // 2), mode, fill="black")
        rows = {r["id"]: r for r in results[mode]}
        for k, prompt_id in enumerate(ids):
            box = (label_w + (k % per_line) * cell, (m * lines + k // per_line) * cell)
            r = rows.get(prompt_id)
            render = path.parent / _model_dir(path) / mode / r["render"] if r and r.get("render") else None
            if render is not None and render.is_file():
                with Image.open(render) as img:
                    sheet.paste(img.convert("RGB").resize((cell, cell)), box)
            elif r is not None:
                draw.rectangle([box, (box[0] + cell - 2, box[1] + cell - 2)], fill=(200, 200, 200))
                draw.text((box[0] + 4, box[1] + 16), "did not run", fill="black")
            else:
                draw.text((box[0] + 4, box[1] + 16), "not measured", fill=(160, 160, 160))
            if r is not None and r.get("copy_of"):  # a copy is a failure: crossed out
                draw.line([box, (box[0] + cell - 2, box[1] + cell - 2)], fill=(220, 0, 0), width=3)
                draw.text((box[0] + 4, box[1] + cell - 14), "copy", fill=(220, 0, 0), stroke_width=1, stroke_fill="white")
            draw.text((box[0] + 4, box[1] + 2), str(k + 1), fill=(255, 200, 0), stroke_width=1, stroke_fill="black")
    path.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(path)
    return path


def _model_dir(sheet: Path) -> str:
    """The cache folder of the model a contact sheet (generation-MODEL.png) belongs to."""
    return sheet.stem.removeprefix("generation-")


def main() -> int:
    """Run (or resume) the benchmark and write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--n", type=int, default=30, help="prompts (2/3 Simulative, 1/3 Wild; default 30)")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument(
        "--first", type=int, help="only the first K prompts of the sample (paired partial runs; the sample itself is unchanged)"
    )
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--base-url", help="an OpenAI-compatible /v1 (default: serve the local model)")
    parser.add_argument("--model", help="the model to ask for at --base-url (default: the first it serves)")
    parser.add_argument("--local", help="the local model to serve (default: BPYWRIGHT_LOCAL_MODEL or the best installed)")
    parser.add_argument("--max-rounds", type=int, default=3)
    parser.add_argument("--budget", type=float, default=1200.0, help="seconds one loop request may take (default 1200: a CPU)")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "bench" / "results" / "generation", help="rows, table, contact sheet (committed)"
    )
    parser.add_argument("--report-only", action="store_true", help="write the table from the cache, run nothing")
    parser.add_argument(
        "--no-request-seed",
        dest="request_seed",
        action="store_false",
        help="let the server draw each request's seed (then a row depends on the requests before it, as rows before 11/2026 did)",
    )
    args = parser.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if bad := [m for m in modes if m not in MODES]:
        parser.error(f"unknown mode(s) {bad}; choose from {MODES}")

    from bpywright.harness.options import RunOptions
    from bpywright.harness.pool import WorkerPool
    from bpywright.models.local import local_llm

    base = endpoint(Settings.from_env(), args.base_url, args.model, args.local, budget_s=args.budget, max_heal_rounds=args.max_rounds)
    items = sample(args.data, args.n, args.seed)
    if args.first:
        items = items[: args.first]
    if args.report_only:  # nothing is served or run: the model's name finds its cache
        name = args.model or args.local or base.local_model
        if not name:
            parser.error("--report-only needs --local NAME or --model NAME (the cache is named after the model)")
        cache = args.out / name.replace("/", "_")
        cached = {
            m: [json.loads(p.read_text(encoding="utf-8")) for i in items if (p := cache / m / f"{i['id']}.json").is_file()] for m in modes
        }
        return write_report(args.out, name, cached, [i["id"] for i in items])
    with local_llm(base) as (settings, note):
        if not settings.llm_base_url:
            print(f"error: no model to benchmark ({note})", file=sys.stderr)
            return 1
        llm = LLMClient.from_settings(settings)
        assert llm is not None
        model = llm.model
        cache = args.out / model.replace("/", "_")
        print(
            f"model {model} at {settings.llm_base_url} ({note or 'configured endpoint'}); {len(items)} prompts; cache {cache}",
            file=sys.stderr,
        )
        options = RunOptions(render=True, resolution=128, sandbox=settings.sandbox, blender=settings.blender)
        with WorkerPool(1, options) as pool:
            results = run_rows(
                items, modes, cache, settings=settings, llm=llm, pool=pool, max_rounds=args.max_rounds, request_seed=args.request_seed
            )
    return write_report(args.out, model, results, [i["id"] for i in items])


def mode_settings(settings: Settings, mode: str) -> Settings:
    """The settings a mode runs under: a strategy mode's loop pins Settings.strategy (the code's default elsewhere)."""
    if mode in STRATEGY and hasattr(settings, "strategy"):
        return dataclasses.replace(settings, strategy=STRATEGY[mode])  # type: ignore[call-arg]
    return settings


def generate_row(
    item: dict[str, Any], mode: str, *, settings: Settings, llm: LLMClient, pool: Any, max_rounds: int, store: Any = None
) -> dict[str, Any]:
    """One (prompt, mode) row: `item` needs id and prompt; store is the exemplar store the prompt may draw from (None: the
    mode's default; a leave-one-out view in bench/fidelity.py)."""
    thread = f"bench-{llm.model.replace('/', '_')}-{mode}-{item['id'][:8]}-{int(time.time())}"
    if mode in ("loop", *STRATEGY):
        row = loop(item, mode_settings(settings, mode), llm, pool, max_rounds, thread, store=store)
    else:
        row = single(item, mode, settings, llm, pool, thread, store=store)
    return row | {"thread": thread}  # its checkpoints and cost.json (bench/fidelity_attempts.py reads them back)


def run_rows(
    items: list[dict[str, Any]],
    modes: list[str],
    cache: Path,
    *,
    settings: Settings,
    llm: LLMClient,
    pool: Any,
    max_rounds: int,
    request_seed: bool = True,
    store_for: Any = None,
) -> dict[str, list[dict[str, Any]]]:
    """Every (item, mode) row, read from cache/MODE/ID.json when there, else generated (with the row's own seed), written
    there with its render beside it. store_for(item) → the store that item's prompt may draw from (None: the default)."""
    results: dict[str, list[dict[str, Any]]] = {m: [] for m in modes}
    version = code_version()
    for i, item in enumerate(items):
        for mode in modes:
            path = cache / mode / f"{item['id']}.json"
            if path.is_file():
                results[mode].append(json.loads(path.read_text(encoding="utf-8")))
                continue
            if request_seed:  # the row's own seed: it comes out the same whatever ran before it
                llm.sampling["seed"] = row_seed(item["id"], mode)
            store = store_for(item) if store_for is not None else None
            row = generate_row(item, mode, settings=settings, llm=llm, pool=pool, max_rounds=max_rounds, store=store)
            row = {
                **row,
                **{k: v for k, v in item.items() if k in ("id", "type", "prompt", "category", "name")},
                "mode": mode,
                "code": version,
            }
            row["seed"] = llm.sampling.get("seed")
            path.parent.mkdir(parents=True, exist_ok=True)
            row["render"] = keep_render(row.get("render"), path.with_suffix(".png"))
            path.write_text(json.dumps(row, indent=1), encoding="utf-8")
            results[mode].append(row)
            print(
                f"[{i + 1}/{len(items)}] {mode:<9} ran={row['ran']!s:<5} accepted={row.get('accepted')!s:<5} {row['seconds']:.0f}s "
                f"{row['tokens']} tok {str(row.get('failure') or '')[:90]}",
                file=sys.stderr,
                flush=True,
            )
    return results


def write_report(out_dir: Path, model: str, results: dict[str, list[dict[str, Any]]], order: list[str]) -> int:
    """The table (markdown, named after the model) and the contact sheet; printed too."""
    results = honest(results)
    text = markdown(model, summarise(results), results)
    out = out_dir / f"generation-{model.replace('/', '_')}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    sheet = contact_sheet(results, out_dir / f"generation-{model.replace('/', '_')}.png", order)
    print(text)
    print(f"table: {out}" + (f"  contact sheet: {sheet}" if sheet else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())


# --- what the request benchmarks (bench/techniques.py, bench/plain.py) share -------------------------------------------


def request_bench_arguments(
    parser: argparse.ArgumentParser, sets: tuple[str, ...], modes: tuple[str, ...], out: Path, listing: str
) -> None:
    """The options every request benchmark takes: which requests, which modes, which model, where the cache is."""
    parser.add_argument("--set", default="dev", choices=(*sets, "all"))
    parser.add_argument("--modes", default=",".join(modes))
    parser.add_argument("--first", type=int, help="only the first K requests of the set")
    parser.add_argument("--ids", help="only these request ids (comma-separated)")
    parser.add_argument("--base-url", help="an OpenAI-compatible /v1 (default: serve the local model)")
    parser.add_argument("--model", help="the model to ask for at --base-url")
    parser.add_argument("--local", help="the local model to serve (default: BPYWRIGHT_LOCAL_MODEL or the best installed)")
    parser.add_argument("--max-rounds", type=int, default=3)
    parser.add_argument("--budget", type=float, default=900.0, help="seconds one loop request may take (default 900)")
    parser.add_argument("--out", type=Path, default=out)
    parser.add_argument("--report-only", action="store_true", help="write the table from the cache, generate nothing")
    parser.add_argument("--list", action="store_true", help=listing)


def chosen_modes(parser: argparse.ArgumentParser, args: argparse.Namespace, modes: tuple[str, ...]) -> list[str]:
    """--modes as a list; an unknown mode is a usage error."""
    chosen = [m.strip() for m in args.modes.split(",") if m.strip()]
    if bad := [m for m in chosen if m not in modes]:
        parser.error(f"unknown mode(s) {bad}; choose from {modes}")
    return chosen


def chosen_requests(items: list[dict[str, Any]], args: argparse.Namespace) -> list[dict[str, Any]]:
    """The requests --ids and --first leave, in the file's order."""
    if args.ids:
        wanted = set(args.ids.split(","))
        items = [i for i in items if i["id"] in wanted]
    return items[: args.first] if args.first else items


def request_rows(
    parser: argparse.ArgumentParser, args: argparse.Namespace, base: Settings, items: list[dict[str, Any]], modes: list[str]
) -> tuple[str, Path, dict[str, list[dict[str, Any]]]] | None:
    """(model, cache, rows per mode): read from the cache with --report-only, else generated (resuming the cache) on the
    configured endpoint or the served local model; None when there is no model to ask (said on stderr)."""
    if args.report_only:
        name = args.model or args.local or base.local_model
        if not name:
            parser.error("--report-only needs --local NAME or --model NAME (the cache is named after the model)")
        cache = args.out / name.replace("/", "_")
        rows = {
            m: [json.loads(p.read_text(encoding="utf-8")) for i in items if (p := cache / m / f"{i['id']}.json").is_file()] for m in modes
        }
        return name, cache, rows
    from bpywright.harness.options import RunOptions
    from bpywright.harness.pool import WorkerPool
    from bpywright.models.local import local_llm

    with local_llm(base) as (settings, note):
        if not settings.llm_base_url:
            print(f"error: no model to benchmark ({note})", file=sys.stderr)
            return None
        llm = LLMClient.from_settings(settings)
        assert llm is not None
        cache = args.out / llm.model.replace("/", "_")
        print(f"model {llm.model} ({note or 'configured endpoint'}); {len(items)} requests; cache {cache}", file=sys.stderr)
        with WorkerPool(1, RunOptions(render=True, resolution=128, sandbox=settings.sandbox, blender=settings.blender)) as pool:
            gen_items = [{"id": i["id"], "prompt": i["prompt"]} for i in items]
            rows = run_rows(gen_items, modes, cache, settings=settings, llm=llm, pool=pool, max_rounds=args.max_rounds)
        return llm.model, cache, rows


def write_request_report(out_dir: Path, name: str, model: str, text: str, rows: dict[str, list[dict[str, Any]]], order: list[str]) -> None:
    """NAME-MODEL.md and the contact sheet NAME-MODEL.png under out_dir; the table printed too."""
    stem = f"{name}-{model.replace('/', '_')}"
    out = out_dir / f"{stem}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    sheet = contact_sheet(rows, out_dir / f"generation-{model.replace('/', '_')}.png", order)
    if sheet is not None:
        sheet = sheet.rename(out_dir / f"{stem}.png")
    print(text)
    print(f"table: {out}" + (f"  contact sheet: {sheet}" if sheet else ""))
