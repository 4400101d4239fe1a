"""`bpywright blender list | add VERSION|PATH | remove VERSION`: the Blender runtimes scripts can target."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..config import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Define the subcommand's arguments (import-light: called whenever the CLI parser is built)."""
    sub = parser.add_subparsers(dest="blender_command", metavar="ACTION", required=True)
    listing = sub.add_parser("list", help="the installed runtimes (the bundled 4.5 wheel, wheels in their venvs, executables)")
    listing.add_argument("--json", action="store_true")
    add = sub.add_parser("add", help="install bpy VERSION into its own venv under the data dir, or register a Blender binary")
    add.add_argument("what", metavar="VERSION|PATH", help="e.g. 5.2 (the bpy wheel), or /path/to/blender")
    add.add_argument("--python", type=Path, help="the CPython to build the venv with (default: one the wheel accepts, found here)")
    add.add_argument("--force", action="store_true", help="replace a registered runtime of the same version")
    remove = sub.add_parser("remove", help="forget a runtime and delete its venv")
    remove.add_argument("version", metavar="VERSION")


def _is_path(text: str) -> bool:
    return "/" in text or Path(text).expanduser().is_file()


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Body of `bpywright blender`."""
    from ..versions import VersionError
    from .models import Runtime
    from .registry import RuntimeInstallError, RuntimeMissing, RuntimeRegistry, record_json

    registry = RuntimeRegistry.for_settings(settings)
    try:
        if args.blender_command == "list":
            items = registry.list()
            if args.json:
                print(
                    json.dumps([record_json(r) if isinstance(r, Runtime) else {"version": r[0], "missing": r[1]} for r in items], indent=2)
                )
                return 0
            for item in items:
                if isinstance(item, Runtime):
                    default = " (default)" if item.version == settings.blender_version else ""
                    problem = f"  BROKEN: {item.missing()}" if item.missing() else ""
                    print(f"{item.describe()}{default}{problem}")
                else:
                    print(f"{item[0]:<5} BROKEN: {item[1]}")
            if not items:
                print("no Blender runtimes: `make setup` installs the bundled bpy 4.5 wheel")
            return 0
        if args.blender_command == "add":
            say = lambda msg: print(msg, file=sys.stderr)  # noqa: E731
            if _is_path(args.what):
                if args.python is not None:
                    print("error: --python applies to wheel runtimes (a VERSION), not to a Blender binary", file=sys.stderr)
                    return 2
                runtime = registry.add_executable(Path(args.what), force=args.force)
            else:
                runtime = registry.add_wheel(args.what, python=args.python, force=args.force, progress=say)
            print(f"added Blender {runtime.blender_version}: {runtime.describe()}")
            if runtime.kind == "wheel":
                print(f"static checks for it: `bpywright typings build --blender-version {runtime.version}`", file=sys.stderr)
            return 0
        removed = registry.remove(args.version)
        print(f"removed {removed.describe() if isinstance(removed, Runtime) else args.version + ' (' + removed + ')'}")
        return 0
    except (RuntimeInstallError, RuntimeMissing, VersionError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
