"""The `bpywright` command line: thin argument parsing over the harness (heavy imports stay lazy)."""

from __future__ import annotations

import argparse
import json
import signal
import sys
from pathlib import Path

from .config import Settings


class UsageError(Exception):
    """A command-line mistake: reported with exit code 2."""


def _positive_float(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be > 0")
    return value


def add_sandbox_flag(p: argparse.ArgumentParser) -> None:
    """--unsafe-no-sandbox: run untrusted code without bubblewrap (explicit consent; reports say rlimits-only)."""
    p.add_argument(
        "--unsafe-no-sandbox",
        "--no-sandbox",
        dest="no_sandbox",
        action="store_true",
        help="UNSAFE: no bubblewrap (rlimits and a cleared environment still apply); only for code you trust",
    )


def split_script_args(argv: list[str]) -> tuple[list[str], list[str]]:
    """Split `bpywright run s.py -- a b` into our arguments and the script's (what it finds after '--')."""
    if "--" in argv:
        at = argv.index("--")
        return argv[:at], argv[at + 1 :]
    return argv, []


def _add_version(p: argparse.ArgumentParser, *aliases: str) -> None:
    """--blender-version X (and the command's older spelling): the target Blender, one of `bpywright blender list`."""
    p.add_argument(
        "--blender-version",
        *aliases,
        dest="blender_version",
        metavar="X.Y",
        help="target Blender version, an installed runtime (default: BPYWRIGHT_BLENDER_VERSION, "
        "[tool.bpywright] blender_version, else 4.5)",
    )


def _add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", choices=["workbench", "cycles", "eevee"], default="workbench", help="render engine (default: workbench)")
    p.add_argument("--resolution", type=int, default=256, help="render size in pixels, square (default: 256)")
    p.add_argument("--samples", type=int, default=16, help="samples for cycles/eevee (default: 16)")
    p.add_argument("--timeout", type=_positive_float, default=60.0, help="seconds the script may run (default: 60)")
    p.add_argument("--blender", type=Path, help="a Blender executable instead of the bpy module (env BPYWRIGHT_BLENDER)")
    _add_version(p)
    add_sandbox_flag(p)
    p.add_argument("--root", type=Path, help="project folder the script sees read-only (default: its git root, else its folder)")
    p.add_argument("--no-render", action="store_true", help="run the script only, do not render")
    p.add_argument("--empty-scene", action="store_true", help="start from an empty scene instead of the factory startup scene")
    p.add_argument("--lint", action="store_true", help="lint first (ruff/mypy/pyright) and attach the LintReport to the report")
    from .cluster.spec import CLUSTER_HELP

    p.add_argument("--cluster", metavar="auto|ray://HOST:PORT", help="batches (several scripts): " + CLUSTER_HELP)


def _cluster(args: argparse.Namespace, settings: Settings):
    """--cluster, else BPYWRIGHT_CLUSTER, as a ClusterSpec; None for the local pool (a malformed value is a usage error)."""
    from .cluster.spec import ClusterSpecError, cluster_setting

    try:
        return cluster_setting(getattr(args, "cluster", None), settings.cluster)
    except ClusterSpecError as exc:
        raise UsageError(str(exc)) from exc


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="bpywright", description="Run, validate and render Blender Python scripts headlessly.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser("run", help="run scripts in headless Blender and report what happened")
    run.add_argument("scripts", nargs="+", type=Path, metavar="SCRIPT")
    run.add_argument("--report", type=Path, help="write the RunReport JSON here (one script)")
    run.add_argument("--render", type=Path, help="write the render PNG here (one script)")
    run.add_argument("--out-dir", type=Path, help="with several scripts: write NAME.json and NAME.png here")
    run.add_argument("--jobs", "-j", type=int, help="warm workers for several scripts (default: cores)")
    run.add_argument("--json", action="store_true", help="print the report(s) as JSON instead of a summary")
    run.add_argument("--outputs", type=Path, help="copy the files the script wrote in its working directory here (one script)")
    _add_run_options(run)

    recipes = sub.add_parser("recipes", help="validate and render the bundled recipes into artifacts/recipes")
    recipes.add_argument("--out-dir", type=Path, help="default: $BPYWRIGHT_ARTIFACTS/recipes")
    recipes.add_argument("--jobs", "-j", type=int, help="warm workers (default: cores)")
    _add_run_options(recipes)

    lint = sub.add_parser("lint", help="static checks against version-matched bpy stubs (exit 1 when blocking)")
    lint.add_argument("scripts", nargs="+", type=Path, metavar="SCRIPT")
    lint.add_argument("--json", action="store_true", help="print the LintReport(s) as JSON")
    lint.add_argument("--tools", default="ruff,mypy,pyright", help="comma-separated subset of ruff,mypy,pyright")
    lint.add_argument("--advisory", action="store_true", help="also show advisory findings")
    _add_version(lint)

    ingest = sub.add_parser("ingest", help="build the symbol index of a Blender version (inventory + introspection)")
    ingest.add_argument("--inventory", help="a Sphinx objects.inv (path or URL); optional")
    ingest.add_argument("--blender", type=Path, help="introspect this Blender executable instead of the bpy module")
    ingest.add_argument("--out", type=Path, help="index root (default: $BPYWRIGHT_ARTIFACTS/index)")
    ingest.add_argument("--force", action="store_true", help="rebuild even when inputs are unchanged")
    _add_version(ingest, "--version")

    search = sub.add_parser("search", help="hybrid search (BM25 + dense) over the symbol index")
    search.add_argument("query")
    search.add_argument("-k", type=int, default=10, help="hits to show (default 10)")
    search.add_argument("--json", action="store_true")
    _add_version(search, "--version")
    search.add_argument(
        "--usage", action="store_true", help="also rank by what verified scripts for similar prompts use (what the generator is given)"
    )

    api_check = sub.add_parser("api-check", help="check bpy/bmesh/mathutils names in a script against the index")
    api_check.add_argument("script", type=Path)
    api_check.add_argument("--json", action="store_true")
    _add_version(api_check, "--version")

    heal = sub.add_parser("heal", help="fix API drift with deterministic rules: run, match failures to rules, fix, re-run")
    heal.add_argument("script", type=Path)
    _add_version(heal, "--target")
    out = heal.add_mutually_exclusive_group()
    out.add_argument("--write", action="store_true", help="rewrite SCRIPT in place when healing helped")
    out.add_argument("-o", "--output", type=Path, help="write the healed script here")
    heal.add_argument("--max-rounds", type=int, default=5, help="run/fix rounds at most (default 5)")
    heal.add_argument("--json", action="store_true", help="print the outcome as JSON")
    heal.add_argument("--blender", type=Path, help="a Blender executable instead of the bpy module")
    heal.add_argument("--timeout", type=_positive_float, default=60.0, help="seconds each run may take (default 60)")
    heal.add_argument("--root", type=Path, help="project folder the script sees read-only (default: its git root, else its folder)")
    add_sandbox_flag(heal)

    doctor = sub.add_parser("doctor", help="check what works here and how to fix what does not")
    doctor.add_argument("--json", action="store_true", help="print the checks as JSON")

    typings = sub.add_parser("typings", help="bpy stubs for static checks")
    typings_sub = typings.add_subparsers(dest="typings_command", metavar="ACTION", required=True)
    build = typings_sub.add_parser("build", help="build patched stubs for a Blender version into typings/build/")
    build.add_argument("--blender-version", help="X.Y (default: the target version, 4.5 unless configured) or latest")
    build.add_argument("--force", action="store_true", help="rebuild even when inputs are unchanged")

    from .check import command as check_command
    from .exemplars import command as exemplars_command
    from .graph import command as generate_command
    from .mcp import command as mcp_command
    from .models import command as model_command
    from .runtimes import command as blender_command
    from .service import command as serve_command

    generate_command.add_arguments(
        sub.add_parser("generate", help="prompt → validated script: retrieve, generate (LLM), lint, run, critic, heal")
    )
    exemplars_command.add_arguments(sub.add_parser("exemplars", help="the exemplar store: add, seed, import, list, search, export"))
    serve_command.add_arguments(sub.add_parser("serve", help="the HTTP API and the exemplar gallery"))
    check_command.add_arguments(sub.add_parser("check", help="CI smoke test of bpy scripts: lint + run + render, JUnit XML, contact sheet"))
    mcp_command.add_arguments(sub.add_parser("mcp", help="MCP server on stdio for coding assistants (Claude, Cursor, VS Code)"))
    model_command.add_arguments(sub.add_parser("model", help="local LLMs (GGUF on CPU): install qwen2.5-coder-1.5b, list, verify, serve"))
    blender_command.add_arguments(sub.add_parser("blender", help="Blender runtimes by version: list, add 5.2 | /path/to/blender, remove"))

    schema = sub.add_parser("schema", help="print the RunReport JSON Schema")
    schema.add_argument("--write", action="store_true", help="rewrite the committed schema file instead")
    return parser


def target_version(args: argparse.Namespace, settings: Settings) -> str:
    """MAJOR.MINOR of --blender-version, else of the configured default."""
    from .runtimes import VersionError
    from .runtimes.target import target_version as resolve

    try:
        return resolve(getattr(args, "blender_version", None), settings)
    except VersionError as exc:
        raise UsageError(str(exc)) from exc


def target_runtime(args: argparse.Namespace, settings: Settings):
    """The runtime of the target version; a version that is not installed is a usage error naming the install command."""
    from .runtimes import RuntimeMissing, RuntimeRegistry

    try:
        return RuntimeRegistry.for_settings(settings).get(target_version(args, settings))
    except RuntimeMissing as exc:
        raise UsageError(str(exc)) from exc


def _backend_paths(args: argparse.Namespace, settings: Settings) -> tuple[Path | None, Path | None]:
    """(blender, python): --blender, else --blender-version's runtime, else BPYWRIGHT_BLENDER, else the default version's."""
    if getattr(args, "blender", None) is not None:
        return args.blender, None
    if getattr(args, "blender_version", None) is None and settings.blender is not None:
        return settings.blender, None
    runtime = target_runtime(args, settings)
    return runtime.blender, None if runtime.kind == "bundled" else runtime.python


def _run_options(args: argparse.Namespace, settings: Settings):
    from .harness.options import RunOptions

    if args.resolution < 16 or args.resolution > 4096:
        raise UsageError("--resolution must be between 16 and 4096")
    if args.samples < 1:
        raise UsageError("--samples must be >= 1")
    blender, python = _backend_paths(args, settings)
    if blender is not None and not Path(blender).is_file():
        raise UsageError(f"Blender executable not found: {blender}")
    return RunOptions(
        render=not args.no_render,
        engine=args.engine,
        resolution=args.resolution,
        samples=args.samples,
        timeout=args.timeout,
        sandbox=settings.sandbox and not args.no_sandbox,
        empty_scene=args.empty_scene,
        blender=blender,
        python=python,
        root=args.root,
        args=getattr(args, "script_args", []),
    )


def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright run`: one script one-shot, several through the warm pool."""
    for script in args.scripts:
        if not script.is_file():
            raise UsageError(f"no such script: {script}")
    if len(args.scripts) > 1 and (args.report or args.render or args.outputs):
        raise UsageError("--report/--render/--outputs take one script; use --out-dir with several")
    options = _run_options(args, settings)
    if len(args.scripts) == 1:
        from .harness.launcher import run_script

        script = args.scripts[0]
        render_to = args.render or (args.out_dir / f"{script.stem}.png" if args.out_dir else None)
        report = run_script(script, options, render_to=render_to, outputs_to=args.outputs)
        if args.lint:
            from .harness.lint import lint_source

            report.lint = lint_source(script.read_text(encoding="utf-8", errors="replace"), version=target_version(args, settings))
        report_path = args.report or (args.out_dir / f"{script.stem}.json" if args.out_dir else None)
        if report_path is not None:
            report_path.parent.mkdir(parents=True, exist_ok=True)
            report.write(report_path)
        if args.json:
            print(report.model_dump_json(indent=2))
        else:
            from .harness.summary import render_summary

            print(render_summary(report, str(script)))
            if report.lint is not None:
                from .harness.lint import render_fix_block

                print(render_fix_block(script.read_text(encoding="utf-8", errors="replace"), report.lint))
            if report_path is not None:
                print(f"  report: {report_path}")
        return 0 if report.ok else 1
    cluster = _cluster(args, settings)
    jobs = args.jobs or (None if cluster else settings.workers)  # on a cluster: one actor per CPU unless --jobs
    reports = run_batch(
        args.scripts, options, args.out_dir, jobs, quiet=args.json, lint=args.lint, cluster=cluster, version=target_version(args, settings)
    )
    if args.json:
        print(json.dumps([json.loads(r.model_dump_json()) for r in reports], indent=2))
    return 0 if all(r.ok for r in reports) else 1


def run_batch(
    scripts: list[Path],
    options,
    out_dir: Path | None,
    jobs: int | None,
    quiet: bool = False,
    lint: bool = False,
    cluster=None,
    version: str = "4.5",
) -> list:
    """Run scripts through a warm pool (local, or on `cluster`) with a progress bar; write NAME.json/NAME.png under out_dir.

    lint: each script is also linted with a Linter built for `version` (stubs, rules) and its LintReport attached.
    """
    import contextlib

    from tqdm import tqdm

    from .cluster.factory import open_pool
    from .harness.summary import one_line

    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    bar = tqdm(total=len(scripts), unit="script", file=sys.stderr, disable=None)

    def done(script: Path, report) -> None:
        if out_dir is not None:
            report.write(out_dir / f"{script.stem}.json")
        if not quiet:
            bar.write(one_line(report, str(script)))
        bar.update(1)

    with contextlib.ExitStack() as stack:
        linter = None
        if lint:
            from .harness.lint import Linter

            linter = stack.enter_context(Linter(version=version))
        pool = stack.enter_context(open_pool(options, cluster=cluster, jobs=jobs, at_most=len(scripts)))
        reports = pool.map(scripts, options, render_dir=out_dir, on_done=done, linter=linter)
    bar.close()
    if not quiet:
        failed = sum(not r.ok for r in reports)
        print(f"{len(reports) - failed} passed, {failed} failed" + (f" — reports and renders in {out_dir}" if out_dir else ""))
    return reports


def cmd_recipes(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright recipes`: the main job for now — validate and render every bundled recipe."""
    from .recipes import all_recipes

    options = _run_options(args, settings)
    out_dir = args.out_dir or settings.artifacts / "recipes"
    recipes = all_recipes(target_version(args, settings))  # those that run on the target version
    cluster = _cluster(args, settings)
    jobs = args.jobs or (None if cluster else settings.workers)
    reports = run_batch(
        [r.path for r in recipes], options, out_dir, jobs, lint=args.lint, cluster=cluster, version=target_version(args, settings)
    )
    index = [
        {
            "name": r.name,
            "prompt": r.prompt,
            "status": rep.status,
            "render": rep.render.path if rep.render else None,
            "nonblank_fraction": rep.render.nonblank_fraction if rep.render else None,
            "report": str(out_dir / f"{r.name}.json"),
        }
        for r, rep in zip(recipes, reports)
    ]
    (out_dir / "index.json").write_text(json.dumps(index, indent=2), encoding="utf-8")
    print(f"index: {out_dir / 'index.json'}")
    return 0 if all(r.ok for r in reports) else 1


def cmd_lint(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright lint`: syntax, ruff, mypy, pyright → LintReport; exit 1 when anything is blocking."""
    from .harness.lint import ALL_TOOLS, lint_files, render_fix_block

    tools = tuple(t.strip() for t in args.tools.split(",") if t.strip())
    unknown = set(tools) - set(ALL_TOOLS)
    if unknown or not tools:
        raise UsageError(f"--tools takes a subset of {','.join(ALL_TOOLS)} (got {args.tools})")
    for script in args.scripts:
        if not script.is_file():
            raise UsageError(f"no such script: {script}")
    reports = lint_files(args.scripts, tools, target_version(args, settings))  # type: ignore[arg-type]
    if args.json:
        dumped = [json.loads(r.model_dump_json()) | {"script": str(p)} for p, r in reports.items()]
        print(json.dumps(dumped[0] if len(dumped) == 1 else dumped, indent=2))
    else:
        for path, report in reports.items():
            print(f"== {path}: {len(report.blocking)} blocking, {len(report.diagnostics) - len(report.blocking)} advisory")
            if report.diagnostics:
                print(render_fix_block(path.read_text(encoding="utf-8", errors="replace"), report, include_advisory=args.advisory))
            for status in report.tools:
                if status.status != "ok" or status.detail:
                    print(f"  {status.tool}: {status.status} {status.detail}")
    return 1 if any(not r.ok for r in reports.values()) else 0


def cmd_ingest(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright ingest`: inventory → introspect → normalise → chunk → index, a no-op when inputs are unchanged."""
    from .ingest.pipeline import IngestError, ingest

    if args.blender is not None and not args.blender.is_file():
        raise UsageError(f"Blender executable not found: {args.blender}")
    runtime = target_runtime(args, settings) if args.blender is None and args.blender_version is not None else None
    try:
        result = ingest(
            inventory=args.inventory,
            blender=args.blender or (runtime.blender if runtime else None),
            out_root=args.out or settings.index_dir,
            python=runtime.python if runtime is not None and runtime.kind == "wheel" else None,
            settings=settings,
            force=args.force,
            progress=True,
        )
    except IngestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(result.summary())
    return 0


def cmd_search(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright search`: hybrid search over one version's symbols."""
    from .ingest.search import IndexMissing, SymbolIndex

    try:
        index = SymbolIndex.load(settings.index_for(target_version(args, settings)), settings=settings)
    except IndexMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    hits = index.search(args.query, k=args.k, usage=args.usage)
    if args.json:
        print(json.dumps([json.loads(h.model_dump_json()) for h in hits], indent=2))
    else:
        for n, hit in enumerate(hits, 1):
            print(hit.render(n))
    return 0


def cmd_api_check(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright api-check`: unknown bpy/bmesh/mathutils names with did-you-mean suggestions."""
    from .harness.lint import render_fix_block
    from .ingest.apicheck import api_check
    from .ingest.search import IndexMissing

    if not args.script.is_file():
        raise UsageError(f"no such script: {args.script}")
    source = args.script.read_text(encoding="utf-8", errors="replace")
    try:
        report = api_check(source, version=target_version(args, settings), settings=settings)
    except IndexMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print(render_fix_block(source, report, include_advisory=True))
    return 1 if report.blocking else 0


def cmd_heal(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright heal`: rules first, round by round, never leaving the script worse; exit 0 only if it passes."""
    from .rules.healer import heal_cli

    if not args.script.is_file():
        raise UsageError(f"no such script: {args.script}")
    if args.max_rounds < 1:
        raise UsageError("--max-rounds must be >= 1")
    if args.blender is not None and not args.blender.is_file():
        raise UsageError(f"Blender executable not found: {args.blender}")
    args.target = target_version(args, settings)
    args.blender, args.python = _backend_paths(args, settings)
    return heal_cli(args, settings)


def cmd_doctor(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright doctor`: what works here, and the command that fixes what does not."""
    from .doctor import run_checks

    checks = run_checks(settings)
    if args.json:
        print(json.dumps([c.__dict__ for c in checks], indent=2))
    else:
        width = max(len(c.name) for c in checks)
        for c in checks:
            mark = {"ok": "✔", "warn": "!", "fail": "✘"}[c.state]
            print(f"{mark} {c.name:<{width}}  {c.detail}")
            if c.fix and c.state != "ok":
                print(f"  {'':<{width}}  fix: {c.fix}")
    return 1 if any(c.state == "fail" for c in checks) else 0


def cmd_typings(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright typings build`: materialise fake-bpy-module stubs for a version and apply the overlays."""
    from .harness.stubs import StubsError, build_typings

    try:
        version = "latest" if args.blender_version == "latest" else target_version(args, settings)
        path = build_typings(version, force=args.force, progress=lambda msg: print(msg, file=sys.stderr))
    except StubsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(path)
    return 0


def cmd_schema(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright schema`: print (or rewrite) the RunReport JSON Schema."""
    from .harness.report import export_schema, json_schema

    if args.write:
        print(export_schema())
    else:
        print(json.dumps(json_schema(), indent=2, sort_keys=True))
    return 0


def _delegate(module: str):
    """A command whose body lives in `bpywright.<module>.command.run` (imported only when it runs)."""

    def command(args: argparse.Namespace, settings: Settings) -> int:
        import importlib

        return importlib.import_module(f"bpywright.{module}.command").run(args, settings)

    return command


COMMANDS = {
    "generate": _delegate("graph"),
    "exemplars": _delegate("exemplars"),
    "serve": _delegate("service"),
    "check": _delegate("check"),
    "mcp": _delegate("mcp"),
    "blender": _delegate("runtimes"),
    "model": _delegate("models"),
    "run": cmd_run,
    "recipes": cmd_recipes,
    "lint": cmd_lint,
    "ingest": cmd_ingest,
    "search": cmd_search,
    "api-check": cmd_api_check,
    "heal": cmd_heal,
    "doctor": cmd_doctor,
    "typings": cmd_typings,
    "schema": cmd_schema,
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

    try:
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
