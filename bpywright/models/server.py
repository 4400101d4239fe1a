"""A supervised llama.cpp server (llama-cpp-python's OpenAI-compatible server) on loopback: start, health check, restart, stop."""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import IO

from ..harness.sandbox import signal_name
from ..spawner import dying_with_parent, on_spawner_thread
from ..starts import record
from .llama_serve import FD_FLAG, KEY_ENV, PROOF_PATH

START_TIMEOUT_S = 180.0  # loading a 1.1 GB GGUF from a cold disk on 2 cores
MAX_RESTARTS = 3  # within RESTART_WINDOW_S; past that the server is left down and the error says why
RESTART_WINDOW_S = 300.0


class LocalServerError(RuntimeError):
    """The local model server could not start or stay up: the message says why and where its log is."""


def llama_cpp_available() -> bool:
    """True when llama-cpp-python (with its server) is installed in this interpreter."""
    return importlib.util.find_spec("llama_cpp") is not None and importlib.util.find_spec("uvicorn") is not None


def exit_status(returncode: int | None) -> str:
    """'killed by SIGSEGV' for a negative return code, else 'exit code N'."""
    name = signal_name(returncode, via_bwrap=False)
    return f"killed by {name}" if name else f"exit code {returncode}"


def free_port() -> int:
    """An unused loopback TCP port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening_socket(port: int = 0) -> socket.socket:
    """A loopback TCP socket bound and listening here, so that no other process can take its port while the model loads."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # past an earlier server's TIME_WAIT connections; on Linux no other socket may bind a port one listens on, reuse or not
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(64)
    except OSError as exc:
        sock.close()
        raise LocalServerError(
            f"cannot listen on 127.0.0.1:{port}: {exc.strerror} (another process holds it; pick another --port)"
        ) from exc
    return sock


def proof(key: str, nonce: str) -> str:
    """What a server holding `key` answers to `nonce`: HMAC-SHA256, hex."""
    return hmac.new(key.encode(), nonce.encode(), hashlib.sha256).hexdigest()


