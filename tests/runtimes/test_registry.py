"""The runtime registry on disk: list, add (a Blender binary, an existing wheel venv), remove, and what bad input gets."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bpywright.cli import main
from bpywright.config import Settings
from bpywright.runtimes import RuntimeInstallError, RuntimeMissing, RuntimeRegistry, VersionError, major_minor
from bpywright.runtimes.pythons import pythons_for

pytestmark = pytest.mark.blender


def test_versions_parse_strictly() -> None:
    assert major_minor("5.2.3 LTS") == "5.2" and major_minor("Blender 4.5") == "4.5" and major_minor(" 4.2 ") == "4.2"
    for bad in ("", "5", "../../etc", "5.2; rm -rf /", "5.2/../../x", "latest", "5.2.3.4.5", "x.y"):
        with pytest.raises(VersionError):
            major_minor(bad)


def test_bundled_wheel_is_the_default_and_cannot_be_removed(tmp_path: Path) -> None:
    registry = RuntimeRegistry(tmp_path)
    bundled = registry.get("4.5.15")
    assert bundled.kind == "bundled" and bundled.version == "4.5" and not bundled.missing()
    with pytest.raises(RuntimeInstallError, match="bundled"):
        registry.remove("4.5")
    with pytest.raises(RuntimeInstallError, match="bundled"):
        registry.add_wheel("4.5")


def test_missing_version_names_the_install_command(tmp_path: Path) -> None:
    with pytest.raises(RuntimeMissing, match=r"bpywright blender add 5\.2"):
        RuntimeRegistry(tmp_path).get("5.2")


def test_a_wheel_needs_its_cpython(tmp_path: Path, monkeypatch) -> None:
    import bpywright.runtimes.registry as registry_module

    assert pythons_for("5.2", {"3.11": Path("/x/python3.11")}) == []
    assert pythons_for("5.0", {"3.11": Path("/x/python3.11")}) == [("3.11", Path("/x/python3.11"))]
    monkeypatch.setattr(registry_module, "find_pythons", lambda: {"3.11": Path("/usr/bin/false")})
    with pytest.raises(RuntimeInstallError, match=r"needs CPython 3\.13.*pyenv install 3\.13"):
        RuntimeRegistry(tmp_path).add_wheel("5.2")
    assert not (tmp_path / "5.2" / "venv").exists()


@pytest.mark.runtimes
def test_blender_binary_registers_under_the_version_it_reports(tmp_path: Path, blender_exe: Path) -> None:
    registry = RuntimeRegistry(tmp_path)
    runtime = registry.add_executable(blender_exe)
    assert (
        runtime.kind == "executable"
        and runtime.version == major_minor(runtime.blender_version)
        and runtime.blender == blender_exe.resolve()
    )
    assert registry.get(runtime.version) == runtime.model_copy(update={"added_at": registry.get(runtime.version).added_at})
    with pytest.raises(RuntimeInstallError, match="already registered"):
        registry.add_executable(blender_exe)
    assert registry.add_executable(blender_exe, force=True).version == runtime.version
    registry.remove(runtime.version)
    with pytest.raises(RuntimeMissing):
        registry.get(runtime.version)


@pytest.mark.runtimes
def test_not_a_blender_is_refused_and_nothing_is_recorded(tmp_path: Path) -> None:
    fake = tmp_path / "blender"
    fake.write_text("#!/bin/sh\necho hello\n")
    fake.chmod(0o755)
    registry = RuntimeRegistry(tmp_path / "rt")
    for bad in (fake, tmp_path / "absent", tmp_path):
        with pytest.raises(RuntimeInstallError):
            registry.add_executable(bad)
    assert registry.stored() == {}


def test_damaged_records_are_reported_not_trusted(tmp_path: Path) -> None:
    registry = RuntimeRegistry(tmp_path)
    (tmp_path / "5.2").mkdir()
    (tmp_path / "5.2" / "runtime.json").write_text("{not json")
    (tmp_path / "5.0").mkdir()
    (tmp_path / "5.0" / "runtime.json").write_text(
        json.dumps({"version": "4.5", "blender_version": "4.5", "kind": "wheel", "python": "/bin/sh"})
    )
    (tmp_path / "..evil").mkdir()
    (tmp_path / "4.2").mkdir()
    (tmp_path / "4.2" / "runtime.json").write_text(
        json.dumps({"version": "4.2", "blender_version": "4.2.1", "kind": "wheel", "python": str(tmp_path / "gone")})
    )
    listed = {item[0] if isinstance(item, tuple) else item.version: item for item in registry.list()}
    assert isinstance(listed["5.2"], tuple) and isinstance(listed["5.0"], tuple)  # unreadable / for another version
    assert listed["4.2"].missing()
    for version in ("5.2", "5.0", "4.2"):
        with pytest.raises(RuntimeMissing, match="broken"):
            registry.get(version)
    assert [r.version for r in registry.installed()] == ["4.5"]


@pytest.mark.runtimes
def test_existing_venv_is_registered_without_a_download(tmp_path: Path, runtime) -> None:
    """`blender add 5.2` over a venv that already imports bpy 5.2 (make setup's, or an interrupted add) only probes it."""
    real = runtime("5.2")
    (tmp_path / "5.2").mkdir(parents=True)
    (tmp_path / "5.2" / "venv").symlink_to(Path(real.python).parent.parent)
    registry = RuntimeRegistry(tmp_path)
    said: list[str] = []
    added = registry.add_wheel("5.2", progress=said.append)
    assert added.kind == "wheel" and added.blender_version.startswith("5.2") and any("reusing" in s for s in said)
    registry.remove("5.2")
    assert Path(real.python).exists() and not (tmp_path / "5.2").exists()  # the link went, not what it pointed at


@pytest.mark.runtimes
def test_cli_list_add_remove(tmp_path: Path, monkeypatch, capsys, blender_exe: Path) -> None:
    monkeypatch.setenv("BPYWRIGHT_ARTIFACTS", str(tmp_path))
    assert main(["blender", "add", str(blender_exe)]) == 0
    assert main(["blender", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out.split("\n", 1)[1])
    assert {r["kind"] for r in listed} >= {"bundled", "executable"}
    assert main(["blender", "add", "../../etc"]) == 1 and "not found" in capsys.readouterr().err
    assert main(["blender", "remove", "7.7"]) == 1 and "no Blender 7.7 runtime" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["lint", "--blender-version", "../x", str(Path(__file__))])
    assert exit_info.value.code == 2 and "not a Blender version" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["run", str(Path(__file__)), "--blender-version", "7.7"])
    assert exit_info.value.code == 2 and "bpywright blender add 7.7" in capsys.readouterr().err
    version = next(r["version"] for r in listed if r["kind"] == "executable")
    assert main(["blender", "remove", version]) == 0


def test_settings_read_the_default_version_from_the_project(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.bpywright]\nblender_version = "5.2"\n')
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    monkeypatch.delenv("BPYWRIGHT_BLENDER_VERSION", raising=False)
    assert Settings.from_env().blender_version == "5.2"
    monkeypatch.setenv("BPYWRIGHT_BLENDER_VERSION", "4.2")
    assert Settings.from_env().blender_version == "4.2"
    shutil.rmtree(tmp_path / "sub")
