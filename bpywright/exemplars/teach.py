"""What verified exemplars teach the symbol index: its usage prior learns the names similar prompts' scripts used."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..config import Settings
    from ..ingest.search import SymbolIndex

USAGE_TEACH = 1000  # newest verified exemplars the symbol index's usage prior learns from


def teach_usage(index: Any, store: Any, version: str) -> int:
    """Teach the index's usage prior the store's verified scripts of this version (what similar prompts used)."""
    listing = getattr(store, "list", None)
    if listing is None:
        return 0
    from .store import Filters

    page = listing(filters=Filters(status="ok", blender_version=version, trusted=True), limit=USAGE_TEACH)
    return index.add_usage((e.prompt, e.script) for e in page.items)


def load_taught_index(settings: Settings, store: Any, version: str) -> SymbolIndex:
    """The version's symbol index, its usage prior taught from `store` (None: untaught); raises IndexMissing with the fix."""
    from ..ingest.search import SymbolIndex

    index = SymbolIndex.load(settings.index_for(version), settings=settings)
    teach_usage(index, store, version)
    return index
