"""`bpywright ingest | search | api-check`: the symbol index's commands (stdlib imports only at module level)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..cliargs import UsageError, add_version, target_runtime, target_version
from ..config import Settings


def add_ingest_arguments(p: argparse.ArgumentParser) -> None:
    """`bpywright ingest`'s arguments (import-light: called whenever the CLI parser is built)."""
    p.add_argument("--inventory", help="a Sphinx objects.inv (path or URL); optional")
    p.add_argument("--blender", type=Path, help="introspect this Blender executable instead of the bpy module")
    p.add_argument("--out", type=Path, help="index root (default: $BPYWRIGHT_ARTIFACTS/index)")
    p.add_argument("--force", action="store_true", help="rebuild even when inputs are unchanged")
    add_version(p, "--version")


def add_search_arguments(p: argparse.ArgumentParser) -> None:
    """`bpywright search`'s arguments."""
    p.add_argument("query")
    p.add_argument("-k", type=int, default=10, help="hits to show (default 10)")
    p.add_argument("--json", action="store_true")
    add_version(p, "--version")
    p.add_argument(
        "--usage", action="store_true", help="also rank by what verified scripts for similar prompts use (what the generator is given)"
    )


def add_api_check_arguments(p: argparse.ArgumentParser) -> None:
    """`bpywright api-check`'s arguments."""
    p.add_argument("script", type=Path)
    p.add_argument("--json", action="store_true")
    add_version(p, "--version")


def ingest_command(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright ingest`: inventory → introspect → normalise → chunk → index, a no-op when inputs are unchanged."""
    from .pipeline import IngestError, ingest

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


def search_command(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright search`: hybrid search over one version's symbols."""
    from ..harness.summary import escape_controls
    from .search import IndexMissing, SymbolIndex

    try:
        index = SymbolIndex.load(settings.index_for(target_version(args, settings)), settings=settings)
    except IndexMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    hits = index.search(args.query, k=args.k, mode="hybrid+usage" if args.usage else "hybrid")
    if args.json:
        print(json.dumps([json.loads(h.model_dump_json()) for h in hits], indent=2))
    else:
        for n, hit in enumerate(hits, 1):
            print(escape_controls(hit.render(n)))
    return 0


def api_check_command(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright api-check`: unknown bpy/bmesh/mathutils names with did-you-mean suggestions."""
    from ..harness.lint import render_fix_block
    from ..harness.summary import escape_controls
    from .apicheck import api_check
    from .search import IndexMissing

    if not args.script.is_file():
        raise UsageError(f"no such script: {args.script}")
    source = args.script.read_text(encoding="utf-8", errors="replace")
    try:
        report = api_check(source, version=target_version(args, settings), index_root=settings.index_dir)
    except IndexMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print(escape_controls(render_fix_block(source, report, include_advisory=True)))
    return 1 if report.blocking else 0
