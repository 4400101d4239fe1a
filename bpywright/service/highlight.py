"""Server-side Python highlighting with the standard tokenize module: HTML spans with short CSS classes."""

from __future__ import annotations

import builtins
import io
import keyword
import token
import tokenize
from html import escape

BUILTINS = frozenset(dir(builtins))
CONSTANTS = frozenset({"True", "False", "None"})


def _css_class(tok: tokenize.TokenInfo, previous: str) -> str | None:
    """The class of one token: kw, const, builtin, def (name after def/class), str, num, com, op, or None."""
    if tok.type == token.NAME:
        if tok.string in CONSTANTS:
            return "const"
        if keyword.iskeyword(tok.string):
            return "kw"
        if previous in ("def", "class"):
            return "def"
        return "builtin" if tok.string in BUILTINS else None
    if tok.type == token.STRING or tok.type in _FSTRING_TYPES:
        return "str"
    return {token.NUMBER: "num", tokenize.COMMENT: "com", token.OP: "op"}.get(tok.type)


_FSTRING_TYPES = {getattr(token, n) for n in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END") if hasattr(token, n)}


def _offsets(source: str) -> list[int]:
    """Character offset at which each (1-based) line starts."""
    starts, total = [0, 0], 0
    for line in source.splitlines(keepends=True):
        total += len(line)
        starts.append(total)
    return starts


def highlight(source: str) -> str:
    """HTML for a <pre>: every token wrapped in a classed <span>; text the tokenizer cannot read stays plain (escaped)."""
    starts = _offsets(source)
    out: list[str] = []
    pos, previous = 0, ""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in (token.ENDMARKER, token.INDENT, token.DEDENT, token.NEWLINE, tokenize.NL) or not tok.string:
                continue
            start = starts[tok.start[0]] + tok.start[1] if tok.start[0] < len(starts) else len(source)
            end = starts[tok.end[0]] + tok.end[1] if tok.end[0] < len(starts) else len(source)
            if start < pos:  # never emit text twice (defensive: tokens are ordered)
                continue
            out.append(escape(source[pos:start]))
            css = _css_class(tok, previous)
            text = escape(source[start:end])
            out.append(f'<span class="{css}">{text}</span>' if css else text)
            pos, previous = end, tok.string if tok.type == token.NAME else ""
    except (tokenize.TokenError, SyntaxError, IndexError):
        pass  # unterminated string/bracket or bad indentation: the rest is shown as plain text
    out.append(escape(source[pos:]))
    return "".join(out)
