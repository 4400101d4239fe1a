"""CLI subcommand(s) of bpywright.check: argument definitions and the command body (stdlib imports only at module level)."""

from __future__ import annotations

import argparse

from ..config import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Define this subcommand's arguments (called when the CLI parser is built, so keep it import-light)."""


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Run the subcommand; return the exit code."""
    raise NotImplementedError("not built yet")
