"""`bpywright check` on a pull request's checkout: the repository's config, links and special files are attacks, performed here."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bpywright.check.command import _fail_on, _plan
from bpywright.check.discovery import DiscoveryError, discover, imports_bpy
from bpywright.check.project_config import CheckConfig, ConfigError, find_config, load_config
from bpywright.cli import build_parser, main
from bpywright.config import LIMITS, Settings

from .conftest import SMALL, write_tree

GREEDY = """
    [tool.bpywright]
    memory-mb = 200000
    max-processes = 100000
    tmp-mb = 100000
    disk-mb = 100000
    max-file-mb = 100000
    timeout = 86400
    fail-on = "never"
    expected-failures = ["broken.py"]

    [tool.bpywright.timeouts]
    "*.py" = 86400
"""
ESCAPES = "\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned\x07\x1b[2J"  # clipboard write (OSC 52), window title, clear screen


def _plan_in(project: Path, monkeypatch: pytest.MonkeyPatch, *argv: str):
    monkeypatch.chdir(project)  # as in CI: the checkout is the working directory, so Settings reads its pyproject too
    args = build_parser().parse_args(["check", ".", *argv])
    return _plan(args, Settings.from_env())[1]


@pytest.mark.blender  # planning probes the bundled Blender's version
def test_a_repositorys_config_cannot_raise_the_operators_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    for _, variable in LIMITS.values():
        monkeypatch.delenv(variable, raising=False)
    project = write_tree(tmp_path / "pr", {"pyproject.toml": GREEDY, "broken.py": "import bpy\nraise RuntimeError('broken')\n"})
    plan = _plan_in(project, monkeypatch)
    limits = dict(plan.limits)
    assert {name: limits[name] for name in LIMITS} == {name: default for name, (default, _) in LIMITS.items()}
    assert plan.timeout_for(plan.scripts[0]) == 60.0
    assert _fail_on(build_parser().parse_args(["check", "."]), plan.config) == "blocking"  # not the repository's 'never'
    err = capsys.readouterr().err
    assert "memory_mb = 200000 is above the operator's 6144" in err and "fail-on = 'never' ignored" in err
    # the operator raises a limit in the job's environment; the repository may still lower one
    monkeypatch.setenv("BPYWRIGHT_MEMORY_MB", "300000")
    monkeypatch.setenv("BPYWRIGHT_TIMEOUT", "100000")
    (project / "pyproject.toml").write_text(GREEDY.replace("max-processes = 100000", "max-processes = 16"), encoding="utf-8")
    plan = _plan_in(project, monkeypatch)
    assert dict(plan.limits)["memory_mb"] == 200000 and dict(plan.limits)["max_processes"] == 16
    assert plan.timeout_for(plan.scripts[0]) == 86400
    assert _plan_in(project, monkeypatch, "--timeout", "5").timeout_for(plan.scripts[0]) == 5  # the operator's flag wins


def test_a_committed_artifacts_link_is_refused_and_nothing_lands_outside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    project = write_tree(tmp_path / "pr", {"scene.py": "import bpy\n"})
    (project / "bpywright-check").symlink_to(outside)  # the default output folder, committed as a link
    (project / "reports").symlink_to(outside)
    monkeypatch.chdir(project)
    assert main(["check", "."]) == 2
    assert "passes through the symbolic link" in capsys.readouterr().err
    assert main(["check", ".", "--artifacts", "out", "--junit", "reports/junit.xml"]) == 2
    assert "--junit file reports/junit.xml passes through the symbolic link" in capsys.readouterr().err
    (project / "out").mkdir()
    (project / "out" / "blender-4.5.15").symlink_to(outside)  # a real folder holding a link
    assert main(["check", ".", "--artifacts", "out"]) == 2
    assert "--artifacts folder's entry" in capsys.readouterr().err
    assert list(outside.iterdir()) == []


def test_discovery_never_follows_a_link_out_never_blocks_and_caps_what_it_reads(tmp_path: Path, monkeypatch, capsys) -> None:
    secret = write_tree(tmp_path / "outside", {"secret.py": "import bpy\n"}) / "secret.py"
    project = write_tree(tmp_path / "pr", {"scene.py": "import bpy\n", "lib/inner.py": "import bpy\n"})
    (project / "zero.py").symlink_to("/dev/zero")  # reading it exhausted memory
    os.mkfifo(project / "pipe.py")  # reading it blocks forever
    (project / "leak.py").symlink_to(secret)  # a link out of the tree
    (project / "alias.py").symlink_to(project / "lib" / "inner.py")  # a link inside the tree is fine
    (project / "elsewhere").symlink_to(secret.parent, target_is_directory=True)  # a symlinked folder is not entered
    monkeypatch.chdir(project)
    scripts, _ = discover([Path(".")], CheckConfig())
    assert [s.rel for s in scripts] == ["lib/inner.py", "scene.py"]
    err = capsys.readouterr().err
    assert "zero.py: links out of" in err and "pipe.py: a FIFO" in err and "leak.py: links out of" in err
    assert not imports_bpy(Path("/dev/zero"))  # a device is read no further than its first megabyte, then refused
    for named, why in (("pipe.py", "a FIFO"), ("zero.py", "links out of"), ("leak.py", "links out of")):
        with pytest.raises(DiscoveryError, match=why):
            discover([Path(named)], CheckConfig())
    with open(project / "big.py", "wb") as big:  # 1 GB, sparse: a copy or a read would be real
        big.write(b"import bpy\n")
        big.truncate(1 << 30)
    with pytest.raises(DiscoveryError, match=r"over the 2 MB cap of a checked script: big.py \(1024.0 MB\)"):
        discover([Path(".")], CheckConfig())


def test_a_config_file_that_is_a_device_or_a_fifo_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = write_tree(tmp_path / "pr", {"scene.py": "import bpy\n"})
    (project / ".git").mkdir()
    (project / "bpywright.toml").symlink_to("/dev/zero")
    with pytest.raises(ConfigError, match="not a regular file"):
        load_config(project / "bpywright.toml")
    assert find_config(project / "scene.py") is None  # not a file: not a config
    os.mkfifo(project / "pyproject.toml")
    monkeypatch.chdir(project)
    assert Settings.from_env().memory_mb > 0  # every command reads [tool.bpywright] from here: it did not block


@pytest.mark.blender
def test_a_repositorys_expected_failure_and_escapes_are_shown_as_such_and_do_not_pass_the_gate(check, tmp_path: Path) -> None:
    project = write_tree(
        tmp_path / "pr",
        {
            "pyproject.toml": '[tool.bpywright]\nexpected-failures = ["broken.py"]\n',
            "broken.py": f"import bpy\nraise RuntimeError({ESCAPES!r})\n",
            "loud.py": f"import bpy\nraise ValueError({ESCAPES!r})\n",
        },
    )
    junit = tmp_path / "junit.xml"
    run = check(str(project), "--no-lint", "--fail-on", "blocking", "--junit", str(junit), *SMALL)
    assert run.rc == 1
    broken = run.case("broken.py")
    assert broken["outcome"] == "xfail" and not broken["expected_failure_allowed"]
    assert run.summary["expected_failures"] == "refused" and run.summary["config"] == str(project / "pyproject.toml")
    assert "\x1b" not in run.out and "\x07" not in run.out and "\\x1b]52;c;ZXZpbA==" in run.out
    assert "XFAIL" in run.out and "claimed by the checked repository's config" in run.out and "refused" in run.out
    assert "FAILED" in run.out and "ValueError: \\x1b]52" in run.out
    root = ET.parse(junit).getroot()  # parses: no raw control characters in the XML
    refused = next(c for c in root.iter("testcase") if c.get("name", "").startswith("broken.py")).find("failure")
    assert refused is not None and refused.get("type") == "xfail-refused" and "claimed by the checked repository" in refused.get("message")
    accepted = check(str(project), "--no-lint", "--allow-expected-failures", *SMALL)
    assert accepted.rc == 1 and accepted.case("broken.py")["expected_failure_allowed"]  # loud.py still fails
