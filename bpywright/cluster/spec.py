"""Which pool runs the jobs: the local WorkerPool, or a Ray cluster named as `auto`, `ray://HOST:PORT` or `HOST:PORT`."""

from __future__ import annotations

import re
from dataclasses import dataclass

LOCAL_NAMES = frozenset({"", "local", "none", "off"})
CLUSTER_HELP = (
    "run on a Ray cluster: `auto` (the one started here with `ray start`), ray://HOST:PORT (Ray Client, port 10001) "
    "or HOST:PORT (its GCS, from a cluster node); `local` = this machine's pool (default: BPYWRIGHT_CLUSTER, else local)"
)
_HOST = re.compile(r"^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])$")


class ClusterSpecError(ValueError):
    """A --cluster / BPYWRIGHT_CLUSTER value that names no cluster (a usage error)."""


class ClusterError(RuntimeError):
    """The configured Ray cluster cannot be used (not installed, unreachable, refused the token)."""


@dataclass(frozen=True)
class ClusterSpec:
    """A Ray cluster to connect to; `address` is what `ray.init(address=...)` takes."""

    address: str

    @property
    def is_client(self) -> bool:
        """Ray Client (ray://): the driver stays here and talks to the head node's client server."""
        return self.address.startswith("ray://")


def parse_cluster(text: str | None) -> ClusterSpec | None:
    """None for the local pool; a ClusterSpec for `auto`, `ray://HOST:PORT` or `HOST:PORT`; ClusterSpecError otherwise."""
    value = (text or "").strip()
    if value.lower() in LOCAL_NAMES:
        return None
    if value == "auto":
        return ClusterSpec("auto")
    rest = value[len("ray://") :] if value.startswith("ray://") else value
    if "://" in rest or "/" in rest or any(c.isspace() for c in rest):
        raise ClusterSpecError(f"cluster {value!r}: expected auto, ray://HOST:PORT or HOST:PORT (e.g. ray://10.0.0.5:10001)")
    host, sep, port = rest.rpartition(":")
    if not sep or not _HOST.match(host) or not port.isdigit() or not 0 < int(port) < 65536:
        raise ClusterSpecError(
            f"cluster {value!r}: expected auto, ray://HOST:PORT or HOST:PORT with a port in 1-65535 (e.g. ray://10.0.0.5:10001)"
        )
    return ClusterSpec(value)


def cluster_setting(flag: str | None, env_value: str | None) -> ClusterSpec | None:
    """--cluster wins over BPYWRIGHT_CLUSTER (so `--cluster local` overrides an exported cluster)."""
    return parse_cluster(flag if flag is not None else env_value)
