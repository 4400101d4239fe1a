"""Borrowing the helpers a model called but never wrote: a run failed with NameError on a function that the prompt's
own example or a retrieved exemplar defines (small models call the example's `link(obj)` and forget its `def`). The
definition is copied from that verified code, with the top-level helpers it calls that the script also lacks; nothing
else is guessed."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from ... import pyast
from ...rules.unbound import bound_anywhere, not_defined
from .patch import insertion_line

_FENCED = re.compile(r"```python\n(.*?)```", re.S)


def code_blocks(text: str) -> list[str]:
    """The ```python blocks of a prompt text."""
    return _FENCED.findall(text)


def _top_level_defs(source: str) -> dict[str, str]:
    """Top-level function definitions of a source: name → its code."""
    try:
        tree = pyast.parse(source)
    except SyntaxError:
        return {}
    return {
        node.name: code
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and (code := ast.get_source_segment(source, node, padded=False)) is not None
    }


def _called(code: str) -> set[str]:
    return {n.func.id for n in ast.walk(pyast.parse(code)) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def borrow_helpers(script: str, failure: str, sources: Iterable[str]) -> tuple[str, list[str]] | None:
    """(script with the missing helpers defined after its imports, their names) or None when none can be borrowed."""
    missing = not_defined(failure)
    if missing is None:
        return None
    bound = bound_anywhere(script)
    if bound is None or missing in bound:
        return None
    tree = pyast.parse(script)
    for source in sources:
        defs = _top_level_defs(source)
        if missing not in defs:
            continue
        wanted, queue = [], [missing]
        while queue:
            name = queue.pop(0)
            if name in wanted or name in bound or name not in defs:
                continue
            wanted.append(name)
            queue.extend(sorted(_called(defs[name])))
        cut = insertion_line(tree, script)
        lines = script.splitlines(keepends=True)
        block = "".join(f"{defs[name]}\n\n\n" for name in wanted)
        head = "".join(lines[:cut])
        return head + ("\n" if head and not head.endswith("\n\n") else "") + block + "".join(lines[cut:]), wanted
    return None