class LocalServer:
    """One `python -m llama_cpp.server` child serving model_path as `alias` on 127.0.0.1; restarted by a watchdog when it dies."""

    def __init__(
        self,
        model_path: Path,
        alias: str,
        *,
        log_path: Path,
        n_ctx: int = 8192,
        threads: int | None = None,
        port: int | None = None,
        start_timeout_s: float = START_TIMEOUT_S,
        check_model: Callable[[], object] | None = None,
        api_key: str | None = None,
        options: tuple[str, ...] = (),
    ) -> None:
        self.model_path, self.alias, self.log_path = model_path, alias, log_path
        self.options = options  # more llama_cpp.server arguments (SERVER_OPTIONS: measured on this project's prompts)
        self.n_ctx, self.threads = n_ctx, threads or max(1, os.cpu_count() or 1)
        self.port = port or 0  # the listening socket's port once start() has bound it
        self._listener: socket.socket | None = None
        self.start_timeout_s = start_timeout_s
        self.check_model = check_model  # verifies the weights before every (re)start; raises to refuse them
        # Only bpywright knows it: another local user (or a web page) cannot use the server or read its answers.
        self.api_key = api_key or secrets.token_urlsafe(24)
        self.restarts: list[float] = []
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._watchdog: threading.Thread | None = None
        self.last_error: str | None = None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible `/v1` root."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def pid(self) -> int | None:
        """The server process id while it runs."""
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def command(self) -> list[str]:
        """The server's command line (loopback only; the model's chat template formats prompts)."""
        return [
            sys.executable,
            "-X",
            "faulthandler",  # a crash in llama.cpp leaves the Python stack in the log
            str(Path(__file__).with_name("llama_serve.py")),  # llama_cpp.server behind our key and Host/Origin guard
            "--model",
            str(self.model_path),
            "--model_alias",
            self.alias,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            FD_FLAG,  # the socket bpywright bound (the child inherits it): serve there, never bind the port itself
            str(self._listener.fileno() if self._listener is not None else -1),
            "--n_ctx",
            str(self.n_ctx),
            "--n_threads",
            str(self.threads),
            "--n_threads_batch",
            str(self.threads),
            "--verbose",
            "false",
            # Queue concurrent requests. The default ends a streamed answer early (a normal-looking [DONE]) as soon as
            # another request waits: the generator's reply came back empty while a second user (or the critic) asked.
            "--interrupt_requests",
            "false",
            *self.options,
        ]

    def _spawn(self) -> None:
        record("model", str(self.model_path))
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        if self._log is None or self._log.closed:
            self._log = open(self.log_path, "ab")
        # Its own session: stop() signals the whole group, and a Ctrl-C meant for the CLI does not kill it mid-answer.
        # OMP_WAIT_POLICY=PASSIVE: llama.cpp's OpenMP threads otherwise spin at every barrier; on 2 cores shared with Blender
        # workers that made one answer 6.5x slower here (69 s vs 10.7 s for the same 64 tokens under load).
        env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE", KEY_ENV: self.api_key}
        log = self._log
        # From the process-lifetime spawner thread: PR_SET_PDEATHSIG follows the forking thread, not the process.
        listener = self._listener
        assert listener is not None, "start() binds the listening socket first"
        command, preexec = dying_with_parent(self.command())
        self._proc = on_spawner_thread(
            lambda: subprocess.Popen(
                command,
                pass_fds=(listener.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env=env,
                # SIGKILL, not SIGTERM: uvicorn's graceful shutdown would finish the answer in flight, for minutes
                preexec_fn=preexec,
            )
        )

    def proves_key(self, timeout: float = 2.0) -> bool:
        """True when whatever answers on the port proves it holds our key (HMAC of a fresh nonce); the key is never sent."""
        nonce = secrets.token_hex(16)
        url = f"http://127.0.0.1:{self.port}{PROOF_PATH}?nonce={nonce}"
        try:
            with urllib.request.urlopen(url, timeout=timeout) as resp:  # noqa: S310 - loopback URL we built
                answer = json.loads(resp.read(4096)).get("proof", "")
        except (urllib.error.URLError, OSError, ValueError, AttributeError):
            return False
        return isinstance(answer, str) and hmac.compare_digest(answer, proof(self.api_key, nonce))

    def healthy(self, timeout: float = 2.0) -> bool:
        """True when the server proves it holds the key, then answers GET /v1/models (with the key) with 200."""
        if not self.proves_key(timeout):
            return False
        request = urllib.request.Request(f"{self.base_url}/models", headers={"Authorization": f"Bearer {self.api_key}"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as resp:  # noqa: S310 - loopback URL we built
                return resp.status == 200
        except (urllib.error.URLError, OSError, ValueError):
            return False

    def _wait_healthy(self) -> None:
        deadline = time.monotonic() + self.start_timeout_s
        while time.monotonic() < deadline:
            proc = self._proc
            if proc is None or proc.poll() is not None:
                code = proc.returncode if proc is not None else None
                raise LocalServerError(
                    f"the local model server exited ({exit_status(code)}) while loading {self.model_path.name}: "
                    f"see {self.log_path}:\n{self.log_tail()}"
                )
            if self.healthy():
                return
            time.sleep(0.25)
        self._kill()
        raise LocalServerError(f"the local model server did not answer within {self.start_timeout_s:.0f} s: see {self.log_path}")

    def start(self) -> LocalServer:
        """Start the server, wait until it answers, and watch it (restart on death)."""
        if not llama_cpp_available():
            raise LocalServerError("llama-cpp-python is not installed: run `make setup` (or `pip install -c constraints.txt -e '.[llm]'`)")
        if not self.model_path.is_file():
            raise LocalServerError(f"no model file at {self.model_path}: run `bpywright model install {self.alias}`")
        with self._lock:
            self._stopping.clear()
            if self.check_model is not None:
                self.check_model()
            if self._listener is None:
                self._listener = listening_socket(self.port)
                self.port = int(self._listener.getsockname()[1])
            self._spawn()
            try:
                self._wait_healthy()
            except BaseException:
                self._close_listener()
                raise
        self._watchdog = threading.Thread(target=self._watch, name=f"llama-watchdog-{self.port}", daemon=True)
        self._watchdog.start()
        return self

    def _watch(self) -> None:
        """Restart the server when it dies (at most MAX_RESTARTS per RESTART_WINDOW_S), until stop()."""
        while not self._stopping.wait(0.5):
            proc = self._proc
            if proc is None or proc.poll() is None:
                continue
            with self._lock:
                if self._stopping.is_set():
                    return
                now = time.monotonic()
                self.restarts = [t for t in self.restarts if now - t < RESTART_WINDOW_S]
                if len(self.restarts) >= MAX_RESTARTS:
                    self.last_error = (
                        f"the local model server died {MAX_RESTARTS + 1} times in {RESTART_WINDOW_S:.0f} s "
                        f"(last: {exit_status(proc.returncode)}); left down: see {self.log_path}"
                        + (" (`bpywright model selftest` checks llama.cpp's build)" if proc.returncode < 0 else "")
                    )
                    self._note(self.last_error)
                    return
                self.restarts.append(now)
                self._note(f"the server died ({exit_status(proc.returncode)}); restarting it")
                try:
                    if self.check_model is not None:
                        self.check_model()  # the weights may have been swapped while it ran: refused, left down
                    self._spawn()
                    self._wait_healthy()
                    self.last_error = None
                except Exception as exc:  # noqa: BLE001 - a refused model or a failed start: said, and left down
                    self.last_error = str(exc)
                    if self.check_model is not None and not isinstance(exc, LocalServerError):
                        return

    def _kill(self) -> None:
        proc = self._proc
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        except ProcessLookupError:
            pass

    def _close_listener(self) -> None:
        if self._listener is not None:
            self._listener.close()
            self._listener = None

    def stop(self) -> None:
        """Stop watching and end the server's process group."""
        self._stopping.set()
        with self._lock:
            self._kill()
            self._close_listener()
            if self._log is not None:
                self._log.close()
        if self._watchdog is not None and self._watchdog is not threading.current_thread():
            self._watchdog.join(timeout=5)

    def _note(self, line: str) -> None:
        """A line of ours in the server's log (a segfault prints nothing of its own)."""
        log = self._log
        if log is not None and not log.closed:
            log.write(f"[bpywright] {line}\n".encode())
            log.flush()

    def log_tail(self, n: int = 2000) -> str:
        """The end of the server's log."""
        try:
            return self.log_path.read_bytes()[-n:].decode("utf-8", errors="replace")
        except OSError:
            return ""

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
