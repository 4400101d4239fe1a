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
    token = sub.add_parser(
        "token",
        help="create the service token file the add-on and `bpywright serve` share (0600; ~/.config/bpywright/token); prints its path",
    )
    token.add_argument("--file", default="", help="another place for it (set the same path in the add-on's preferences)")


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Build the zip, or create the token file; print the path."""
    if args.addon_command == "token":
        return _token(args.file, settings)
    from .build import ManifestError, build

    try:
        path = build(args.out)
    except (ManifestError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(path)
    return 0


def _token(path: str, settings: Settings) -> int:
    """Create the token file (or check the existing one); never print the token."""
    from ..service.tokenfile import SecretError, create_token

    try:
        target, created = create_token(path)
    except (SecretError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(target)
    print(
        f"{'created' if created else 'kept'} the token file: `bpywright serve` uses it when BPYWRIGHT_API_TOKEN is unset, "
        "and the Blender add-on reads it (restart serve to pick it up)",
        file=sys.stderr,
    )
    if settings.api_token:
        print(
            "note: BPYWRIGHT_API_TOKEN is set and wins over the file for serve; unset it, or the add-on's proof will fail", file=sys.stderr
        )
    return 0
