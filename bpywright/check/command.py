"""CLI subcommand(s) of bpywright.check: argument definitions and the command body (stdlib imports only at module level)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..cliargs import UsageError, add_cluster_flag, add_sandbox_flag, add_version, cluster_spec, positive_float, positive_int
from ..config import Settings

if TYPE_CHECKING:
    from .models import FailOn

USAGE = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Define this subcommand's arguments (called when the CLI parser is built, so keep it import-light)."""
    from ..harness.options import ENGINES

    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="scripts, or folders searched for *.py files that import bpy")
    out = parser.add_argument_group("outputs")
    out.add_argument("--junit", type=Path, metavar="FILE", help="write JUnit XML here (a testcase per script and Blender version)")
    out.add_argument("--json", type=Path, metavar="FILE", help="write the JSON summary here (also written to ARTIFACTS/summary.json)")
    out.add_argument(
        "--artifacts",
        type=Path,
        default=Path("bpywright-check"),
        metavar="DIR",
        help="reports, renders and contact-sheet.png go here (default: ./bpywright-check)",
    )
    blender = parser.add_argument_group("Blender versions")
    blender.add_argument(
        "--blender",
        action="append",
        default=[],
        metavar="PATH",
        help="a Blender executable, or `bpy` for the bpy wheel; repeat for a version matrix (default: the wheel)",
    )
    blender.add_argument("--version-matrix", action="store_true", help="also run on the bpy wheel and on every `blender` on PATH")
    add_version(blender, matrix=True)
    gate = parser.add_argument_group("what fails the check")
    gate.add_argument(
        "--lint",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="lint each script against its target version's stubs (default: on)",
    )
    gate.add_argument(
        "--fail-on",
        choices=["blocking", "advisory", "never"],
        help="blocking (default): failed runs and blocking lint; advisory: also advisory lint, moved renders, "
        "unexpected passes; never: always exit 0",
    )
    gate.add_argument(
        "--allow-expected-failures",
        action="store_true",
        help="accept the config's expected-failures (the checked repository's own claim) as xfail; without it a "
        "claimed failure still fails the check (reported as xfail, refused)",
    )
    gate.add_argument(
        "--baseline", type=Path, metavar="DIR", help="compare renders with this baseline (an earlier run's artifacts folder works)"
    )
    gate.add_argument("--update-baseline", action="store_true", help="write this run's renders into --baseline DIR afterwards")
    gate.add_argument(
        "--hash-threshold", type=int, metavar="BITS", help="perceptual-hash distance (of 64) above which a render moved (default 10)"
    )
    run = parser.add_argument_group("running")
    run.add_argument("--jobs", "-j", type=positive_int, metavar="N", help="warm Blender workers per version (default: cores)")
    add_cluster_flag(run, "the scripts' runs: ")
    run.add_argument(
        "--timeout", type=positive_float, metavar="SECONDS", help="per script; overrides the config (default: the configured timeout, 60 s)"
    )
    run.add_argument("--engine", choices=ENGINES, help="render engine (default: workbench)")
    run.add_argument("--resolution", type=int, metavar="PX", help="square render size (default 256)")
    add_sandbox_flag(run)
    cfg = parser.add_argument_group("config").add_mutually_exclusive_group()
    cfg.add_argument(
        "--config", type=Path, metavar="FILE", help="a bpywright.toml or pyproject.toml (default: found from the first PATH upward)"
    )
    cfg.add_argument("--no-config", action="store_true", help="ignore config files")
    # The config file is the checked repository's word: its limits only lower the operator's (BPYWRIGHT_* variables,
    # these flags, bpywright's defaults), its fail-on only tightens the gate, its expected failures need the flag above.


def _usage(message: str) -> int:
    print(f"bpywright check: error: {message}", file=sys.stderr)
    return USAGE


def _config(args: argparse.Namespace):
    from .project_config import CheckConfig, ConfigError, find_config, load_config

    if args.no_config:
        return CheckConfig()
    if args.config is not None:
        if not args.config.is_file():
            raise ConfigError(f"config file not found: {args.config}")
        return load_config(args.config)
    found = find_config(args.paths[0])
    return load_config(found) if found is not None else CheckConfig()


