"""Parsing Python source into an ast, safe from many threads at once.

CPython 3.11's ast constructor keeps the depth of the tree it is converting in state shared by every thread. When the
interpreter switches threads mid-conversion (a finalizer run by the garbage collector is enough), a second parse moves
that depth and the first one fails with ``SystemError: AST constructor recursion depth mismatch`` (fixed in later
CPython releases). The service parses scripts on its worker threads (the store's API-name index, the critic's script
facts, the healer's patches), so every parse in the package goes through one lock here; ruff bans ``ast.parse``
elsewhere (TID251).
"""

from __future__ import annotations

import ast
import threading
from typing import Any

_LOCK = threading.RLock()


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source)`` in exec mode, one thread at a time. Raises SyntaxError as ast.parse does."""
    with _LOCK:
        return ast.parse(source, filename)  # noqa: TID251 - the one sanctioned call


def parse_expression(source: str) -> ast.Expression:
    """``ast.parse(source, mode="eval")``, one thread at a time."""
    with _LOCK:
        return ast.parse(source, mode="eval")  # noqa: TID251 - the one sanctioned call


def literal_eval(source: str) -> Any:
    """``ast.literal_eval`` of a string, its parse under the lock (evaluating the tree needs no lock)."""
    return ast.literal_eval(parse_expression(source.lstrip(" \t")))
