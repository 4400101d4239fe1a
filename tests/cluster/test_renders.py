"""Answers from actors are checked like anything a job leaves: forged reports fail, forged renders are dropped, no symlink is followed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from pydantic import ValidationError

from bpywright.cluster.actor import BlenderActor  # noqa: F401  (importable without Ray: actors are plain classes)
from bpywright.cluster.raypool import accept_answer
from bpywright.cluster.renders import read_render, write_render
from bpywright.harness.report import RenderInfo, RunReport


def _png(width: int, height: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (200, 10, 10)).save(buf, format="PNG")
    return buf.getvalue()


def _report_json(width: int = 32, height: int = 32) -> str:
    render = RenderInfo(path="/remote/node/render.png", width=width, height=height, engine="BLENDER_WORKBENCH")
    return RunReport(status="ok", backend="bpy-module", sandbox="bwrap", render=render, script_path="/remote/x.py").model_dump_json()  # type: ignore[arg-type]


def test_a_good_render_lands_where_the_caller_asked(tmp_path: Path) -> None:
    to = tmp_path / "out" / "tree.png"
    report = accept_answer(_report_json(), _png(32, 32), "scenes/tree.py", to)
    assert report.script_path == "scenes/tree.py"  # the caller's path, never the node's
    assert report.render is not None and report.render.path == str(to.resolve())
    assert Image.open(to).size == (32, 32)


@pytest.mark.parametrize(
    ("png", "why"),
    [(b"GIF89a" + b"\0" * 64, "not a PNG"), (None, "sent no render"), ("wrong-size", "64x64"), ("truncated", "damaged")],
)
def test_forged_renders_are_dropped_and_nothing_is_written(tmp_path: Path, png, why: str) -> None:
    if png == "wrong-size":
        png = _png(64, 64)
    elif png == "truncated":
        png = _png(32, 32)[:60]
    to = tmp_path / "r.png"
    report = accept_answer(_report_json(), png, None, to)
    assert report.render is None and why in report.stderr
    assert not to.exists()


def test_a_forged_report_is_refused() -> None:
    with pytest.raises(ValidationError):
        accept_answer('{"status": "pwned", "backend": "bpy-module", "sandbox": "bwrap"}', None, None, None)


def test_a_symlink_at_the_destination_is_replaced_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    link = tmp_path / "r.png"
    link.symlink_to(victim)
    write_render(_png(8, 8), link)
    assert victim.read_text() == "keep me"
    assert not link.is_symlink() and Image.open(link).size == (8, 8)


def test_the_actor_never_reads_a_render_through_a_symlink(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_bytes(b"private key")
    (tmp_path / "render.png").symlink_to(secret)
    assert read_render(tmp_path / "render.png") is None
    (tmp_path / "big.png").write_bytes(b"x" * 2048)
    assert read_render(tmp_path / "big.png", limit=1024) is None
