"""Get one script out of an LLM reply: a fenced ```python block, or bare code; say why when there is none."""

from __future__ import annotations

import re
import textwrap

from pydantic import BaseModel

from ... import pyast

_FENCE = re.compile(r"```[ \t]*([\w+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_PY_LANGS = {"python", "py", "python3", ""}
_NUMBERED = re.compile(r"^\s*\d+ \|(?: |$)")
_BARLESS = re.compile(r"^\s*\d+(?: (?=\s*\S)|\s*$)")  # `  62 if …`: a copied gutter number without its bar


class Extracted(BaseModel):
    """The code found in a reply (None when none), and why not."""

    code: str | None = None
    failure: str | None = None
    diff: str | None = None  # a ```diff block, when the reply held one
    dropped: int = 0  # lines of a reply cut off mid-statement left out (complete=True), so the rest parses


_INDENT_ERRORS = ("unexpected indent", "unindent does not match any outer indentation level")


def respaced(code: str, *, limit: int = 200) -> str | None:
    """Code whose statements the model started one space off (the local model writes ` Patty = …` after a comment: a token with
    a leading space), each moved to the nearest multiple of four where the parser points, until it parses. None when
    the code has another problem or a line the parser points at is not one space off."""
    lines = code.splitlines(keepends=True)
    for _ in range(limit):
        try:
            pyast.parse("".join(lines))
            return "".join(lines)
        except SyntaxError as exc:
            if exc.msg not in _INDENT_ERRORS or not exc.lineno or exc.lineno > len(lines):
                return None
            line = lines[exc.lineno - 1]
            indent = len(line) - len(line.lstrip(" "))
            if indent % 4 == 1:
                lines[exc.lineno - 1] = line[1:]
            elif indent % 4 == 3:
                lines[exc.lineno - 1] = " " + line
            else:
                return None
    return None


def complete_prefix(code: str) -> tuple[str, int] | None:
    """The longest run of code's first lines that parses (at least half of them), and how many lines it leaves out:
    what a reply cut off at the token limit wrote completely. None when no such prefix parses."""
    lines = code.rstrip("\n").splitlines()
    for end in range(len(lines) - 1, max(len(lines) // 2, 1) - 1, -1):
        prefix = "\n".join(lines[:end]).rstrip() + "\n"
        if prefix.strip() and _syntax_problem(prefix) is None:
            return prefix, len(lines) - end
    return None


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of each fenced block, in order."""
    return [(m.group(1).lower(), m.group(2)) for m in _FENCE.finditer(text)]


def unnumbered(code: str, *, partly: bool = False) -> str:
    """Code without the `  12 | ` line numbers the heal prompt shows, when a reply copied them onto every line (partly:
    onto two lines or more, as when a model copies the numbered script and writes its new lines without numbers). A
    number whose bar the model left out (`  62 if __name__ …`, seen from the local model) goes too, once bars show it copied
    the gutter."""
    lines = code.splitlines()
    filled = [line for line in lines if line.strip()]
    numbered = sum(1 for line in filled if _NUMBERED.match(line))
    barless = sum(1 for line in filled if not _NUMBERED.match(line) and _BARLESS.match(line))
    if len(filled) < 2 or numbered < 2 or (not partly and numbered + barless < len(filled)):
        return code

    def bare(line: str) -> str:
        if _NUMBERED.match(line):
            return _NUMBERED.sub("", line, count=1)
        return _BARLESS.sub("", line, count=1)

    return "\n".join(bare(line) for line in lines) + ("\n" if code.endswith("\n") else "")


def _syntax_problem(code: str) -> str | None:
    try:
        pyast.parse(code)
    except SyntaxError as exc:
        return f"line {exc.lineno}: {exc.msg}"
    return None


def extract_script(text: str, *, complete: bool = False) -> Extracted:
    """The reply's script: the longest python block; else the whole reply when it parses as Python and uses bpy.

    complete: a block left open (the reply cut off at the token limit) that does not parse gives its longest parsing
    prefix instead of a failure (a first script: what it built so far can run, and the heal sees how far it got)."""
    blocks = fenced_blocks(text)
    diff = next((body for lang, body in blocks if lang in ("diff", "patch", "udiff")), None)
    python = [body for lang, body in blocks if lang in _PY_LANGS and not body.lstrip().startswith(("--- ", "diff "))]
    if python:
        code = textwrap.dedent(unnumbered(max(python, key=len).strip("\n") + "\n"))  # a block indented as a whole is the same code
        problem = _syntax_problem(code)
        if problem == "line 1: unexpected indent" and _syntax_problem(first := code.lstrip(" \t")) is None:
            code, problem = first, None  # only the first line indented (the model started the block mid-line)
        if problem and _syntax_problem(mixed := textwrap.dedent(unnumbered(code, partly=True))) is None:
            code, problem = mixed, None  # numbers copied onto the script's lines, the new lines written without them
        if problem and (fixed := respaced(code)) is not None:
            code, problem = fixed, None  # statements started one space off
        if problem and complete and text.count("```") % 2 == 1 and python[-1] == blocks[-1][1] == max(python, key=len):
            if (found := complete_prefix(code)) is not None:
                return Extracted(code=found[0], diff=diff, dropped=found[1])
        if problem:
            return Extracted(code=code, failure=f"the reply's code is not valid Python ({problem})", diff=diff)
        return Extracted(code=code, diff=diff)
    if diff is not None:
        return Extracted(diff=diff, failure="the reply holds a diff but no complete script")
    bare = text.strip("\n")
    if bare.strip() and re.search(r"^\s*(import|from)\s+(bpy|bmesh|mathutils)\b", bare, re.MULTILINE):
        problem = _syntax_problem(bare)
        if problem is None:
            return Extracted(code=bare + "\n")
        return Extracted(code=bare + "\n", failure=f"the reply's code is not valid Python ({problem})")
    if not bare.strip():
        return Extracted(failure="the reply was empty")
    return Extracted(failure="the reply holds no Python code (expected one ```python block with the whole script)")
