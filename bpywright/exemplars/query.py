"""Filters and query text for the exemplar store: SQL WHERE clauses and FTS5 MATCH expressions."""

from __future__ import annotations

import re

from pydantic import BaseModel

WORD = re.compile(r"[^\W_]+")  # FTS5's unicode61 splits on "_" and ".", so a symbol becomes its words
MAX_TERMS = 32
# Words that match nearly every prompt ("a cube with a bevel"): left out of the query so they do not rank.
STOP_WORDS = frozenset("a an and are as at be by for from in into is it its of on or that the this to with".split())


class Filters(BaseModel):
    """Optional exact-match filters; `symbol` also matches a prefix (`bpy.ops.mesh`) or a last part (`primitive_cube_add`)."""

    status: str | None = None
    blender_version: str | None = None
    source: str | None = None
    symbol: str | None = None
    trusted: bool | None = None  # True: only exemplars that may teach generation (never unreviewed user scripts)


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def where_clause(filters: Filters | None) -> tuple[str, dict[str, str]]:
    """(SQL condition on alias `e`, named parameters) for the filters; "1" when there are none."""
    parts, params = [], {}
    if filters is not None:
        for column in ("status", "blender_version", "source"):
            value = getattr(filters, column)
            if value:
                parts.append(f"e.{column} = :f_{column}")
                params[f"f_{column}"] = value
        if filters.trusted is not None:
            parts.append("e.trusted = :f_trusted")
            params["f_trusted"] = int(filters.trusted)
        if filters.symbol:
            parts.append(
                "EXISTS (SELECT 1 FROM exemplar_symbols s WHERE s.exemplar_id = e.id AND (s.symbol = :f_symbol"
                " OR s.symbol LIKE :f_prefix ESCAPE '\\' OR s.symbol LIKE :f_suffix ESCAPE '\\'))"
            )
            params |= {
                "f_symbol": filters.symbol,
                "f_prefix": _like_escape(filters.symbol) + ".%",
                "f_suffix": "%." + _like_escape(filters.symbol),
            }
    return (" AND ".join(parts) or "1"), params


def fts_query(text: str) -> str:
    """An FTS5 MATCH expression: each word quoted, any word may match (BM25 ranks documents with more)."""
    words = list(dict.fromkeys(w.lower() for w in WORD.findall(text) if w.lower() not in STOP_WORDS))[:MAX_TERMS]
    return " OR ".join(f'"{w}"' for w in words)
