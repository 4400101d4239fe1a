"""Apply an LLM's unified diff to a script: hunks matched by their context (line numbers are only hints)."""

from __future__ import annotations

import ast
import re
import textwrap

from ... import pyast

_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@")


class PatchError(ValueError):
    """The diff does not apply: the message says which hunk and why."""


def _hunks(diff: str) -> list[tuple[int, list[str]]]:
    hunks: list[tuple[int, list[str]]] = []
    for line in diff.splitlines():
        match = _HUNK.match(line)
        if match:
            hunks.append((int(match.group(1)), []))
        elif hunks and not line.startswith(("--- ", "+++ ", "\\ No newline")):
            hunks[-1][1].append(line if line[:1] in (" ", "+", "-") else " " + line)  # a bare empty line is empty context
    return hunks


def _find(lines: list[str], old: list[str], hint: int, start: int) -> int | None:
    """Where `old` occurs in lines at or after start, nearest to the hint; trailing whitespace ignored."""
    want = [s.rstrip() for s in old]
    spots = [i for i in range(start, len(lines) - len(old) + 1) if [s.rstrip() for s in lines[i : i + len(old)]] == want]
    return min(spots, key=lambda i: abs(i - hint)) if spots else None


def apply_unified_diff(script: str, diff: str) -> str:
    """The patched script; PatchError when there are no hunks or one's context is not found."""
    hunks = _hunks(diff)
    if not hunks:
        raise PatchError("no @@ hunks in the diff")
    lines = script.splitlines()
    out: list[str] = []
    pos = 0
    for n, (start, body) in enumerate(hunks, 1):
        old = [line[1:] for line in body if line[:1] in (" ", "-")]
        new = [line[1:] for line in body if line[:1] in (" ", "+")]
        at = _find(lines, old, start - 1, pos) if old else min(max(start - 1, pos), len(lines))
        if at is None:
            raise PatchError(f"hunk {n} (at line {start}): its context/removed lines are not in the script")
        out.extend(lines[pos:at])
        out.extend(new)
        pos = at + len(old)
    out.extend(lines[pos:])
    return "\n".join(out) + "\n"


def _definitions_only(body: list[ast.stmt]) -> bool:
    """Only imports and function/class definitions at the top level (at least one definition)."""
    kinds = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return all(isinstance(n, kinds) for n in body) and any(not isinstance(n, (ast.Import, ast.ImportFrom)) for n in body)


def reply_statements(reply_code: str) -> list[tuple[ast.stmt, list[str]]] | None:
    """A reply's code, dedented (small models often indent a fragment), as its top-level statements with their lines;
    None when it does not parse."""
    code = textwrap.dedent(reply_code)
    try:
        tree = pyast.parse(code)
    except SyntaxError:
        return None
    lines = code.splitlines()
    return [(node, lines[statement_span(node)[0] - 1 : statement_span(node)[1]]) for node in tree.body]


def statement_span(node: ast.stmt) -> tuple[int, int]:
    """(first, last) 1-based lines of a statement, decorators included."""
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
    return first, node.end_lineno or node.lineno


def insertion_line(tree: ast.Module, source: str) -> int:
    """Where new top-level definitions go (0-based line index): after the imports and a leading docstring."""

    def preamble(node: ast.stmt) -> bool:
        docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        return docstring or isinstance(node, (ast.Import, ast.ImportFrom))

    at = next((i for i, node in enumerate(tree.body) if not preamble(node)), len(tree.body))
    return statement_span(tree.body[at])[0] - 1 if at < len(tree.body) else len(source.splitlines())