def _plan(args: argparse.Namespace, settings: Settings):
    """The CheckPlan, or raises one of the usage errors."""
    from .baseline import DEFAULT_THRESHOLD
    from .discovery import discover
    from .runner import DEFAULT_RESOLUTION, CheckPlan
    from .targets import resolve_targets

    config = _config(args)
    resolution = args.resolution or config.resolution or DEFAULT_RESOLUTION
    if not 16 <= resolution <= 4096:
        raise ValueError("--resolution must be between 16 and 4096")
    if args.update_baseline and args.baseline is None:
        raise ValueError("--update-baseline needs --baseline DIR (where to write the baselines)")
    if args.baseline is not None and not args.update_baseline and not args.baseline.is_dir():
        # a first CI run has no baseline yet: every render is noted as without baseline, nothing fails
        print(f"note: baseline folder {args.baseline} does not exist yet (write one with --update-baseline)", file=sys.stderr)
    if args.hash_threshold is not None and not 0 <= args.hash_threshold <= 64:
        raise ValueError("--hash-threshold must be between 0 and 64")
    _refuse_output_links(args)
    scripts, root = discover(args.paths, config)
    versions = args.blender_version or ([] if args.blender or args.version_matrix else config.blender_versions)
    if versions:
        from .targets import runtime_targets

        targets = runtime_targets(versions, settings)
        extra, notes = resolve_targets(args.blender, args.version_matrix, None) if args.blender or args.version_matrix else ([], [])
        targets += [t for t in extra if all(t.version != k.version for k in targets)]
    else:
        targets, notes = resolve_targets(args.blender, args.version_matrix, settings.blender)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    cluster = cluster_spec(args, settings)  # a malformed value raises UsageError
    return config, CheckPlan(
        scripts=scripts,
        root=root,
        targets=targets,
        config=config,
        artifacts=Path(os.path.abspath(args.artifacts)),  # not resolved: the path checked for links is the one written
        lint=args.lint,
        jobs=args.jobs or (None if cluster else settings.workers),
        cluster=cluster,
        index_root=settings.index_dir,
        limits=tuple(_limits(settings, config).items()),
        allow_expected_failures=args.allow_expected_failures,
        sandbox=settings.sandbox and not args.no_sandbox,
        engine=args.engine or config.engine or "workbench",
        resolution=resolution,
        timeout=args.timeout,
        baseline=args.baseline.resolve() if args.baseline else None,
        threshold=next(t for t in (args.hash_threshold, config.hash_threshold, DEFAULT_THRESHOLD) if t is not None),
    )


def _limits(settings: Settings, config) -> dict:
    """The sandbox limits of a check: the operator's are ceilings that the checked repository's config may only lower.

    The operator's: a BPYWRIGHT_* variable, else bpywright's default. A value from a config file (the check's config,
    or the one Settings found from the working directory, both in the checked tree) above it is capped, with a note.
    The timeout here is the operator's ceiling; CheckPlan.timeout_for applies the config's timeouts below it.
    """
    from ..config import LIMITS
    from ..harness.summary import escape_controls

    limits: dict = {}
    for name, (default, variable) in LIMITS.items():
        source = settings.limit_source(name)
        ceiling = getattr(settings, name) if source == variable else default
        claimed, where = getattr(config, name, None), str(config.path)
        if claimed is None and source not in (variable, "default"):
            claimed, where = getattr(settings, name), source
        if name == "timeout" or claimed is None:
            limits[name] = ceiling
            continue
        if claimed > ceiling:
            print(
                escape_controls(
                    f"note: {where}: {name} = {claimed} is above the operator's {ceiling} ({variable} or the default): "
                    f"using {ceiling} (the checked repository can lower limits, not raise them; set {variable} to raise it)"
                ),
                file=sys.stderr,
            )
        limits[name] = min(claimed, ceiling)
    return limits


def _fail_on(args: argparse.Namespace, config) -> FailOn:
    """--fail-on, else the config's when it is at least as strict as blocking (the repository may tighten the gate only)."""
    if args.fail_on:
        return args.fail_on
    if config.fail_on == "never":
        from ..harness.summary import escape_controls

        note = f"note: {config.path}: fail-on = 'never' ignored (the checked repository cannot loosen the gate; pass --fail-on never)"
        print(escape_controls(note), file=sys.stderr)
    return config.fail_on if config.fail_on == "advisory" else "blocking"


def _refuse_output_links(args: argparse.Namespace) -> None:
    """UntrustedFileError when an output path is, or passes through, a symbolic link (a checkout can commit one)."""
    from ..untrusted_files import links_inside, refuse_links

    refuse_links(args.artifacts, "--artifacts folder")
    for link in links_inside(args.artifacts) if args.artifacts.is_dir() else []:
        refuse_links(link, "the --artifacts folder's entry")
    for flag, path in (("--junit file", args.junit), ("--json file", args.json)):
        if path is not None:
            refuse_links(path, flag)
    if args.update_baseline and args.baseline is not None:
        refuse_links(args.baseline, "--baseline folder")
        for link in links_inside(args.baseline) if args.baseline.is_dir() else []:
            refuse_links(link, "the --baseline folder's entry")


