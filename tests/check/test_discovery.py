"""Which scripts a check finds, and the usage errors (exit 2) that stop it before any Blender starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpywright.check.discovery import DiscoveryError, discover
from bpywright.check.project_config import CheckConfig

from .conftest import write_tree

TREE = {
    "scene.py": "import bpy\n",
    "geo/terrain.py": "from bmesh import ops\n",
    "geo/broken.py": "import bpy\ndef f(:\n",  # a syntax error is still a bpy script
    "geo/indented.py": "def main():\n    import bpy\n",
    "readme_example.py": "print('hello')  # import bpy in a comment does not count\n",
    "lib/helpers.py": "import math\n",
    ".hidden/secret.py": "import bpy\n",
    "venv/lib/x.py": "import bpy\n",
    "myenv/pyvenv.cfg": "home = /usr\n",
    "myenv/lib/y.py": "import bpy\n",
    "__pycache__/z.py": "import bpy\n",
    "notes.txt": "import bpy\n",
}


def test_folder_rules(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", TREE)
    scripts, base = discover([root], CheckConfig())
    assert base == root.resolve()
    assert [s.rel for s in scripts] == ["geo/broken.py", "geo/indented.py", "geo/terrain.py", "scene.py"]


def test_named_files_are_checked_whatever_they_import_and_once(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", TREE)
    scripts, _ = discover([root / "lib" / "helpers.py", root, root / "scene.py"], CheckConfig())
    assert sorted(s.rel for s in scripts) == ["geo/broken.py", "geo/indented.py", "geo/terrain.py", "lib/helpers.py", "scene.py"]


def test_exclude_applies_to_named_files_too(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", TREE | {"bpywright.toml": "exclude = ['geo/']\n"})
    config = CheckConfig(exclude=["geo/"], path=root / "bpywright.toml")
    scripts, _ = discover([root / "geo" / "terrain.py", root], config)
    assert [s.rel for s in scripts] == ["scene.py"]


def test_nothing_to_check_and_missing_paths(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", {"lib/helpers.py": "import math\n"})
    with pytest.raises(DiscoveryError, match="no bpy scripts found"):
        discover([root], CheckConfig())
    with pytest.raises(DiscoveryError, match="no such file or folder"):
        discover([root / "missing"], CheckConfig())


@pytest.mark.parametrize(
    ("files", "extra", "needle"),
    [
        ({}, ["MISSING"], "no such file or folder"),
        ({"x.py": "import math\n"}, [], "no bpy scripts found"),
        ({"s.py": "import bpy\n", "bpywright.toml": "exlude = []\n"}, [], "exlude"),
        ({"s.py": "import bpy\n"}, ["--update-baseline"], "needs --baseline"),
        ({"s.py": "import bpy\n"}, ["--blender", "MISSING"], "Blender executable not found"),
        ({"s.py": "import bpy\n"}, ["--resolution", "8"], "--resolution"),
        ({"s.py": "import bpy\n"}, ["--config", "MISSING"], "config file not found"),
    ],
)
def test_usage_errors_exit_two(check, tmp_path: Path, files: dict, extra: list[str], needle: str) -> None:
    root = write_tree(tmp_path / "repo", files)
    (root / ".git").mkdir(parents=True)
    extra = [str(root / "nope") if a == "MISSING" else a for a in extra]
    run = check(str(root), *extra)
    assert run.rc == 2
    assert needle in run.err
    assert not (run.artifacts / "summary.json").exists()


def test_argument_errors_exit_two(check, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as info:
        check(str(tmp_path), "--fail-on", "sometimes")
    assert info.value.code == 2
