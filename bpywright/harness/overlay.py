"""Overlay merge for stub files: class members in an overlay replace or extend those of the stub."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .. import pyast


class OverlayError(ValueError):
    """An overlay that cannot be merged (a misplaced directive, two overlays on the same lines)."""


# Python 3.11's ast cannot parse PEP 695 headers (`class bpy_prop_collection[_GenericType1]:`); blank them for
# parsing only, keeping line numbers, since edits are made on the original lines.
_PEP695 = re.compile(r"^(\s*(?:class|def)\s+\w+)\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\](?=\s*[(:])", re.M)
_REMOVE = re.compile(r"^(?P<indent>[ \t]*)#\s*overlay:\s*remove\s+(?P<names>[\w, ]+?)\s*$", re.M)


def parse_stub(source: str) -> ast.Module:
    """ast of a stub, PEP 695 headers blanked so Python 3.11 can parse it."""
    return pyast.parse(_PEP695.sub(r"\1", source))


def _name(node: ast.stmt) -> str | None:
    """The name a statement binds (def, class, `x: T`, `x = ...`), else None."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name
    target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0] if isinstance(node, ast.Assign) else None
    return target.id if isinstance(target, ast.Name) else None


def member_spans(body: list[ast.stmt]) -> Iterator[tuple[str, int, int]]:
    """(name, first line index, end line index) of each named statement, with decorators and attribute docstrings."""
    for i, node in enumerate(body):
        name = _name(node)
        if name is None:
            continue
        start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))]) - 1
        end = node.end_lineno or node.lineno
        nxt = body[i + 1] if i + 1 < len(body) else None
        if isinstance(node, ast.AnnAssign | ast.Assign) and isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant):
            end = nxt.end_lineno or end
        yield name, start, end


def _header_end(lines: list[str], node: ast.ClassDef) -> int:
    """Index just past the `class X(...):` header lines of a class."""
    ends = [*(b.end_lineno or b.lineno for b in node.bases), *(k.end_lineno or k.lineno for k in node.keywords)]
    i = max([node.lineno, *ends]) - 1
    while not lines[i].split("#")[0].rstrip().endswith(":"):
        i += 1
    return i + 1


def _removals(overlay: str, tree: ast.Module) -> dict[str | None, set[str]]:
    """`# overlay: remove a, b` directives by owning class (None: module level)."""
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    found: dict[str | None, set[str]] = {}
    for m in _REMOVE.finditer(overlay):
        line = overlay.count("\n", 0, m.start()) + 1
        owner = None
        if m["indent"]:
            owner = max((c for c in classes if c.lineno <= line), key=lambda c: c.lineno, default=None)
            if owner is None:
                raise OverlayError(f"overlay directive on line {line} is indented but not inside a class: {m.group(0).strip()}")
        found.setdefault(owner.name if owner else None, set()).update(re.split(r"[,\s]+", m["names"].strip()))
    return found


@dataclass(frozen=True, order=True)
class Edit:
    """Replace lines[start:end] of a stub by text (start == end: insert), asked for by one overlay."""

    start: int
    end: int
    seq: int
    text: str = field(compare=False)
    overlay: str = field(compare=False)


def overlay_edits(lines: list[str], tree: ast.Module, overlay: str, name: str, seq: int = 0) -> list[Edit]:
    """The edits that merge one overlay into a parsed stub."""
    olines, otree = overlay.splitlines(keepends=True), parse_stub(overlay)
    removals = _removals(overlay, otree)
    edits: list[Edit] = []

    def edit(start: int, end: int, new: str) -> None:
        edits.append(Edit(start, end, seq + len(edits), new, name))

    def text(start: int, end: int) -> str:
        chunk = "".join(olines[start:end])
        return chunk if chunk.endswith("\n") else chunk + "\n"

    def merge_body(body: list[ast.stmt], obody: list[ast.stmt], end: int, removed: set[str], sep: str = "") -> None:
        spans: dict[str, list[tuple[int, int]]] = {}
        for member, s, e in member_spans(body):
            spans.setdefault(member, []).append((s, e))
        added: dict[str, str] = {}
        for member, s, e in member_spans(obody):
            added[member] = added.get(member, "") + text(s, e)
        for member in [*added, *sorted(removed - added.keys())]:
            old = spans.get(member, [])
            for k, (s, e) in enumerate(old):
                edit(s, e, added.get(member, "") if k == 0 else "")
            if not old and member in added:
                edit(end, end, sep + added[member])
        if body is not tree.body and not added and all(_name(n) in removed for n in body):
            edit(end, end, "    ...\n")  # a class body cannot be empty

    imports = {ast.unparse(n) for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)}
    import_end = max((n.end_lineno or 0 for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)), default=0)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    for node in otree.body:
        if isinstance(node, ast.Import | ast.ImportFrom) and ast.unparse(node) not in imports:
            edit(import_end, import_end, text(node.lineno - 1, node.end_lineno or node.lineno))
        elif isinstance(node, ast.ClassDef) and node.name in classes:
            cls = classes[node.name]
            if node.bases or node.keywords:
                edit(cls.lineno - 1, _header_end(lines, cls), text(node.lineno - 1, _header_end(olines, node)))
            merge_body(cls.body, node.body, cls.end_lineno or cls.lineno, removals.get(node.name, set()))
    top = [n for n in otree.body if not (isinstance(n, ast.ClassDef) and n.name in classes)]
    merge_body(tree.body, top, len(lines), removals.get(None, set()), sep="\n")
    return edits


def merge_overlays(stub: str, overlays: dict[str, str]) -> str:
    """Stub text with the overlays (name -> text) merged, parsing the big stub once; overlapping edits are an error."""
    lines, tree = stub.splitlines(keepends=True), parse_stub(stub)
    edits: list[Edit] = []
    for name, overlay in overlays.items():
        edits += overlay_edits(lines, tree, overlay, name, seq=len(edits))
    edits.sort()
    for a, b in zip(edits, edits[1:]):
        if b.start < a.end:
            raise OverlayError(f"overlays {a.overlay} and {b.overlay} both patch lines {a.start + 1}-{a.end} of the stub: keep one")
    for e in reversed(edits):
        lines[e.start : e.end] = [e.text] if e.text else []
    return "".join(lines)
