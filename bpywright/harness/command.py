"""`bpywright run | recipes | lint | typings | schema`: the harness's commands (stdlib imports only at module level).

Like every `command.py`, this is a slice of the CLI (a front door): it may import what the CLI may.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..cliargs import UsageError, add_run_options, add_version, cluster_spec, run_options, target_version
from ..config import Settings


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """`bpywright run`'s arguments (import-light: called whenever the CLI parser is built)."""
    p.add_argument("scripts", nargs="+", type=Path, metavar="SCRIPT")
    p.add_argument("--report", type=Path, help="write the RunReport JSON here (one script)")
    p.add_argument("--render", type=Path, help="write the render PNG here (one script)")
    p.add_argument("--out-dir", type=Path, help="with several scripts: write NAME.json and NAME.png here")
    p.add_argument("--jobs", "-j", type=int, help="warm workers for several scripts (default: cores)")
    p.add_argument("--json", action="store_true", help="print the report(s) as JSON instead of a summary")
    p.add_argument("--outputs", type=Path, help="copy the files the script wrote in its working directory here (one script)")
    add_run_options(p)


def add_recipes_arguments(p: argparse.ArgumentParser) -> None:
    """`bpywright recipes`' arguments."""
    p.add_argument("--out-dir", type=Path, help="default: $BPYWRIGHT_ARTIFACTS/recipes")
    p.add_argument("--jobs", "-j", type=int, help="warm workers (default: cores)")
    add_run_options(p)


def add_lint_arguments(p: argparse.ArgumentParser) -> None:
    """`bpywright lint`'s arguments."""
    p.add_argument("scripts", nargs="+", type=Path, metavar="SCRIPT")
    p.add_argument("--json", action="store_true", help="print the LintReport(s) as JSON")
    p.add_argument("--tools", default="ruff,mypy,pyright", help="comma-separated subset of ruff,mypy,pyright")
    p.add_argument("--advisory", action="store_true", help="also show advisory findings")
    add_version(p)


def add_typings_arguments(p: argparse.ArgumentParser) -> None:
    """`bpywright typings build`'s arguments."""
    sub = p.add_subparsers(dest="typings_command", metavar="ACTION", required=True)
    build = sub.add_parser("build", help="build patched stubs for a Blender version into typings/build/")
    build.add_argument("--blender-version", help="X.Y (default: the target version, 4.5 unless configured) or latest")
    build.add_argument("--force", action="store_true", help="rebuild even when inputs are unchanged")


def add_schema_arguments(p: argparse.ArgumentParser) -> None:
    """`bpywright schema`'s arguments."""
    p.add_argument("--write", action="store_true", help="rewrite the committed schema file instead")


