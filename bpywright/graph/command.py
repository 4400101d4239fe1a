"""`bpywright generate`: prompt → validated script, with live progress (stdlib imports only at module level).

Exit codes: 0 when an accepted script was produced, or — with no LLM configured — when the retrieved verified
exemplar ran cleanly here (it is printed as "retrieved", never as generated); 1 otherwise (best attempt, failed);
2 for usage errors (including --resume of an unknown thread id); 130 when interrupted (the run can be resumed).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..cliargs import add_cluster_flag
from ..config import Settings

if TYPE_CHECKING:
    from .loop.events import RequestCost


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Define this subcommand's arguments (called when the CLI parser is built, so keep it import-light)."""
    parser.epilog = (
        "exit codes: 0 accepted (or, with no LLM configured, a retrieved verified exemplar that ran here); "
        "1 not accepted or failed; 2 usage; 130 interrupted (continue with --resume THREAD_ID)"
    )
    parser.add_argument("prompt", nargs="?", help="what the script should build (not needed with --resume)")
    parser.add_argument("-o", "--output", type=Path, help="copy the final script here")
    parser.add_argument("--render", type=Path, help="copy the final render PNG here")
    parser.add_argument("--report", type=Path, help="copy the final RunReport JSON here")
    parser.add_argument("--n", type=int, default=1, help="candidates per generation, validated in parallel (default 1)")
    parser.add_argument("--max-rounds", type=int, help="heal rounds at most (default: BPYWRIGHT_MAX_HEAL_ROUNDS or 3)")
    parser.add_argument(
        "--blender-version",
        "--version",
        dest="version",
        metavar="X.Y",
        help="target Blender version, an installed runtime (default: BPYWRIGHT_BLENDER_VERSION, else 4.5); "
        "a resumed run keeps its own, and naming another one with --resume is an error",
    )
    parser.add_argument("--resolution", type=int, default=256, help="render size in pixels, square (default 256)")
    parser.add_argument("--json", action="store_true", help="print the GenerationResult as JSON on stdout")
    parser.add_argument("--resume", metavar="THREAD_ID", help="continue an interrupted run from its last checkpoint")
    add_cluster_flag(parser, "the candidates' validation runs: ")


def _open_store(settings: Settings):
    """The exemplar store when that package is installed and its database exists; else None (the bundled recipes are used)."""
    if not settings.exemplar_db.is_file():
        return None
    try:
        from ..exemplars.store import ExemplarStore
    except ImportError:
        return None
    try:
        return ExemplarStore.open(settings)
    except Exception as exc:  # a broken store must not stop generation: say so and use the recipes
        print(f"warning: exemplar store unavailable ({type(exc).__name__}: {exc}); using the bundled recipes", file=sys.stderr)
        return None


def _show(event) -> None:
    detail = f" — {event.detail}" if event.detail else ""
    from ..harness.summary import escape_controls

    line = escape_controls(f"[{event.elapsed_s:6.1f}s] {event.node:<8} #{event.attempt} {event.status}{detail}")
    print(line if len(line) <= 200 else line[:199] + "…", file=sys.stderr, flush=True)


