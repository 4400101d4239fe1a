"""Only front doors read the environment: Settings.from_env() is called by the CLI, command modules, the service and MCP.

Everything below them takes the settings, paths and version it needs as parameters (ARCHITECTURE.md). The one
exception is graph/loop/build.py's make_graph: LangGraph's server (langgraph.json) imports a module-level factory and
passes it no settings.
"""

from __future__ import annotations

import ast
from pathlib import Path

import bpywright

PACKAGE = Path(bpywright.__file__).parent
FRONT_PACKAGES = ("service", "mcp")  # every module of these packages is a front door
FRONT_MODULES = ("cli.py", "__main__.py")  # and these, and every package's command.py
ONLY_IN = {"graph/loop/build.py": {"make_graph"}}  # module → the functions where a call is allowed


def _front_door(rel: Path) -> bool:
    return rel.parts[0] in FRONT_PACKAGES or rel.as_posix() in FRONT_MODULES or rel.name == "command.py"


def from_env_calls(path: Path) -> list[tuple[int, str | None]]:
    """(line, enclosing top-level function or None) of each `….from_env()` call in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for top in tree.body:
        name = top.name if isinstance(top, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) else None
        for node in ast.walk(top):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "from_env":
                found.append((node.lineno, name))
    return found


def test_from_env_is_called_only_by_front_doors() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if _front_door(rel):
            continue
        allowed = ONLY_IN.get(rel.as_posix(), set())
        offenders += [f"bpywright/{rel.as_posix()}:{line} (in {where})" for line, where in from_env_calls(path) if where not in allowed]
    assert not offenders, "Settings.from_env() below the CLI/service; pass settings down instead:\n" + "\n".join(offenders)


def test_the_check_sees_calls(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    return Settings.from_env().index_dir\nx = a.b.from_env()\n", encoding="utf-8")
    assert from_env_calls(module) == [(2, "f"), (3, None)]
    assert _front_door(Path("service/app.py")) and _front_door(Path("models/command.py")) and not _front_door(Path("ingest/search.py"))
