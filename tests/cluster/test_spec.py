"""Cluster selection: --cluster / BPYWRIGHT_CLUSTER values, hostile ones refused with the fix, doctor's line, lazy imports."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest

from bpywright.cli import main
from bpywright.cluster.spec import ClusterSpec, ClusterSpecError, cluster_setting, parse_cluster
from bpywright.config import Settings
from bpywright.doctor import check_cluster


@pytest.mark.parametrize("text", [None, "", "local", " LOCAL ", "off"])
def test_local_names_mean_the_local_pool(text: str | None) -> None:
    assert parse_cluster(text) is None


@pytest.mark.parametrize(
    ("text", "client"), [("auto", False), ("ray://10.0.0.5:10001", True), ("head.example:6379", False), ("ray://[::1]:10001", True)]
)
def test_cluster_addresses(text: str, client: bool) -> None:
    spec = parse_cluster(text)
    assert spec == ClusterSpec(text) and spec.is_client is client


@pytest.mark.parametrize(
    "text",
    [
        "ray://",
        "ray://host",
        "ray://host:0",
        "ray://host:65536",
        "ray://host:port",
        "http://host:80",
        "host:80/path",
        "ray://host:10001 --evil",
        "ray://-host:1",
        "ray://ho$t:1",
        "ray://host:1\nray://evil:2",
        "file:///etc/passwd",
        ":10001",
    ],
)
def test_malformed_clusters_are_refused_with_an_example(text: str) -> None:
    with pytest.raises(ClusterSpecError, match="ray://10.0.0.5:10001"):
        parse_cluster(text)


def test_flag_wins_over_environment() -> None:
    assert cluster_setting(None, "auto") == ClusterSpec("auto")
    assert cluster_setting("local", "auto") is None  # `--cluster local` overrides an exported cluster
    assert cluster_setting("ray://h:1", None) == ClusterSpec("ray://h:1")


def test_cli_turns_a_malformed_cluster_into_a_usage_error(tmp_path, capsys) -> None:
    scripts = []
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text("import bpy\n")
        scripts.append(str(tmp_path / name))
    with pytest.raises(SystemExit) as exit_info:
        main(["run", *scripts, "--cluster", "http://evil.example:80"])
    assert exit_info.value.code == 2
    assert "expected auto, ray://HOST:PORT" in capsys.readouterr().err


@pytest.mark.blender
def test_check_turns_a_malformed_cluster_into_a_usage_error(tmp_path, capsys) -> None:
    (tmp_path / "a.py").write_text("import bpy\n")
    assert main(["check", str(tmp_path), "--cluster", "ray://nope", "--no-config", "--artifacts", str(tmp_path / "out")]) == 2
    assert "ray://HOST:PORT" in capsys.readouterr().err


def test_doctor_line_without_and_with_a_bad_cluster() -> None:
    local = check_cluster(Settings())
    assert local.state == "ok" and "local pool" in local.detail
    bad = check_cluster(replace(Settings(), cluster="ray://x"))
    assert bad.state == "fail" and "BPYWRIGHT_CLUSTER" in bad.fix


def test_help_and_parser_never_import_ray() -> None:
    code = "import sys; from bpywright.cli import build_parser; build_parser(); print('ray' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "False", out.stderr


def test_missing_ray_names_the_install_command() -> None:
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "from bpywright.cluster.connect import import_ray\nfrom bpywright.cluster.spec import ClusterError\n"
        "try:\n    import_ray()\nexcept ClusterError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "bpywright[cluster]" in out.stdout, out.stderr
