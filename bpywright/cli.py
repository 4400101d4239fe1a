"""The `bpywright` command line: the parser assembled from each package's `command.py`, and lazy dispatch to it.

Commands live beside what they drive (`harness/command.py`: run, recipes, lint, typings, schema; `ingest/command.py`:
ingest, search, api-check; `rules/command.py`: heal, rules; `doctor.py`; …); shared flags are in `cliargs.py`. Building the
parser imports only those light modules, so `bpywright --help` stays fast; a command's body loads when it runs.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from collections.abc import Callable

from .cliargs import UsageError, split_script_args
from .config import Settings

Command = Callable[[argparse.Namespace, Settings], int]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    from . import doctor
    from .addon import command as addon_command
    from .check import command as check_command
    from .exemplars import command as exemplars_command
    from .graph import command as generate_command
    from .harness import command as harness_command
    from .ingest import command as ingest_command
    from .mcp import command as mcp_command
    from .models import command as model_command
    from .rules import command as heal_command
    from .runtimes import command as blender_command
    from .service import command as serve_command

    parser = argparse.ArgumentParser(prog="bpywright", description="Run, validate and render Blender Python scripts headlessly.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    harness_command.add_run_arguments(sub.add_parser("run", help="run scripts in headless Blender and report what happened"))
    harness_command.add_recipes_arguments(sub.add_parser("recipes", help="validate and render the bundled recipes into artifacts/recipes"))
    harness_command.add_lint_arguments(
        sub.add_parser("lint", help="static checks against version-matched bpy stubs (exit 1 when blocking)")
    )
    ingest_command.add_ingest_arguments(
        sub.add_parser("ingest", help="build the symbol index of a Blender version (inventory + introspection)")
    )
    ingest_command.add_search_arguments(sub.add_parser("search", help="hybrid search (BM25 + dense) over the symbol index"))
    ingest_command.add_api_check_arguments(
        sub.add_parser("api-check", help="check bpy/bmesh/mathutils names in a script against the index")
    )
    heal_command.add_arguments(
        sub.add_parser("heal", help="fix API drift with deterministic rules: run, match failures to rules, fix, re-run")
    )
    heal_command.add_rules_arguments(
        sub.add_parser("rules", help="the drift rules: list them with their family, versions, errors explained and an example")
    )
    doctor.add_arguments(sub.add_parser("doctor", help="check what works here and how to fix what does not"))
    harness_command.add_typings_arguments(sub.add_parser("typings", help="bpy stubs for static checks"))
    generate_command.add_arguments(
        sub.add_parser("generate", help="prompt → validated script: retrieve, generate (LLM), lint, run, critic, heal")
    )
    exemplars_command.add_arguments(sub.add_parser("exemplars", help="the exemplar store: add, seed, import, list, search, export"))
    serve_command.add_arguments(sub.add_parser("serve", help="the HTTP API and the exemplar gallery"))
    check_command.add_arguments(sub.add_parser("check", help="CI smoke test of bpy scripts: lint + run + render, JUnit XML, contact sheet"))
    mcp_command.add_arguments(sub.add_parser("mcp", help="MCP server on stdio for coding assistants (Claude, Cursor, VS Code)"))
    model_command.add_arguments(sub.add_parser("model", help="local LLMs (GGUF on CPU): install qwen2.5-coder-1.5b, list, verify, serve"))
    blender_command.add_arguments(sub.add_parser("blender", help="Blender runtimes by version: list, add 5.2 | /path/to/blender, remove"))
    addon_command.add_arguments(sub.add_parser("addon", help="the Blender extension (4.2+): build dist/bpywright-VERSION.zip"))
    harness_command.add_schema_arguments(sub.add_parser("schema", help="print the RunReport JSON Schema"))
    return parser


def _delegate(module: str, function: str = "run") -> Command:
    """A command whose body is `bpywright.<module>.<function>` (imported only when it runs)."""

    def command(args: argparse.Namespace, settings: Settings) -> int:
        return getattr(importlib.import_module(f"bpywright.{module}"), function)(args, settings)

    return command


COMMANDS: dict[str, Command] = {
    "run": _delegate("harness.command", "run_command"),
    "recipes": _delegate("harness.command", "recipes_command"),
    "lint": _delegate("harness.command", "lint_command"),
    "typings": _delegate("harness.command", "typings_command"),
    "schema": _delegate("harness.command", "schema_command"),
    "ingest": _delegate("ingest.command", "ingest_command"),
    "search": _delegate("ingest.command", "search_command"),
    "api-check": _delegate("ingest.command", "api_check_command"),
    "heal": _delegate("rules.command"),
    "rules": _delegate("rules.command", "rules_command"),
    "doctor": _delegate("doctor"),
    "generate": _delegate("graph.command"),
    "exemplars": _delegate("exemplars.command"),
    "serve": _delegate("service.command"),
    "check": _delegate("check.command"),
    "mcp": _delegate("mcp.command"),
    "blender": _delegate("runtimes.command"),
    "model": _delegate("models.command"),
    "addon": _delegate("addon.command"),
}


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code (0 ok, 1 failed, 2 usage)."""
    previous = signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `bpywright … | head` ends quietly
    try:
        return _main(argv)
    finally:
        signal.signal(signal.SIGPIPE, previous)  # callers in-process (tests, the service) keep their own handler


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    ours, script_args = split_script_args(list(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(ours)
    args.script_args = script_args
    if args.command is None:
        parser.print_help()
        return 2
    settings = Settings.from_env()
    from .cluster.spec import ClusterError
    from .harness.job import RootError
    from .harness.sandbox import SandboxUnavailable
    from .stdout_guard import json_stdout

    try:
        with json_stdout(enabled=getattr(args, "json", False) is True):  # --json: stdout is the one JSON document
            return COMMANDS[args.command](args, settings)
    except (UsageError, RootError) as exc:
        parser.error(str(exc))  # exits 2
    except SandboxUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ClusterError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
