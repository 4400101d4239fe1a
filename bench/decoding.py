"""Decoding benchmark for the local model (llama-cpp-python, in process, the settings its server passes to Llama):
prompt-eval and decode tokens/s per server setting, prompt-lookup decoding on a heal-style rewrite, memory bandwidth.

    .venv/bin/python bench/decoding.py [--model PATH] [--repeats 2] [--decode 128] [--rewrite 1100]
                                       [--skip-flags] [--skip-lookup] [--json out.json]

1. Bandwidth: numpy copies of a 1 GiB array (read + write 2 GiB per copy); the physical decode ceiling of a model is
   bandwidth / weights size (each token reads every weight once).
2. Flags, on a fixed heal-like prompt (a one-line rewrite instruction and the ~900-token wooden_table recipe):
   today's server options first (n_threads / n_threads_batch 2/2, logits_all off), then logits_all on (the llama-cpp
   server's own default), threads 1/1 and 1/2;
   flash attention on; flash attention with a q8_0 KV cache. Each setting loads the model once per repeat, settings interleaved, prompt cache cleared before each
   measurement. Reported: prompt tokens/s (prompt tokens / time to first token) and decode tokens/s (after the first).
3. Prompt-lookup decoding (run first) (llama-cpp-python's `draft_model`: LlamaPromptLookupDecoding): the same rewrite, greedy,
   with and without it, interleaved; tokens/s, acceptance (drafted tokens the model kept / drafted), and whether the
   two answers are identical (they should be, greedy). Three prompts: the short rewrite request (plain script), the
   project's heal prompt as shipped (system prompt, a numbered script, a traceback): a draft copies what follows an
   n-gram in the prompt, and numbered lines break the copy at each line start; and a plan revision as the plan strategy
   sends it (the last plan shown, the answer constrained to the plan's JSON schema; --plan-only: this one alone). Off
   is the server's options today (logits_all off); prompt lookup needs logits_all on.

Timings are wall clock on whatever else runs on the machine: run interleaved, read ratios, say how loaded it was.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# As the project's server runs it (models/server.py): OpenMP threads that spin at every barrier make 2 threads on 2
# shared cores many times slower.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

SCRIPT = ROOT / "bpywright" / "recipes" / "wooden_table.py"
DEFAULT_MODEL = Path(os.environ.get("BPYWRIGHT_ARTIFACTS", ROOT / "artifacts")) / "models" / "qwen2.5-coder-1.5b.gguf"
GGML_TYPE_Q8_0 = 8
FAILURE = (
    "AttributeError: 'NoneType' object has no attribute 'data' (line 40)\n"
    "Traceback (most recent call last):\n  File \"script.py\", line 40, in <module>\nAttributeError: 'NoneType' object has no attribute 'data'"
)
# The server's own default is logits_all=True (llama_cpp.server.settings): logits for every prompt token, which prompt
# lookup needs and nothing else here does.
BASE: dict[str, Any] = {"n_threads": 2, "n_threads_batch": 2, "logits_all": True}
# The settings compared: the server's options today (models/local.py SERVER_OPTIONS: 2/2 threads, logits_all off)
# first, the reference every ratio is read against; then one change each.
DEFAULT = "threads 2/2, logits_all off (default)"
FLAGS: dict[str, dict[str, Any]] = {
    DEFAULT: {**BASE, "logits_all": False},
    "logits_all on (default before)": BASE,
    "threads 1/1": {**BASE, "logits_all": False, "n_threads": 1, "n_threads_batch": 1},
    "threads 1/2": {**BASE, "logits_all": False, "n_threads": 1},
    "flash_attn": {**BASE, "logits_all": False, "flash_attn": True},
    "flash_attn + KV q8_0": {**BASE, "logits_all": False, "flash_attn": True, "type_k": GGML_TYPE_Q8_0, "type_v": GGML_TYPE_Q8_0},
}


def bandwidth_gb_s(size: int = 1 << 30, repeats: int = 5) -> float:
    """Memory bandwidth in GB/s (10^9 B): the best of `repeats` numpy copies of `size` bytes (each reads and writes it)."""
    import numpy as np

    src = np.ones(size, dtype=np.uint8)
    dst = np.empty_like(src)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        np.copyto(dst, src)
        best = min(best, time.perf_counter() - start)
    return 2 * size / best / 1e9


INSTRUCTION = "Rewrite this Blender 4.5 script so that the table top is 10 cm thicker. Reply with the whole script."


def short_prompt() -> list[dict[str, str]]:
    """A heal-like rewrite request: a short instruction and the ~900-token script, plain (no system prompt)."""
    script = SCRIPT.read_text(encoding="utf-8")
    return [{"role": "user", "content": f"{INSTRUCTION}\n```python\n{script}```"}]


def heal_prompt(numbered: bool) -> list[dict[str, str]]:
    """The project's heal prompt around the recipe (numbered: as shipped; else the script as plain code)."""
    from bpywright.graph.model.prompting import heal_messages

    script = SCRIPT.read_text(encoding="utf-8")
    messages = heal_messages("a wooden table with four legs", "4.5", script, failure=FAILURE, fix_block="", critique=None, symbols=[])
    if not numbered:
        from bpywright.graph.model.prompting import numbered as number

        messages[1]["content"] = messages[1]["content"].replace(number(script), script)
    return messages


