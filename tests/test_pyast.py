"""bpywright.pyast: parsing from many threads at once (CPython 3.11's ast constructor shares its depth between threads)."""

from __future__ import annotations

import ast
import gc
import sys
import threading
from pathlib import Path

import pytest

from bpywright import pyast

SOURCE = (Path(pyast.__file__).parent / "graph" / "repair" / "patch.py").read_text(encoding="utf-8")


class _Finalized:
    """A cycle whose finalizer runs Python code when the collector frees it: the thread switch that broke ast.parse."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        sum(range(50))


def _hammer(parse, threads: int = 8, rounds: int = 60) -> list[BaseException]:
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(rounds):
                [_Finalized() for _ in range(20)]
                tree = parse(SOURCE)
                assert isinstance(tree, ast.Module) and tree.body
        except BaseException as exc:  # noqa: BLE001 - collected and asserted by the caller
            errors.append(exc)

    interval, thresholds = sys.getswitchinterval(), gc.get_threshold()
    sys.setswitchinterval(1e-6)
    gc.set_threshold(50, 2, 2)
    try:
        workers = [threading.Thread(target=work) for _ in range(threads)]
        for t in workers:
            t.start()
        for t in workers:
            t.join()
    finally:
        sys.setswitchinterval(interval)
        gc.set_threshold(*thresholds)
    return errors


def test_many_threads_parse_at_once_without_a_depth_mismatch() -> None:
    assert _hammer(pyast.parse) == []


def test_parse_keeps_ast_parse_behaviour() -> None:
    assert ast.dump(pyast.parse("x = [1, (2, 'a')]\n")) == ast.dump(ast.parse("x = [1, (2, 'a')]\n"))  # noqa: TID251
    with pytest.raises(SyntaxError):
        pyast.parse("def f(:\n", "<broken>")
    assert pyast.literal_eval("  [('seat', 'cube', (1, 2, 3))]") == [("seat", "cube", (1, 2, 3))]
    with pytest.raises(ValueError):
        pyast.literal_eval("__import__('os')")
