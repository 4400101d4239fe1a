"""Ray reads its auth settings when it is first imported: this session's own token is in place before any test imports it."""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import tempfile
from pathlib import Path

# Token auth on, with a token of this test session (never the user's ~/.ray/auth_token); every Ray process the tests
# start (in-process instance, `ray start` head and nodes) inherits these.
_TOKEN = Path(tempfile.mkdtemp(prefix="bpyw-raytok-")) / "auth_token"
_TOKEN.write_text(secrets.token_hex(32))
_TOKEN.chmod(0o600)
os.environ["RAY_AUTH_MODE"] = "token"
os.environ["RAY_AUTH_TOKEN_PATH"] = str(_TOKEN)
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
atexit.register(shutil.rmtree, _TOKEN.parent, True)
