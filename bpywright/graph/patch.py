"""Apply an LLM's unified diff to a script: hunks matched by their context (line numbers are only hints)."""

from __future__ import annotations

import ast
import re
import textwrap

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
        tree = ast.parse(code)
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
        tree = ast.parse(script)
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