def merge_fragment(script: str, reply_code: str) -> str | None:
    """A reply that holds only corrected definitions (a small model's "here is the fixed function", often indented):
    each replaces the script's top-level definition of that name, a new one goes after the imports, a new import on top.

    None when the reply is not such a fragment (it has other top-level statements, or does not parse even dedented),
    or when the script itself is only definitions (then the reply may well be the whole script).
    """
    fragment = reply_statements(reply_code)
    try:
        tree = pyast.parse(script)
    except SyntaxError:
        return None
    if fragment is None or not _definitions_only([node for node, _ in fragment]) or _definitions_only(tree.body):
        return None
    lines = script.splitlines()
    defined = {n.name: statement_span(n) for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    imports = {ast.get_source_segment(script, n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))}
    replaced: list[tuple[tuple[int, int], list[str]]] = []
    added: list[str] = []
    new_imports: list[str] = []
    for node, text in fragment:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if "\n".join(text) not in imports:
                new_imports += text
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name in defined:
            replaced.append((defined[node.name], text))
        else:
            added += [*text, "", ""]
    for (first, last), text in sorted(replaced, reverse=True):
        lines[first - 1 : last] = text
    cut = insertion_line(tree, script)  # every replaced definition starts at or below it, so it does not move
    merged = [*lines[:cut], *new_imports, *(["", *added] if added else []), *lines[cut:]]
    return "\n".join(merged).rstrip("\n") + "\n"


_COMPOUND = (ast.If, ast.For, ast.While, ast.With, ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
MAX_STATEMENT_LINES = 8  # a longer fragment is not "the lines I changed"


def merge_statements(script: str, reply_code: str, line: int | None) -> tuple[str, str] | None:
    """(script, how) from a reply that holds only a few plain statements (a small model's "change this to …"):

    - when each is `NAME = …` and the script assigns NAME in exactly one statement, each replaces that assignment
      (the model changed a value: `offsets = [0.0, 2.0, 4.0]`);
    - otherwise they take the place of the statement the run failed on (line), at its indentation, when they use a
      name that statement uses.

    None when the reply defines or imports anything, is longer than MAX_STATEMENT_LINES, fits neither case, or changes
    nothing."""
    fragment = reply_statements(reply_code)
    if not fragment or sum(len(text) for _, text in fragment) > MAX_STATEMENT_LINES:
        return None
    if any(isinstance(node, (*_COMPOUND, ast.Import, ast.ImportFrom)) for node, _ in fragment):
        return None
    try:
        tree = pyast.parse(script)
    except SyntaxError:
        return None
    simple = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and not isinstance(n, _COMPOUND)]
    lines = script.splitlines()
    edits = _by_target(fragment, simple)
    how = f"the reply's new {', '.join(sorted({_target(n) or '' for n, _ in fragment}))}"
    if edits is None:
        edits, how = _at_line(fragment, simple, lines, line), f"the reply's lines in place of line {line}, the one that failed"
    if not edits:
        return None
    for (first, last), new in sorted(edits, reverse=True):
        indent = lines[first - 1][: len(lines[first - 1]) - len(lines[first - 1].lstrip())]
        lines[first - 1 : last] = [indent + text if text.strip() else text for text in new]
    result = "\n".join(lines) + "\n"
    if result == script or not result.strip():
        return None
    try:
        pyast.parse(result)
    except SyntaxError:
        return None
    return result, how


def _target(node: ast.stmt) -> str | None:
    """NAME of a plain `NAME = …`, else None."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    return None


def _by_target(fragment: list[tuple[ast.stmt, list[str]]], simple: list[ast.stmt]) -> list[tuple[tuple[int, int], list[str]]] | None:
    edits: list[tuple[tuple[int, int], list[str]]] = []
    for node, text in fragment:
        name = _target(node)
        where = [n for n in simple if name is not None and _target(n) == name]
        if len(where) != 1:
            return None
        edits.append((statement_span(where[0]), text))
    return edits


def _at_line(
    fragment: list[tuple[ast.stmt, list[str]]], simple: list[ast.stmt], lines: list[str], line: int | None
) -> list[tuple[tuple[int, int], list[str]]]:
    spans = [statement_span(n) for n in simple if line and statement_span(n)[0] <= line <= statement_span(n)[1]]
    if not spans:
        return []
    first, last = min(spans, key=lambda s: s[1] - s[0])
    try:
        old = pyast.parse(textwrap.dedent("\n".join(lines[first - 1 : last])))
    except SyntaxError:  # a continuation line indented less than the statement's first
        return []
    used = {n.id for n in ast.walk(old) if isinstance(n, ast.Name)}
    if not used & {n.id for node, _ in fragment for n in ast.walk(node) if isinstance(n, ast.Name)}:
        return []
    return [((first, last), [text for _, block in fragment for text in block])]
