"""The in-Blender entry and its sibling modules: standard library + bpy only, small, loaded by path, shipped.

Read with ast (nothing here imports them into the host), except the one check that loads them as Blender's Python
would: by the entry's path, in an isolated interpreter that has no bpywright on sys.path.
"""

from __future__ import annotations

import ast
import fnmatch
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bpywright.harness.backend import ENTRY
from bpywright.harness.report import SCHEMA_VERSION, RunReport, entry_schema_version

HERE = ENTRY.parent
MODULES = sorted(HERE.glob("*.py"))
SIBLINGS = {p.stem for p in MODULES}
BLENDER_MODULES = {"bpy", "mathutils", "bmesh"}  # what Blender's Python adds to the standard library
MAX_LINES = 250
PYPROJECT = Path(__file__).parents[2] / "pyproject.toml"


def _imports(path: Path) -> list[tuple[int, str]]:
    """(relative level, module) for every import in a file, those inside functions included."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(0, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level and node.module is None:
                found += [(node.level, alias.name) for alias in node.names]  # from . import capture
            else:
                found.append((node.level, node.module or ""))
    return found


def test_the_entry_has_siblings() -> None:
    assert {"entry", "schema", "job", "zygote"} <= SIBLINGS and len(SIBLINGS) >= 8


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_imports_only_the_standard_library_bpy_and_siblings(path: Path) -> None:
    allowed = set(sys.stdlib_module_names) | BLENDER_MODULES
    for level, module in _imports(path):
        if level:
            assert level == 1 and module.split(".")[0] in SIBLINGS, f"{path.name}: from {'.' * level}{module}"
        else:
            top = module.split(".")[0]
            assert top in allowed, f"{path.name} imports {module}: only the standard library and bpy run inside Blender"
            assert top not in SIBLINGS, f"{path.name} imports {module} by a plain name: the script's sys.path could shadow it"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_each_module_is_small_and_python_3_10(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) < MAX_LINES, f"{path.name}: past {MAX_LINES} lines, does it hold two concerns?"
    ast.parse(text, feature_version=(3, 10))  # Debian's Blender 3.4 runs Python 3.10
    assert ast.get_docstring(ast.parse(text)), f"{path.name} says what it is for"


def test_every_sibling_is_package_data() -> None:
    patterns = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["bpywright"]
    for path in MODULES:
        rel = path.relative_to(HERE.parents[1]).as_posix()
        assert any(fnmatch.fnmatch(rel, pattern) for pattern in patterns), f"{rel} is not shipped as package data"


def test_the_schema_version_is_defined_once_and_both_sides_agree() -> None:
    defining = [p.name for p in MODULES if "SCHEMA_VERSION =" in p.read_text(encoding="utf-8")]
    assert defining == ["schema.py"]
    assert SCHEMA_VERSION == entry_schema_version() == RunReport.model_fields["schema_version"].default
    assert SCHEMA_VERSION == _load_by_path("schema")["SCHEMA_VERSION"]


def test_siblings_load_by_the_entrys_path_without_bpywright_or_bytecode() -> None:
    loaded = _load_by_path("execute")
    assert loaded["name"] == "_bpywright_blender.execute" and loaded["file"] == str(HERE / "execute.py")
    assert loaded["path_unchanged"] and not loaded["bpywright"]
    assert not (HERE / "__pycache__").exists() or not any((HERE / "__pycache__").glob("execute.*"))


def _load_by_path(module: str) -> dict:
    """Load a sibling as the entry does, in `python -I` from another folder (no bpywright importable), and describe it."""
    code = (
        "import json, runpy, sys\n"
        "before = list(sys.path)\n"
        f"mod = runpy.run_path({str(ENTRY)!r}, run_name='entry')['load']({module!r})\n"
        "print(json.dumps({'name': mod.__name__, 'file': mod.__file__, 'path_unchanged': sys.path == before,\n"
        "                  'bpywright': any(m.split('.')[0] == 'bpywright' for m in sys.modules),\n"
        "                  'SCHEMA_VERSION': getattr(mod, 'SCHEMA_VERSION', None)}))\n"
    )
    proc = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60, cwd="/")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)