def run_command(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright run`: one script one-shot, several through the warm pool."""
    for script in args.scripts:
        if not script.is_file():
            raise UsageError(f"no such script: {script}")
    if len(args.scripts) > 1 and (args.report or args.render or args.outputs):
        raise UsageError("--report/--render/--outputs take one script; use --out-dir with several")
    options = run_options(args, settings)
    if len(args.scripts) > 1:
        cluster = cluster_spec(args, settings)
        jobs = args.jobs or (None if cluster else settings.workers)  # on a cluster: one actor per CPU unless --jobs
        reports = run_batch(
            args.scripts,
            options,
            args.out_dir,
            jobs,
            quiet=args.json,
            lint=args.lint,
            cluster=cluster,
            version=target_version(args, settings),
            index_root=settings.index_dir,
        )
        if args.json:
            print(json.dumps([json.loads(r.model_dump_json()) for r in reports], indent=2))
        return 0 if all(r.ok for r in reports) else 1
    from .launcher import run_script

    script = args.scripts[0]
    render_to = args.render or (args.out_dir / f"{script.stem}.png" if args.out_dir else None)
    report = run_script(script, options, render_to=render_to, outputs_to=args.outputs)
    if args.lint:
        from ..rules import rule_pack
        from .lint import lint_source

        version = target_version(args, settings)
        source = script.read_text(encoding="utf-8", errors="replace")
        report.lint = lint_source(source, version=version, rules=rule_pack(version, settings.index_dir))
    report_path = args.report or (args.out_dir / f"{script.stem}.json" if args.out_dir else None)
    if report_path is not None:
        report_path.parent.mkdir(parents=True, exist_ok=True)
        report.write(report_path)
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        from .summary import render_summary

        print(render_summary(report, str(script)))
        if report.lint is not None:
            from .lint import render_fix_block
            from .summary import escape_controls

            print(escape_controls(render_fix_block(script.read_text(encoding="utf-8", errors="replace"), report.lint)))
        if report_path is not None:
            print(f"  report: {report_path}")
    return 0 if report.ok else 1


def run_batch(
    scripts: list[Path],
    options,
    out_dir: Path | None,
    jobs: int | None,
    quiet: bool = False,
    lint: bool = False,
    cluster=None,
    version: str = "4.5",
    index_root: Path | None = None,
) -> list:
    """Run scripts through a warm pool (local, or on `cluster`) with a progress bar; write NAME.json/NAME.png under out_dir.

    lint: each script is also linted with a Linter built for `version` (stubs, rules; api-check with index_root's
    index of that version) and its LintReport attached.
    """
    import contextlib

    from tqdm import tqdm

    from ..cluster.factory import open_pool
    from .summary import one_line

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
            from ..rules import rule_pack
            from .lint import Linter

            linter = stack.enter_context(Linter(version=version, rules=rule_pack(version, index_root)))
        pool = stack.enter_context(open_pool(options, cluster=cluster, jobs=jobs, at_most=len(scripts)))
        reports = pool.map(scripts, options, render_dir=out_dir, on_done=done, linter=linter)
    bar.close()
    if not quiet:
        failed = sum(not r.ok for r in reports)
        print(f"{len(reports) - failed} passed, {failed} failed" + (f" — reports and renders in {out_dir}" if out_dir else ""))
    return reports


def recipes_command(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright recipes`: validate and render every bundled recipe that runs on the target version."""
    from ..recipes import all_recipes

    options = run_options(args, settings)
    out_dir = args.out_dir or settings.artifacts / "recipes"
    version = target_version(args, settings)
    recipes = all_recipes(version)  # those that run on the target version
    cluster = cluster_spec(args, settings)
    jobs = args.jobs or (None if cluster else settings.workers)
    reports = run_batch(
        [r.path for r in recipes], options, out_dir, jobs, lint=args.lint, cluster=cluster, version=version, index_root=settings.index_dir
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


def lint_command(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright lint`: syntax, rules, ruff, mypy, pyright → LintReport; exit 1 when anything is blocking."""
    from ..rules import rule_pack
    from .lint import ALL_TOOLS, lint_files, render_fix_block
    from .summary import escape_controls

    tools = tuple(t.strip() for t in args.tools.split(",") if t.strip())
    unknown = set(tools) - set(ALL_TOOLS)
    if unknown or not tools:
        raise UsageError(f"--tools takes a subset of {','.join(ALL_TOOLS)} (got {args.tools})")
    for script in args.scripts:
        if not script.is_file():
            raise UsageError(f"no such script: {script}")
    version = target_version(args, settings)
    reports = lint_files(args.scripts, tools, version, rule_pack(version, settings.index_dir))
    if args.json:
        dumped = [json.loads(r.model_dump_json()) | {"script": str(p)} for p, r in reports.items()]
        print(json.dumps(dumped[0] if len(dumped) == 1 else dumped, indent=2))
    else:
        for path, report in reports.items():
            print(escape_controls(f"== {path}: {len(report.blocking)} blocking, {len(report.diagnostics) - len(report.blocking)} advisory"))
            if report.diagnostics:
                block = render_fix_block(path.read_text(encoding="utf-8", errors="replace"), report, include_advisory=args.advisory)
                print(escape_controls(block))
            for status in report.tools:
                if status.status != "ok" or status.detail:
                    print(escape_controls(f"  {status.tool}: {status.status} {status.detail}"))
    return 1 if any(not r.ok for r in reports.values()) else 0


def typings_command(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright typings build`: materialise fake-bpy-module stubs for a version and apply the overlays."""
    from .stubs import StubsError, build_typings

    try:
        version = "latest" if args.blender_version == "latest" else target_version(args, settings)
        path = build_typings(version, force=args.force, progress=lambda msg: print(msg, file=sys.stderr))
    except StubsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(path)
    return 0


def schema_command(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright schema`: print (or rewrite) the RunReport JSON Schema."""
    from .report import export_schema, json_schema

    if args.write:
        print(export_schema())
    else:
        print(json.dumps(json_schema(), indent=2, sort_keys=True))
    return 0
