"""Names a script uses and never defines: a small model names constants and helpers it forgot to write (`TOP_SIZE`,
`LEG_HEIGHT`, `PLANT_LEAVES_COLOR`, `clear_scene`; seen in 4 of the first 5 loop runs of the generation benchmark).

No rule can know what `TOP_SIZE` should be, and asking for the whole script again costs a small model on a CPU minutes
(and often comes back as prose or with new mistakes). So the healer asks a short question instead: the request, the lines
that use the names and the constants the script does define, and "reply with only the lines that define them". The
reply's definitions of exactly those names go in just before the first top-level statement that uses one of them;
anything else in the reply is dropped. Which names are missing is `rules.unbound.undefined_names`' answer.
"""

from __future__ import annotations

import ast

from ... import pyast
from .patch import insertion_line, reply_statements, statement_span

MAX_USES = 3  # lines shown per missing name
MAX_CONSTANTS = 24  # the script's own top-level constants shown for reference


def uses(script: str, names: list[str]) -> list[tuple[int, str]]:
    """(line number, line) of the first few uses of each name, in line order."""
    tree = pyast.parse(script)
    lines = script.splitlines()
    chosen: set[int] = set()
    for name in names:
        at = sorted({n.lineno for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name})
        chosen.update(at[:MAX_USES])
    return [(n, lines[n - 1].strip()) for n in sorted(chosen)]


def constants(script: str) -> list[str]:
    """The script's top-level assignments of simple values (numbers, strings, tuples of them): what the missing names
    should fit with."""
    tree = pyast.parse(script)

    def simple(node: ast.expr) -> bool:
        return all(
            isinstance(n, (ast.Constant, ast.Tuple, ast.List, ast.UnaryOp, ast.BinOp, ast.operator, ast.unaryop, ast.Load, ast.Name))
            for n in ast.walk(node)
        )

    out = [
        segment
        for node in tree.body
        if isinstance(node, ast.Assign)
        and simple(node.value)
        and (segment := ast.get_source_segment(script, node)) is not None
        and "\n" not in segment
    ]
    return out[:MAX_CONSTANTS]


def _binds(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return set()


def insert_definitions(script: str, reply_code: str, wanted: list[str]) -> tuple[str, list[str]] | None:
    """(script with the reply's definitions of the wanted names inserted, the names defined), or None when the reply
    defines none of them (or does not parse, even dedented)."""
    fragment = reply_statements(reply_code)
    try:
        tree = pyast.parse(script)
    except SyntaxError:
        return None
    if fragment is None:
        return None
    keep = set(wanted)
    imports: list[str] = []
    definitions: list[str] = []
    defined: list[str] = []
    for node, text in fragment:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imports += text
        elif (binds := _binds(node)) & keep and binds <= keep | set(defined):
            definitions += text
            defined += sorted((binds & keep) - set(defined))
    if not defined:
        return None
    lines = script.splitlines()
    users = [i for i, node in enumerate(tree.body) if any(isinstance(n, ast.Name) and n.id in keep for n in ast.walk(node))]
    top = insertion_line(tree, script)
    at = max(top, statement_span(tree.body[users[0]])[0] - 1) if users else len(lines)
    present = {ast.get_source_segment(script, n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))}
    new_imports = [line for line in imports if line not in present]
    before = lines[top:at]
    gap = [""] if before and before[-1].strip() else []
    merged = [*lines[:top], *new_imports, *before, *gap, *definitions, *([""] if at < len(lines) else []), *lines[at:]]
    return "\n".join(merged).rstrip("\n") + "\n", defined
