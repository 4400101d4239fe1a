"""`bpywright mcp`: the MCP server on stdio, the way desktop assistants launch it (stdlib imports only at module level)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
import threading

from ..cliargs import positive_int
from ..config import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Define mcp's arguments (called when the CLI parser is built, so keep it import-light)."""
    parser.add_argument("--workers", type=positive_int, help="warm Blender workers (default: BPYWRIGHT_WORKERS or cores)")
    parser.add_argument("--no-warm", action="store_true", help="start Blender workers and the linter on first use, not at startup")


def warm_up(ops, pool) -> None:
    """Start the pool's workers and the linter in the background, so the assistant's first call is fast."""
    import logging

    import anyio

    try:
        if hasattr(pool, "warm"):
            pool.warm()
        ops.linter(anyio.run(ops.installed_version)).lint("import bpy\n")
    except Exception:  # a broken Blender or checker is reported by the first tool call that needs it, with its fix
        logging.getLogger(__name__).warning("warm-up failed", exc_info=True)


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Serve MCP on stdin/stdout until the client closes stdin; everything else bpywright prints goes to stderr."""
    if args.workers is not None:
        settings = dataclasses.replace(settings, workers=args.workers)
    import anyio

    from ..service.app import open_context
    from .operations import Operations
    from .server import build_server

    ctx = open_context(settings)
    ops = Operations(lambda: ctx)
    server = build_server(ops)
    if not args.no_warm:
        threading.Thread(target=warm_up, args=(ops, ctx.pool), name="bpywright-warm-up", daemon=True).start()
    print(
        f"bpywright MCP server on stdio ({settings.workers} Blender worker(s), data in {settings.artifacts})", file=sys.stderr, flush=True
    )
    try:
        anyio.run(server.run_stdio_async)
    except KeyboardInterrupt:
        return 130
    finally:
        ops.close()
        ctx.close()
    return 0