BOOKSHELF = "A wooden bookshelf, 180 cm tall and 80 cm wide, with 5 shelves."


def plan_revision_prompt() -> list[dict[str, str]]:
    """The project's plan revision as the loop sends it: the plan request, the last plan (the library's bookshelf with one
    shelf) and the finding it failed (the benchmark's bookshelf: the count of shelves). The answer repeats most of the
    plan it is shown, the case prompt lookup is for."""
    from bpywright.graph.plans.library import similar
    from bpywright.graph.plans.plan import parse_plan, plan_findings, plan_messages

    previous = parse_plan(similar(BOOKSHELF, 1)[0].plan)
    feedback = "; ".join(plan_findings(previous, BOOKSHELF)) or "the request asks for 5 shelves: make it 5"
    return plan_messages(BOOKSHELF, "4.5", feedback=feedback, previous=previous)


class CountingLookup:
    """LlamaPromptLookupDecoding that counts its calls and the tokens it drafted."""

    def __init__(self, num_pred_tokens: int = 10):
        from llama_cpp.llama_speculative import LlamaPromptLookupDecoding

        self.inner = LlamaPromptLookupDecoding(num_pred_tokens=num_pred_tokens)
        self.calls = 0
        self.drafted = 0

    def __call__(self, input_ids: Any, /, **kwargs: Any) -> Any:
        out = self.inner(input_ids, **kwargs)
        self.calls += 1
        self.drafted += len(out)
        return out


def load(model: Path, n_ctx: int, **kwargs: Any) -> Any:
    from llama_cpp import Llama

    return Llama(model_path=str(model), n_ctx=n_ctx, verbose=False, **kwargs)


def measure(llm: Any, messages: list[dict[str, str]], max_tokens: int, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """One streamed greedy answer from an empty cache: prompt tokens, time to first token, decode tokens/s, the text.
    schema: the answer is constrained to it, as the server does for a structured request (json_object with a schema)."""
    llm.reset()
    start = time.perf_counter()
    first = last = None
    pieces: list[str] = []
    fmt = {"response_format": {"type": "json_object", "schema": schema}} if schema else {}
    for chunk in llm.create_chat_completion(messages=messages, max_tokens=max_tokens, temperature=0.0, stream=True, **fmt):
        piece = chunk["choices"][0]["delta"].get("content")
        if not piece:
            continue
        last = time.perf_counter()
        first = first or last
        pieces.append(piece)
    written = len(llm.tokenize("".join(pieces).encode("utf-8"), add_bos=False, special=False))
    prompt = llm.n_tokens - written
    ttft = (first or start) - start
    decode_s = (last or start) - (first or start)
    return {
        "prompt_tokens": prompt,
        "written": written,
        "first_token_s": round(ttft, 3),
        "prompt_tok_s": round(prompt / ttft, 1) if ttft > 0 else None,
        "decode_tok_s": round((written - 1) / decode_s, 2) if decode_s > 0 else None,
        "seconds": round(time.perf_counter() - start, 2),
        "text": "".join(pieces),
    }


def median(rows: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in rows if r.get(key) is not None]
    return round(statistics.median(values), 2) if values else None


def bench_flags(model: Path, repeats: int, decode: int) -> dict[str, Any]:
    messages = short_prompt()
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in FLAGS}
    for rep in range(repeats):
        order = list(FLAGS) if rep % 2 == 0 else list(reversed(FLAGS))
        for name in order:
            llm = load(model, 4096, **FLAGS[name])
            row = measure(llm, messages, decode)
            row.pop("text")
            rows[name].append(row)
            print(f"  [{rep + 1}/{repeats}] {name}: {row}", flush=True)
            del llm
    return {
        name: {
            "settings": FLAGS[name],
            "prompt_tok_s": median(r, "prompt_tok_s"),
            "decode_tok_s": median(r, "decode_tok_s"),
            "first_token_s": median(r, "first_token_s"),
            "runs": r,
        }
        for name, r in rows.items()
    }


