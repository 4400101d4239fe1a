"""Temp folders bpywright keeps under known names ($TMPDIR/bpywright-UID: worker dirs and logs, mypy's lint cache,
default renders) are private to the user and checked: one that another user made first is refused, never used."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest

from bpywright.harness.checkers import shared_mypy_cache
from bpywright.harness.lint import WORKSPACE_PREFIX, remove_leftover_workspaces
from bpywright.harness.renders import default_render_path
from bpywright.harness.sandbox import UnsafeTempDir, private_dir, scratch_base

OTHER_UID = 65534  # "nobody": the other user of the machine


@pytest.fixture
def shared_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A /tmp-like folder (world-writable, sticky) that bpywright takes for its TMPDIR."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    return shared


def _as_other_user(path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("making a folder look another user's needs root (chown)")
    os.chown(path, OTHER_UID, OTHER_UID)


def test_a_scratch_folder_another_user_made_is_refused_and_their_links_are_never_followed(
    shared_tmp: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = tmp_path / "root-only.txt"
    victim.write_text("secret\n")
    victim.chmod(0o600)
    planted = shared_tmp / f"bpywright-{os.getuid()}"
    planted.mkdir(mode=0o777)
    planted.chmod(0o777)
    for name in ("w1.log", f"w{os.getpid()}-1-x.log", "mypy-cache"):
        (planted / name).symlink_to(victim)
    _as_other_user(planted)
    with pytest.raises(UnsafeTempDir, match=rf"refusing to use .*bpywright-{os.getuid()}: it belongs to uid {OTHER_UID}, not to you"):
        scratch_base()
    from bpywright.cli import main

    script = tmp_path / "cube.py"
    script.write_text("import bpy\n")
    code = main(["run", str(script), "--no-render"])
    assert code == 2 and "error: refusing to use" in capsys.readouterr().err
    with pytest.raises(UnsafeTempDir):
        shared_mypy_cache(None)
    with pytest.raises(UnsafeTempDir):
        default_render_path("x")
    assert victim.read_text() == "secret\n" and sorted(p.name for p in planted.iterdir()) == sorted(
        ("w1.log", f"w{os.getpid()}-1-x.log", "mypy-cache")
    )


def test_a_link_or_an_open_folder_in_its_place_is_refused(shared_tmp: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.mkdir(mode=0o700)
    link = shared_tmp / "link"
    link.symlink_to(target)
    with pytest.raises(UnsafeTempDir, match="is a symbolic link"):
        private_dir(link)
    open_folder = shared_tmp / "open"
    open_folder.mkdir()
    open_folder.chmod(0o777)
    with pytest.raises(UnsafeTempDir, match="is mode 777, open to other users"):
        private_dir(open_folder)
    a_file = shared_tmp / "file"
    a_file.write_text("")
    with pytest.raises(UnsafeTempDir, match="is not a folder"):
        private_dir(a_file)


def test_bpywright_s_own_folders_are_made_0700_and_reused(shared_tmp: Path) -> None:
    base = scratch_base()
    assert base == shared_tmp / f"bpywright-{os.getuid()}"
    cache = shared_mypy_cache(None)
    render = default_render_path("r")
    for folder in (base, cache, render.parent):
        st = folder.lstat()
        assert stat.S_ISDIR(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o700 and st.st_uid == os.geteuid(), folder
    assert cache.parent == base and render.parent.parent == base
    assert scratch_base() == base  # its own folder, found again, is accepted


def test_leftover_linter_workspaces_of_another_user_are_not_removed(shared_tmp: Path) -> None:
    dead = 2**22 + 12345  # above the kernel's largest pid: no such process
    ours = shared_tmp / f"{WORKSPACE_PREFIX}{dead}-ours"
    ours.mkdir(mode=0o700)
    theirs = shared_tmp / f"{WORKSPACE_PREFIX}{dead}-theirs"
    theirs.mkdir(mode=0o700)
    (theirs / "keep.txt").write_text("theirs")
    _as_other_user(theirs)
    assert remove_leftover_workspaces() == 1
    assert not ours.exists() and (theirs / "keep.txt").read_text() == "theirs"
