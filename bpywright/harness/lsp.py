"""A minimal Language Server Protocol client: keeps pyright-langserver warm and asks it for diagnostics."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path

from ..spawner import dying_with_parent, on_spawner_thread


class LanguageServerError(RuntimeError):
    """The language server could not be started or stopped answering."""


class LanguageServer:
    """One long-lived language server process speaking JSON-RPC over stdio."""

    def __init__(self, argv: list[str], root: Path):
        self.root = root
        # Dies with bpywright (PR_SET_PDEATHSIG from the process-lifetime thread); node beneath it watches our pid
        # (`processId` below) and exits when we are gone.
        command, preexec = dying_with_parent(argv)
        self.proc = on_spawner_thread(
            lambda: subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root, preexec_fn=preexec
            )
        )
        self._next_id = 0
        self._responses: dict[int, dict] = {}
        self._diagnostics: dict[str, tuple[int | None, list[dict]]] = {}
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        self._versions: dict[str, int] = {}
        self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}}},
            },
        )
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": {}})

    # -- wire format
    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read_loop(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    with self._cond:
                        self._cond.notify_all()
                    return
                header = header.strip()
                if not header:
                    break
                if header.lower().startswith(b"content-length:"):
                    length = int(header.split(b":")[1])
            if length is None:
                continue
            message = json.loads(stream.read(length))
            self._dispatch(message)

    def _dispatch(self, message: dict) -> None:
        with self._cond:
            if "id" in message and "method" not in message:
                self._responses[message["id"]] = message
            elif message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                self._diagnostics[params["uri"]] = (params.get("version"), params["diagnostics"])
            elif "id" in message and "method" in message:
                # server-to-client requests (workspace/configuration, registerCapability): answer null
                items = message.get("params", {}).get("items", [])
                result: list[dict] | None = [{}] * len(items) if message["method"] == "workspace/configuration" else None
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})
            self._cond.notify_all()

    def request(self, method: str, params: dict, timeout: float = 60.0) -> dict:
        """Send a request and wait for its response."""
        with self._cond:
            self._next_id += 1
            msg_id = self._next_id
        self._send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        with self._cond:
            while msg_id not in self._responses:
                if not self._wait(deadline):
                    raise LanguageServerError(f"no answer to {method} within {timeout:g}s")
            return self._responses.pop(msg_id)

    def notify(self, method: str, params: dict) -> None:
        """Send a notification (no response)."""
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def _wait(self, deadline: float) -> bool:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or self.proc.poll() is not None:
            return False
        self._cond.wait(remaining)
        return True

    # -- documents
    def diagnostics(self, path: Path, text: str, timeout: float = 60.0) -> list[dict]:
        """Open or update the document and return the diagnostics published for this exact version."""
        uri = path.resolve().as_uri()
        version = self._versions.get(uri, 0) + 1
        self._versions[uri] = version
        with self._cond:
            self._diagnostics.pop(uri, None)
        if version == 1:
            self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": version, "text": text}})
        else:
            self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]})
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                got = self._diagnostics.get(uri)
                if got is not None and (got[0] is None or got[0] == version):
                    return got[1]
                if not self._wait(deadline):
                    raise LanguageServerError(f"no diagnostics for {path.name} within {timeout:g}s")

    def close(self) -> None:
        """Shut the server down politely, then for sure."""
        try:
            if self.proc.poll() is None:
                self.request("shutdown", {}, timeout=5)
                self.notify("exit", {})
                self.proc.wait(timeout=5)
        except (LanguageServerError, OSError, subprocess.TimeoutExpired, ValueError):
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