def _print_summary(summary) -> None:
    from ..harness.summary import escape_controls
    from .junit import xfail_note

    c = summary.counts
    parts = [f"{c.passed} passed", f"{c.failed} failed", f"{c.error} errors"]
    parts += [
        f"{n} {label}"
        for n, label in (
            (c.xfail, "xfail"),
            (c.xpass, "xpass"),
            (c.visual_changed, "renders moved"),
            (c.baseline_missing, "without baseline"),
        )
        if n
    ]
    for case in summary.cases:
        if case.outcome in ("failed", "error", "xfail") or case.advisory:
            where = f" (line {case.line})" if case.line else ""
            label = "ADVISORY" if case.outcome == "passed" else case.outcome.upper()
            text = case.message or (case.advisory[0] if case.advisory else "")
            if case.outcome == "xfail":
                text += f" [{xfail_note(case, summary.config)}]"
            print(escape_controls(f"  {label:<8} {case.script} [{case.target}]{where}: {text}"))
            if case.heal:
                print(escape_controls(f"           {case.heal}"))
    versions = ", ".join(t.label for t in summary.targets)
    print(
        f"{', '.join(parts)} — {c.total} runs on {versions} in {summary.seconds:.1f}s; exit {summary.exit_code} (--fail-on {summary.fail_on})"
    )
    print(
        f"artifacts: {summary.artifacts}  contact sheet: {summary.contact_sheet}" + (f"  junit: {summary.junit}" if summary.junit else "")
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Run the subcommand; return the exit code."""
    from ..harness.backend import BackendError
    from ..harness.summary import escape_controls
    from .discovery import DiscoveryError
    from .project_config import ConfigError
    from .targets import TargetError

    started = time.perf_counter()
    try:
        config, plan = _plan(args, settings)
    except (ConfigError, DiscoveryError, TargetError, UsageError, ValueError) as exc:
        return _usage(escape_controls(str(exc)))

    from ..untrusted_files import UntrustedFileError

    fail_on = _fail_on(args, config)
    try:
        return _check(args, config, plan, fail_on, started)
    except BackendError as exc:
        print(escape_controls(f"bpywright check: error: Blender did not start: {exc} (try `bpywright doctor`)"), file=sys.stderr)
        return 1
    except UntrustedFileError as exc:  # an output path became a link while the scripts ran
        return _usage(escape_controls(str(exc)))


def _check(args: argparse.Namespace, config, plan, fail_on: FailOn, started: float) -> int:
    """Run the plan, write the summary, JUnit and contact sheet (never through a link), print the summary; the exit code."""
    from ..untrusted_files import write_nofollow
    from .baseline import update_baseline
    from .contact_sheet import write_contact_sheet
    from .junit import write_junit
    from .models import CheckSummary, Counts
    from .runner import lint_version, run_check
    from .verdict import exit_code

    cases = run_check(plan)
    summary = CheckSummary(
        root=str(plan.root),
        fail_on=fail_on,
        exit_code=exit_code(cases, fail_on),
        lint_stubs=", ".join(sorted({lint_version(t) for t in plan.targets})) if plan.lint else None,
        targets=plan.targets,
        counts=Counts(),
        cases=cases,
        artifacts=str(plan.artifacts),
        baseline=str(plan.baseline) if plan.baseline else None,
        config=str(config.path) if config.path else None,
        expected_failures="allowed" if plan.allow_expected_failures else "refused",
        limits=dict(plan.limits),
    )
    summary.counts = summary.count()
    summary.contact_sheet = str(write_contact_sheet(cases, plan.artifacts / "contact-sheet.png", [t.label for t in plan.targets]))
    if args.update_baseline:
        _refuse_output_links(args)
        written = update_baseline(plan.baseline, cases, {s.rel: s.path for s in plan.scripts})
        summary.baseline_updated = True
        print(f"baseline: wrote {written} render(s) to {plan.baseline}")
    summary.seconds = time.perf_counter() - started
    if args.junit is not None:
        summary.junit = str(write_junit(summary, args.junit))
    text = summary.model_dump_json(indent=2).encode()
    write_nofollow(plan.artifacts / "summary.json", text, "summary")
    if args.json is not None:
        write_nofollow(args.json, text, "--json file")
    _print_summary(summary)
    return summary.exit_code
