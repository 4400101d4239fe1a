"""Does the llama.cpp this venv compiled run on this CPU? One short greedy completion in a child process.

llama-cpp-python is compiled on the machine that installs it. A build whose kernels this CPU cannot run does not fail
to import: it dies at its first matrix multiply (a VM that advertised AMX without granting its tile state killed every
completion with a SIGSEGV), so the server it backs comes up, answers /v1/models, and drops every request. `make setup`
runs this after the build and, where the child dies by a signal, builds the portable kernels instead
(`make llama-portable`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ..harness.sandbox import signal_name
from ..starts import record

TIMEOUT_S = 300.0  # loading SmolLM2 and 16 tokens take seconds; a loaded 2-core machine takes longer
# ~150 prompt tokens: a batched matrix multiply (the kernels a server's prompts take), then one token at a time
PROMPT = (
    "import bpy\n\n"
    + "".join(
        f"bpy.ops.mesh.primitive_cube_add(size={i}, location=({i}, 0, 0))\nbpy.context.object.name = 'Part{i}'\n" for i in range(1, 4)
    )
    + "\ndef add(a, b):\n    return"
)
MAX_TOKENS = 16

_CHILD = """
import json, sys, time
from llama_cpp import Llama
llm = Llama(model_path=sys.argv[1], n_ctx=512, n_threads=int(sys.argv[2]), verbose=False)
start = time.monotonic()
out = llm.create_completion(sys.argv[3], max_tokens=int(sys.argv[4]), temperature=0.0)
took = time.monotonic() - start
usage = out["usage"]
print(json.dumps({"prompt": usage["prompt_tokens"], "tokens": usage["completion_tokens"], "seconds": took, "text": out["choices"][0]["text"]}))
"""

CRASHED = 3  # the exit status `bpywright model selftest` gives for a build that dies on this CPU (the Makefile reads it)


class BuildCrashed(RuntimeError):
    """The compiled llama.cpp died by a signal on this CPU: its kernels need rebuilding (`make llama-portable`)."""


class SelfTestFailed(RuntimeError):
    """The self-test could not run (no llama-cpp-python, no model, an error that is not a crash, a timeout)."""


@dataclass(frozen=True)
class SelfTest:
    """What one completion measured."""

    prompt_tokens: int
    tokens: int
    seconds: float  # reading the prompt and writing the tokens
    text: str


def selftest(model_path: Path, *, timeout_s: float = TIMEOUT_S, python: str | None = None) -> SelfTest:
    """Load model_path with llama.cpp in a child and complete PROMPT greedily; raise BuildCrashed when the child dies."""
    if not model_path.is_file():
        raise SelfTestFailed(f"no model file at {model_path}: install it with `bpywright model install NAME`")
    n = max(1, os.cpu_count() or 1)
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
    command = [python or sys.executable, "-X", "faulthandler", "-c", _CHILD, str(model_path), str(n), PROMPT, str(MAX_TOKENS)]
    record("model", str(model_path))
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        raise SelfTestFailed(f"llama.cpp did not complete {MAX_TOKENS} tokens within {timeout_s:.0f} s") from exc
    tail = done.stderr[-1500:].strip()
    if done.returncode < 0:
        raise BuildCrashed(
            f"llama.cpp died with {signal_name(done.returncode, via_bwrap=False)} (signal {-done.returncode}) on its first completion: the build's kernels do not run "
            f"on this CPU; `make llama-portable` builds portable ones" + (f"\n{tail}" if tail else "")
        )
    if done.returncode != 0:
        raise SelfTestFailed(f"the llama.cpp self-test exited with status {done.returncode}" + (f":\n{tail}" if tail else ""))
    try:
        row = json.loads(done.stdout.strip().splitlines()[-1])
        return SelfTest(prompt_tokens=int(row["prompt"]), tokens=int(row["tokens"]), seconds=float(row["seconds"]), text=str(row["text"]))
    except (IndexError, ValueError, KeyError, TypeError) as exc:
        raise SelfTestFailed(f"the llama.cpp self-test printed no result: {done.stdout[-500:]!r}") from exc
