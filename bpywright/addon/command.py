"""`bpywright addon build`: the Blender extension zip (stdlib imports only at module level)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..config import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Define addon's subcommands (called when the CLI parser is built, so keep it import-light)."""
    sub = parser.add_subparsers(dest="addon_command", metavar="ACTION", required=True)
    build = sub.add_parser(
        "build", help="build dist/bpywright-VERSION.zip (Blender 4.2+: Edit > Preferences > Get Extensions > Install from Disk)"
    )
    build.add_argument("--out", type=Path, default=Path("dist"), help="folder for the zip (default: ./dist)")


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Build the zip and print its path."""
    from .build import ManifestError, build

    try:
        path = build(args.out)
    except (ManifestError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(path)
    return 0
