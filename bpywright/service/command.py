"""`bpywright serve`: the HTTP API and the gallery on uvicorn (stdlib imports only at module level)."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys

from ..cliargs import positive_int
from ..config import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Define serve's arguments (called when the CLI parser is built, so keep it import-light)."""
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1; 0.0.0.0 for all)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (default 8000; 0 picks a free one)")
    parser.add_argument("--workers", type=positive_int, help="warm Blender workers in the pool (default: BPYWRIGHT_WORKERS or cores)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])


def run(args: argparse.Namespace, settings: Settings) -> int:
    """Start the service and print its URL; returns when the server stops (Ctrl-C)."""
    import socket

    import uvicorn

    from .app import create_app

    if args.workers is not None:
        settings = dataclasses.replace(settings, workers=args.workers)
    if not settings.api_token:
        from .tokenfile import SecretError, default_path, read_token

        if os.path.lexists(default_path()):
            try:
                settings = dataclasses.replace(settings, api_token=read_token(default_path()))
            except SecretError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
            print(f"token: from {default_path()} (the Blender add-on reads the same file; browsers sign in at /login)", file=sys.stderr)
    from ..config import LOOPBACK_HOSTS
    from .access import is_loopback

    if not is_loopback(args.host) and not settings.api_token:
        print(
            f"error: refusing to serve on {args.host} without a token: anyone who reaches it could run code here. "
            "Set BPYWRIGHT_API_TOKEN (e.g. `export BPYWRIGHT_API_TOKEN=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')`) "
            "or serve on 127.0.0.1",
            file=sys.stderr,
        )
        return 2
    if not is_loopback(args.host) and settings.allowed_hosts == LOOPBACK_HOSTS:
        print(
            "note: only requests to localhost are answered; add this machine's names to BPYWRIGHT_ALLOWED_HOSTS (or '*')", file=sys.stderr
        )
    sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        print(f"error: cannot listen on {args.host}:{args.port}: {exc} (pick another --port)", file=sys.stderr)
        return 1
    sock.listen(2048)  # connections made before uvicorn is up wait in the backlog instead of being refused
    host, port = sock.getsockname()[:2]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    print(
        f"bpywright serving on http://{shown}:{port}/  (API docs: http://{shown}:{port}/docs; {settings.workers} Blender worker(s))",
        flush=True,
    )
    server = uvicorn.Server(uvicorn.Config(create_app(settings), log_level=args.log_level, timeout_graceful_shutdown=10))
    server.run(sockets=[sock])
    return 0
