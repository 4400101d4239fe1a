"""Flags and argument readers the command modules share (stdlib imports only at module level: --help stays light)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .config import Settings


class UsageError(Exception):
    """A command-line mistake: reported with exit code 2."""


def positive_float(text: str) -> float:
    """An argparse type: a float > 0."""
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be > 0")
    return value


def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def add_sandbox_flag(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
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


VERSION_DEFAULT = "BPYWRIGHT_BLENDER_VERSION, [tool.bpywright] blender_version, else 4.5"


def add_version(p: argparse.ArgumentParser | argparse._ArgumentGroup, *aliases: str, help: str | None = None, matrix: bool = False) -> None:
    """--blender-version X (and the command's older spelling): the target Blender, one of `bpywright blender list`.

    matrix=True: repeatable, a list of versions (`all`: every installed one); help replaces the generic help text.
    """
    if matrix:
        p.add_argument(
            "--blender-version",
            *aliases,
            dest="blender_version",
            action="append",
            default=[],
            metavar="X.Y",
            help=help or "an installed runtime (`bpywright blender list`); repeat for a matrix; `all`: every installed one",
        )
        return
    p.add_argument(
        "--blender-version",
        *aliases,
        dest="blender_version",
        metavar="X.Y",
        help=help or f"target Blender version, an installed runtime (default: {VERSION_DEFAULT})",
    )


def add_cluster_flag(p: argparse.ArgumentParser | argparse._ArgumentGroup, what: str) -> None:
    """--cluster auto|ray://HOST:PORT, its help starting with what the command runs there."""
    from .cluster.spec import CLUSTER_HELP

    p.add_argument("--cluster", metavar="auto|ray://HOST:PORT", help=what + CLUSTER_HELP)


def add_run_options(p: argparse.ArgumentParser) -> None:
    """The flags of a run (engine, size, timeout, runtime, sandbox, root, lint, cluster) that `run` and `recipes` share."""
    from .harness.options import ENGINES

    p.add_argument("--engine", choices=ENGINES, default="workbench", help="render engine (default: workbench)")
    p.add_argument("--resolution", type=int, default=256, help="render size in pixels, square (default: 256)")
    p.add_argument("--samples", type=int, default=16, help="samples for cycles/eevee (default: 16)")
    p.add_argument(
        "--timeout",
        type=positive_float,
        help="seconds the script may run (default: the configured timeout, 60 s unless BPYWRIGHT_TIMEOUT or [tool.bpywright] says)",
    )
    p.add_argument("--blender", type=Path, help="a Blender executable instead of the bpy module (env BPYWRIGHT_BLENDER)")
    add_version(p)
    add_sandbox_flag(p)
    p.add_argument("--root", type=Path, help="project folder the script sees read-only (default: its git root, else its folder)")
    p.add_argument("--no-render", action="store_true", help="run the script only, do not render")
    p.add_argument("--empty-scene", action="store_true", help="start from an empty scene instead of the factory startup scene")
    p.add_argument("--lint", action="store_true", help="lint first (ruff/mypy/pyright) and attach the LintReport to the report")
    add_cluster_flag(p, "batches (several scripts): ")


def cluster_spec(args: argparse.Namespace, settings: Settings):
    """--cluster, else BPYWRIGHT_CLUSTER, as a ClusterSpec; None for the local pool (a malformed value is a usage error)."""
    from .cluster.spec import ClusterSpecError, cluster_setting

    try:
        return cluster_setting(getattr(args, "cluster", None), settings.cluster)
    except ClusterSpecError as exc:
        raise UsageError(str(exc)) from exc


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


def backend_paths(args: argparse.Namespace, settings: Settings) -> tuple[Path | None, Path | None]:
    """(blender, python): --blender, else --blender-version's runtime, else BPYWRIGHT_BLENDER, else the default version's."""
    if getattr(args, "blender", None) is not None:
        return args.blender, None
    if getattr(args, "blender_version", None) is None and settings.blender is not None:
        return settings.blender, None
    runtime = target_runtime(args, settings)
    return runtime.blender, None if runtime.kind == "bundled" else runtime.python


def run_options(args: argparse.Namespace, settings: Settings):
    """The RunOptions of add_run_options' flags (a bad size, sample count or Blender path is a usage error)."""
    from .harness.options import RunOptions

    if args.resolution < 16 or args.resolution > 4096:
        raise UsageError("--resolution must be between 16 and 4096")
    if args.samples < 1:
        raise UsageError("--samples must be >= 1")
    blender, python = backend_paths(args, settings)
    if blender is not None and not Path(blender).is_file():
        raise UsageError(f"Blender executable not found: {blender}")
    limits = settings.run_limits() | ({"timeout": args.timeout} if args.timeout is not None else {})
    return RunOptions(
        **limits,
        render=not args.no_render,
        engine=args.engine,
        resolution=args.resolution,
        samples=args.samples,
        sandbox=settings.sandbox and not args.no_sandbox,
        empty_scene=args.empty_scene,
        blender=blender,
        python=python,
        root=args.root,
        args=getattr(args, "script_args", []),
    )
