"""A script that defines its builder functions and never calls them: it runs, builds nothing, and the render shows the
factory cube. The local model did this for wireless earbuds and a desk lamp (the pine-tree recipe's functions with the `main()`
call left out). The sure fix is to call the builders the script defines, in its own order, as a technical artist would:
`main()` when there is one, else every top-level function that nothing else calls and that needs no arguments."""

from __future__ import annotations

import ast

from ... import pyast
from ...harness.report import RunReport
from ..reading.expectations import built_nothing

MARKER = "# bpywright: the functions above were defined and never called"


def _calls(node: ast.AST) -> set[str]:
    return {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def _no_arguments_needed(fn: ast.FunctionDef) -> bool:
    a = fn.args
    return not a.posonlyargs and len(a.args) == len(a.defaults) and all(d is not None for d in a.kw_defaults)


def uncalled_builders(script: str) -> list[str]:
    """The top-level functions to call, in definition order (empty when the script calls any of its functions at top
    level, or defines none that can be called without arguments)."""
    try:
        tree = pyast.parse(script)
    except SyntaxError:
        return []
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    if not functions:
        return []
    defined = {f.name for f in functions}
    top_level = set().union(*(_calls(n) for n in tree.body if not isinstance(n, (ast.FunctionDef, ast.ClassDef))))
    if top_level & defined:
        return []  # something is called at top level (perhaps under `if __name__ == "__main__":`): not this failure
    if "main" in defined and _no_arguments_needed(next(f for f in functions if f.name == "main")):
        return ["main"]
    called_inside = set().union(*(_calls(f) for f in functions))
    return [f.name for f in functions if f.name not in called_inside and _no_arguments_needed(f)]


def call_builders(script: str | None, run: RunReport | None) -> str | None:
    """The script with its uncalled builders called at its end, when it ran and built nothing; else None."""
    if script is None or run is None or not run.ok or not built_nothing(run.scene) or MARKER in script:
        return None
    names = uncalled_builders(script)
    if not names:
        return None
    calls = "\n".join(f"{name}()" for name in names)
    return f"{script.rstrip()}\n\n\n{MARKER}: call them so the scene is built.\n{calls}\n"