def bench_lookup(model: Path, repeats: int, max_tokens: int, settings: dict[str, Any], only_plan: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    from bpywright.graph.plans.plan import PLAN_SCHEMA

    variants = {
        "short rewrite request (plain script)": (short_prompt(), None),
        "heal prompt as shipped (numbered script)": (heal_prompt(True), None),
        "plan revision (JSON schema, the last plan shown)": (plan_revision_prompt(), PLAN_SCHEMA),
    }
    if only_plan:
        variants = {k: v for k, v in variants.items() if k.startswith("plan")}
    for label, (messages, schema) in variants.items():
        rows: dict[str, list[dict[str, Any]]] = {"off": [], "prompt-lookup": []}
        texts: dict[str, str] = {}
        for rep in range(repeats):
            for mode in ("off", "prompt-lookup") if rep % 2 == 0 else ("prompt-lookup", "off"):
                draft = CountingLookup() if mode == "prompt-lookup" else None
                # Off: the server's options today (logits_all off); prompt lookup needs every prompt token's logits.
                llm = load(model, 4096, **{**settings, "logits_all": draft is not None}, draft_model=draft)
                row = measure(llm, messages, max_tokens, schema)
                texts[mode] = row.pop("text")
                if draft is not None:
                    # Each draft call follows one verifying decode step; a step keeps 1 sampled token plus the drafts it
                    # confirmed, so confirmed drafts = tokens written - steps.
                    accepted = max(0, row["written"] - draft.calls)
                    row.update(draft_calls=draft.calls, drafted=draft.drafted, accepted=accepted)
                    row["acceptance"] = round(accepted / draft.drafted, 3) if draft.drafted else None
                rows[mode].append(row)
                print(f"  [{rep + 1}/{repeats}] {label} {mode}: {row}", flush=True)
                del llm
        off, on = median(rows["off"], "decode_tok_s"), median(rows["prompt-lookup"], "decode_tok_s")
        w_off, w_on = median(rows["off"], "seconds"), median(rows["prompt-lookup"], "seconds")
        out[label] = {
            "off": rows["off"],
            "prompt-lookup": rows["prompt-lookup"],
            "decode_tok_s_off": off,
            "decode_tok_s_lookup": on,
            "decode_ratio": round(on / off, 2) if on and off else None,
            "wall_s_off": w_off,
            "wall_s_lookup": w_on,
            "wall_ratio": round(w_on / w_off, 2) if w_on and w_off else None,
            "first_token_s_off": median(rows["off"], "first_token_s"),
            "first_token_s_lookup": median(rows["prompt-lookup"], "first_token_s"),
            "acceptance": median(rows["prompt-lookup"], "acceptance"),
            "same_answer": texts.get("off") == texts.get("prompt-lookup"),
        }
        print(f"  {label}: {json.dumps({k: v for k, v in out[label].items() if k not in ('off', 'prompt-lookup')})}", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--decode", type=int, default=128, help="tokens written per flag measurement")
    parser.add_argument("--rewrite", type=int, default=1100, help="max tokens of the prompt-lookup rewrite")
    parser.add_argument("--skip-flags", action="store_true")
    parser.add_argument("--skip-lookup", action="store_true")
    parser.add_argument("--plan-only", action="store_true", help="prompt lookup on the plan revision only")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    result: dict[str, Any] = {"model": str(args.model), "weights_gb": round(args.model.stat().st_size / 1e9, 3)}
    result["load_avg_before"] = os.getloadavg()
    result["bandwidth_gb_s"] = round(bandwidth_gb_s(), 2)
    result["decode_ceiling_tok_s"] = round(result["bandwidth_gb_s"] / result["weights_gb"], 1)
    print(
        f"bandwidth {result['bandwidth_gb_s']} GB/s; weights {result['weights_gb']} GB; ceiling {result['decode_ceiling_tok_s']} tok/s",
        flush=True,
    )
    if not args.skip_lookup:
        result["lookup"] = bench_lookup(args.model, args.repeats, args.rewrite, BASE, args.plan_only)
    save(args.json, result)
    if not args.skip_flags:
        result["flags"] = bench_flags(args.model, args.repeats, args.decode)
        base = result["flags"][DEFAULT]
        for name, row in result["flags"].items():
            p = row["prompt_tok_s"] / base["prompt_tok_s"] if row["prompt_tok_s"] and base["prompt_tok_s"] else None
            d = row["decode_tok_s"] / base["decode_tok_s"] if row["decode_tok_s"] and base["decode_tok_s"] else None
            row["prompt_ratio"], row["decode_ratio"] = (round(p, 2) if p else None), (round(d, 2) if d else None)
            print(
                f"{name:40s} prompt {row['prompt_tok_s']} tok/s (x{row['prompt_ratio']})  decode {row['decode_tok_s']} tok/s (x{row['decode_ratio']})"
            )
    result["load_avg_after"] = os.getloadavg()
    save(args.json, result)


def save(path: Path | None, result: dict[str, Any]) -> None:
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