def _copy(source: str | None, target: Path | None) -> None:
    if source and target is not None:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Run the subcommand; return the exit code."""
    if not args.prompt and not args.resume:
        print("error: give a PROMPT, or --resume THREAD_ID to continue a run", file=sys.stderr)
        return 2
    if args.n < 1 or (args.max_rounds is not None and args.max_rounds < 0) or not 16 <= args.resolution <= 4096:
        print("error: --n must be >= 1, --max-rounds >= 0 and --resolution between 16 and 4096", file=sys.stderr)
        return 2
    from ..cluster.spec import ClusterSpecError, cluster_setting

    try:
        cluster = cluster_setting(getattr(args, "cluster", None), settings.cluster)
    except ClusterSpecError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from ..cluster.factory import open_pool
    from ..harness.options import RunOptions
    from ..models.install import ModelInstallError
    from ..models.local import local_llm
    from ..models.server import LocalServerError
    from .loop.run import RunNotFound, VersionConflict, generate, new_thread_id, resumed_version

    thread_id = args.resume or new_thread_id()
    print(f"thread {thread_id}", file=sys.stderr)
    if args.resume:  # the checkpoint's target wins (its runtime runs the pool); naming another one is an error
        from ..runtimes import VersionError

        try:
            args.version = resumed_version(settings, args.resume, asked=args.version)
        except (RunNotFound, VersionConflict, VersionError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"resuming on Blender {args.version} (the run's target)", file=sys.stderr)
    store = _open_store(settings)
    from ..runtimes import RuntimeMissing, RuntimeRegistry, VersionError, major_minor

    options = RunOptions(
        **settings.run_limits(), render=True, resolution=args.resolution, sandbox=settings.sandbox, blender=settings.blender
    )
    try:
        args.version = major_minor(args.version or settings.blender_version)
        if settings.blender is None or args.version != major_minor(settings.blender_version):
            options = RuntimeRegistry.for_settings(settings).get(args.version).run_options(options, blender=None)
    except (RuntimeMissing, VersionError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        if not settings.llm_base_url:
            print("starting the local model server (if one is installed)…", file=sys.stderr, flush=True)
        with (
            local_llm(settings) as (served, note),
            open_pool(options, cluster=cluster, default_jobs=settings.workers, at_most=args.n) as pool,
        ):  # on a cluster: an actor per candidate, up to one per CPU
            if served.llm_base_url:
                print(f"model: {note or served.llm_model or served.llm_base_url}", file=sys.stderr)
            else:
                print(f"note: no LLM configured ({note}): the nearest verified exemplar will be retrieved", file=sys.stderr)
            result = generate(
                args.prompt or "",
                settings=served,
                version=args.version,
                n=args.n,
                max_rounds=args.max_rounds,
                thread_id=thread_id,
                resume=bool(args.resume),
                on_event=_show,
                pool=pool,
                store=store,
            )
    except RunNotFound as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (ModelInstallError, LocalServerError, KeyError) as exc:
        print(f"error: the local model cannot be served: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"interrupted: continue with `bpywright generate --resume {thread_id}`", file=sys.stderr)
        return 130
    finally:
        close = getattr(store, "close", None)
        if callable(close):
            close()
    _copy(result.script_path, args.output)
    _copy(result.render_path, args.render)
    _copy(result.report_path, args.report)
    if args.json:
        print(result.model_dump_json(indent=2))
    else:
        from ..harness.summary import escape_controls

        label = {"accepted": "ACCEPTED", "retrieved": "RETRIEVED (not generated)", "best_attempt": "NOT ACCEPTED", "failed": "FAILED"}
        by = f" by {result.model}" if result.model else ""
        print(escape_controls(f"{label[result.outcome]}{by}: {result.message}"))
        if (c := result.cost) is not None and c.llm_calls:
            print(cost_line(c))
        for name, path, copy in (
            ("script", result.script_path, args.output),
            ("report", result.report_path, args.report),
            ("render", result.render_path, args.render),
        ):
            if path:
                print(f"  {name}: {copy or path}" + (f" (also {path})" if copy else ""))
    ran_ok = result.run_report is not None and result.run_report.ok
    return 0 if result.outcome == "accepted" or (result.outcome == "retrieved" and ran_ok) else 1


def cost_line(c: RequestCost) -> str:
    """The request's cost in one line: wall time, the LLM's calls, tokens and waits, the critic, Blender, rounds."""
    prompt = ""
    if c.prompt_tokens is not None:
        about = "~" if c.prompt_source == "estimated" else ""
        prompt = f", prompt {about}{c.prompt_tokens} tokens ({about}{c.prompt_tokens_processed} processed, {about}{c.prompt_tokens_reused} reused)"
    first = f", first token {c.first_token_s:.1f} s" if c.first_token_s is not None else ""
    waits = f" ({c.first_token_total_s:.0f} s waiting for first tokens)" if c.first_token_total_s is not None and c.llm_calls > 1 else ""
    skipped = f", {c.critic_skipped} review(s) decided without it" if c.critic_skipped else ""
    fixes = f", {c.sure_fixes} script(s) given sure fixes before their first run" if c.sure_fixes else ""
    return (
        f"  cost: {c.wall_s:.0f} s; LLM {c.llm_s:.0f} s over {c.llm_calls} call(s), {c.tokens_written} tokens written{prompt}"
        f"{first}{waits}; critic {c.critic_s:.0f} s over {c.critic_calls} call(s){skipped}; Blender {c.blender_s:.1f} s over "
        f"{c.blender_runs} run(s){fixes}; {c.rounds} round(s), {c.rule_steps} free step(s)"
    )
