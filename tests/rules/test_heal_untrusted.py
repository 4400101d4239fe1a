"""`bpywright heal` on a project it does not trust: links, FIFOs and huge files are attacks, performed here for real."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bpywright.cli import main

from .test_project import FILES, make_project

GO = "import bpy\nimport ut\nprint(ut.world_point(bpy.data.objects['Cube'], (0, 0, 1)))\n"
ESCAPES = "\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned\x07"


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as refused:
        main(argv)
    assert refused.value.code == 2
    return capsys.readouterr().err


def test_a_fifo_in_the_project_is_a_clear_refusal_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = make_project(tmp_path / "p", {"go.py": GO, "ut.py": FILES["ut.py"]})
    os.mkfifo(project / "events.pipe")
    err = _refused(["heal", str(project / "go.py"), "--dry-run"], capsys)
    assert "events.pipe is a FIFO, device or socket" in err and "Traceback" not in err


def test_a_huge_sparse_python_file_is_refused_before_it_is_copied(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    project = make_project(tmp_path / "p", {"go.py": GO, "ut.py": FILES["ut.py"]})
    with open(project / "big.py", "wb") as big:  # 1 GB that takes no disk: a copy would be a real gigabyte
        big.truncate(1 << 30)
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    err = _refused(["heal", str(project / "go.py"), "--dry-run"], capsys)
    assert "big.py: 1024.0 MB, over the 2 MB" in err
    copied = sum(p.stat().st_blocks * 512 for p in temp.rglob("*") if p.is_file())
    assert copied < 1 << 20, f"{copied} bytes copied into the temp dir"


@pytest.mark.blender
def test_dry_run_never_writes_the_project_through_an_absolute_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = make_project(tmp_path / "p", {"go.py": GO.replace("import ut", "from lib import ut"), "real/ut.py": FILES["ut.py"]})
    (project / "lib").symlink_to(project / "real", target_is_directory=True)  # absolute: the stage's copy points back here
    before = _sources(project)
    # without the sandbox the staged run reaches the original through the link (with it, the link leads nowhere)
    err = _refused(["heal", str(project / "go.py"), "--dry-run", "--no-sandbox"], capsys)
    assert "passes through the symbolic link" in err
    # Python's own bytecode cache is the unsandboxed script's write, not heal's: every project file is as it was
    assert _sources(project) == before


def _sources(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*.py")) if ".git" not in p.parts}


@pytest.mark.blender
def test_write_and_o_never_write_through_a_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.py").write_text("# not yours\n")
    project = make_project(tmp_path / "p", {"go.py": GO, "real_ut.py": FILES["ut.py"]})
    (project / "ut.py").symlink_to("real_ut.py")
    assert main(["heal", str(project / "go.py"), "--write"]) == 2  # healed, but the file to write is a link: not written
    assert "passes through the symbolic link" in capsys.readouterr().err
    assert (project / "real_ut.py").read_text() == FILES["ut.py"] and (project / "ut.py").is_symlink()
    out = tmp_path / "healed"
    out.mkdir()
    (out / "ut.py").symlink_to(outside / "victim.py")  # planted in the output folder before the heal
    assert main(["heal", str(project / "go.py"), "-o", str(out)]) == 2
    assert "-o folder's entry" in capsys.readouterr().err
    assert (outside / "victim.py").read_text() == "# not yours\n"


@pytest.mark.blender
def test_heal_escapes_the_exception_it_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "loud.py"
    script.write_text(f"import bpy\nraise RuntimeError({ESCAPES!r})\n")
    assert main(["heal", str(script)]) == 1
    out = capsys.readouterr().out
    assert "before: error" in out and "\\x1b]52;c;ZXZpbA==" in out and "\x1b" not in out and "\x07" not in out
