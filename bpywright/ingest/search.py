"""SymbolIndex: hybrid search (BM25 + dense, reciprocal rank fusion, structural re-rank) over one version's symbols."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from pydantic import BaseModel, Field

from .embedder import EmbedderError, normalise
from .index import file_sha256, first_sentence, is_peripheral_name, read_manifest
from .onnx_encoder import OnnxQueryEncoder, query_embedder
from .stored import SymbolRecords, SymbolsByName, load_bm25, load_vectors, with_known_vectors
from .symbols import Symbol
from .tokenize import camel_words, modelling_phrases, stem, tokenize
from .usage import SymbolResolver, UsageExample, UsagePrior, read_used, script_key

if TYPE_CHECKING:
    from ..config import Settings
    from .embedder import Embedder

RRF_K = 60
POOL = 100  # candidates taken from each retriever before fusion
# Re-rank boosts, in RRF units (rank 1 of one list = 1/61 ≈ 0.0164; rank 1 → 10 loses only ≈ 0.0021).
BOOST_RELATED = 0.0020  # parent or child of a top-3 fused hit
BOOST_FAMILY = 0.0010  # same type family / operator namespace as a top-3 fused hit
BOOST_MENTIONED = 0.0015  # the query names the family (modifier → *Modifier, ObjectModifiers, modifier_add)
BOOST_RECIPES = 0.0030  # used in the bundled, verified recipes (Symbol.examples)
# A prompt's modelling phrases are separate needs (a cube AND a colour AND a size): each need is ranked on its own and
# the rankings are merged as a union (best weight / rank per symbol), not by consensus, so every need gets its top hits.
# A phrase's weight against the query's own ranking: its #1 goes just below the query's own #1 for a short, API-like
# query ("camera field of view" must not open with camera_add), just above it for a prose prompt, whose own ranking
# blurs several needs into one (tuned on seed tasks: MRR@10 0.45 → 0.82, recall unchanged).
PHRASE_WEIGHT = 0.9
PROSE_PHRASE_WEIGHT = 1.1
PROSE_TOKENS = 6  # queries with more tokens than this are prose
# Fusing the usage prior (tuned leave-one-out on the seed tasks): a symbol's score is the share of similar verified
# scripts that use it (0..1) plus QUERY_WEIGHT / (1 + rank / 3) for its rank in the query's own hybrid ranking.
QUERY_WEIGHT = 0.5
QUERY_FIRST = 1  # the query's own best hit stays on top
USAGE_POOL = 40  # hybrid candidates fused with the prior
PENALTY_UI = 0.0060  # UI registration classes, themes, preferences, bl_* attributes: not scene-building API


class IndexMissing(RuntimeError):
    """No usable search index for a Blender version."""


def ingest_command(version_dir: Path) -> str:
    """The command that builds the index of version_dir (named after its Blender version, as index_for lays it out)."""
    return f"bpywright ingest --blender-version {version_dir.name}"


def missing_index(version_dir: Path) -> IndexMissing:
    """IndexMissing for a version with no index, naming the command that builds it (and that installs its runtime)."""
    version = version_dir.name
    return IndexMissing(
        f"no symbol index for Blender {version} in {version_dir}: run `{ingest_command(version_dir)}` "
        f"(it introspects the {version} runtime: `bpywright blender add {version}` installs one if `bpywright blender list` lacks it)"
    )


class ScoredSymbol(BaseModel):
    """One search result: the symbol, its fused score, where each retriever ranked it, and why it moved."""

    symbol: Symbol
    score: float = Field(description="Ranking score, higher first; comparable within one result list only.")
    bm25_rank: int | None = None
    dense_rank: int | None = None
    reasons: list[str] = []

    def render(self, n: int) -> str:
        """Two lines for the CLI: rank, name, kind, signature/type; short description and URL."""
        s = self.symbol
        detail = s.signature or (f" (base {s.type})" if s.kind == "struct" and s.type else f": {s.type}" if s.type else "")
        detail = detail if len(detail) <= 70 else detail[:67] + "…"
        url = f"  {s.uri}" if s.uri else ""
        return f"{n:>2}. {s.name}{detail}  [{s.kind}]\n    {first_sentence(s.description, 100) or '(no description)'}{url}"


Ranking = list[tuple[int, float]]  # (symbol index, score), best first
SearchMode = Literal["bm25", "dense", "hybrid", "hybrid+usage"]
SEARCH_MODES: tuple[SearchMode, ...] = ("bm25", "dense", "hybrid", "hybrid+usage")


class Need(NamedTuple):
    """One need of a query (the query itself, phrase "", or one of its modelling phrases) with its ranking and weight."""

    weight: float
    phrase: str
    ranking: Ranking


class Merged(NamedTuple):
    """A symbol in the merged ranking of a query's needs: its best weight / rank, and the need and rank that gave it."""

    symbol: int  # index into SymbolIndex.symbols
    score: float
    phrase: str  # "" when the query's own ranking gave the best score
    rank: int


def union(needs: list[Need]) -> list[Merged]:
    """Merge the rankings of several needs: each symbol scored by its best weight / rank, best first."""
    best: dict[int, Merged] = {}
    for weight, phrase, ranked in needs:
        for n, (i, _) in enumerate(ranked, 1):
            if i not in best or weight / n > best[i].score:
                best[i] = Merged(i, weight / n, phrase, n)
    return sorted(best.values(), key=lambda item: -item.score)


def family_roots(struct_names: set[str]) -> dict[str, str]:
    """Each struct's type family: the longest struct name that is a CamelCase prefix or suffix of it and of ≥ 3 others."""
    words = {name: camel_words(name) for name in struct_names}
    counts: Counter[str] = Counter()
    for parts in words.values():
        for i in range(1, len(parts)):
            counts["".join(parts[:i])] += 1
            counts["".join(parts[i:])] += 1
    roots = {r for r, c in counts.items() if c >= 3 and r in struct_names}
    family = {}
    for name, parts in words.items():
        options = [name] if name in roots else []
        options += ["".join(parts[i:]) for i in range(1, len(parts))] + ["".join(parts[:i]) for i in range(1, len(parts))]
        family[name] = max((o for o in options if o in roots), key=len, default=name)
    return family


def family_key(name: str, families: dict[str, str]) -> str:
    """Type family of a struct or member (bpy.types.SubsurfModifier.levels → Modifier), namespace of an operator."""
    parts = name.split(".")
    if parts[:2] == ["bpy", "types"] and len(parts) > 2:
        return families.get(parts[2], parts[2])
    if parts[:2] == ["bpy", "ops"] and len(parts) > 2:
        return "ops." + parts[2]
    return ".".join(parts[:2])


class SymbolIndex:
    """The symbols of one Blender version with their BM25 and (optional) FAISS indexes; load once, search often."""

    def __init__(
        self,
        symbols: Sequence[Symbol],
        bm25: Any,
        dense: Any = None,
        dense_rows: Any = None,
        embedder: Embedder | None = None,
        dense_status: str = "no dense vectors (BM25-only)",
    ) -> None:
        self.symbols = symbols
        self.bm25 = bm25
        self.dense = dense
        self.dense_rows = dense_rows
        self.embedder = embedder if dense is not None else None
        # Names only, so that lazily read records (SymbolRecords) are validated when a search returns or re-ranks them.
        self.symbol_names: list[str] = list(getattr(symbols, "names", None) or [s.name for s in symbols])
        self.by_name = {name: i for i, name in enumerate(self.symbol_names)}
        self.families = family_roots({n.split(".")[2] for n in self.symbol_names if n.startswith("bpy.types.") and n.count(".") >= 2})
        # Per-symbol facts the re-rank needs for its few hundred candidates, computed for those on first use (not for
        # all ~18k symbols at every load): symbol index → (family, parent, family stem, peripheral).
        self._facts: dict[int, tuple[str, str, str, bool]] = {}
        self.family_words = {stem(f.lower()) for f in set(self.families.values()) if len(camel_words(f)) == 1}
        self._words: dict[int, set[str]] = {}
        self.dense_status = dense_status
        self._resolver: SymbolResolver | None = None
        self.used: dict[str, frozenset[str]] = {}  # script_key → symbols used
        self.usage = UsagePrior(self.embedder)
        # Modelling phrases are a fixed set: each one's rankings (and re-rank reasons) are computed once, when a query
        # first names it (all ~100 up front cost a cold search ~0.3 s for the two or three it uses).
        self.phrase_rankings: dict[str, dict[str, Ranking]] = {}
        self.phrase_reasons: dict[str, dict[int, list[str]]] = {}

    def _phrase(self, phrase: str) -> tuple[dict[str, Ranking], dict[int, list[str]]]:
        """A modelling phrase's BM25, dense and hybrid rankings and its re-rank reasons (computed on first use)."""
        if phrase not in self.phrase_rankings:
            dense: Ranking = []
            if self.dense is not None and self.embedder is not None:
                try:
                    dense = self._nearest(self.embedder.embed([phrase]), POOL)[0]
                except EmbedderError as exc:  # an endpoint gone: BM25 for this phrase, and not remembered, so it is retried
                    self.dense_status = f"embedder failed ({exc}): BM25-only for that query"
                    lexical = self._bm25(phrase, POOL)
                    hybrid, reasons = self._hybrid(phrase, lexical, [])
                    return {"bm25": lexical, "dense": [], "hybrid": hybrid}, reasons
            lexical = self._bm25(phrase, POOL)
            hybrid, self.phrase_reasons[phrase] = self._hybrid(phrase, lexical, dense)
            self.phrase_rankings[phrase] = {"bm25": lexical, "dense": dense, "hybrid": hybrid}
        return self.phrase_rankings[phrase], self.phrase_reasons[phrase]

    @classmethod
    def load(cls, version_dir: Path, *, settings: Settings | None = None, embedder: Embedder | None = None) -> SymbolIndex:
        """Open the index `bpywright ingest` built in version_dir; the embedder (from settings unless given) loads once, here.

        With neither settings nor an embedder the index is searched BM25-only (nothing here reads the environment).
        """
        manifest = read_manifest(version_dir)
        symbols_path = version_dir / "symbols.jsonl"
        if manifest is None or not symbols_path.is_file() or not (version_dir / manifest["dir"]).is_dir():
            raise missing_index(version_dir)
        if manifest.get("symbols_sha256") != file_sha256(symbols_path):
            raise IndexMissing(
                f"the index in {version_dir} is older than its symbols.jsonl: run `{ingest_command(version_dir)}` to rebuild it"
            )
        folder = version_dir / manifest["dir"]
        symbols = SymbolRecords.read(symbols_path)
        bm25 = load_bm25(folder / "bm25")
        if embedder is None and settings is not None and manifest.get("embedder"):
            embedder = query_embedder(settings, folder)
        dense = rows = None
        status = "no dense vectors in the index (BM25-only)" if not manifest.get("embedder") else "no embedder given: BM25-only"
        if embedder is not None and manifest.get("embedder"):
            try:
                if embedder.name == manifest["embedder"]:
                    import numpy as np

                    dense, rows = load_vectors(folder), np.load(folder / "dense_rows.npy", mmap_mode="r")
                    status = f"dense: {manifest['embedder']}" + (" (ONNX query encoder)" if isinstance(embedder, OnnxQueryEncoder) else "")
                    embedder = with_known_vectors(embedder, folder)
                    getattr(embedder, "load", lambda: None)()  # pay the model import now, not on the first query
                else:
                    status = (
                        f"index vectors are {manifest['embedder']}, embedder is {embedder.name}: BM25-only until `bpywright ingest --force`"
                    )
            except EmbedderError as exc:
                dense, status = None, f"embedder unavailable ({exc}): BM25-only"
        index = cls(symbols, bm25, dense, rows, embedder, dense_status=status)
        index.used.update(read_used(folder))
        from ..recipes import all_recipes

        index.add_usage((r.prompt, r.source) for r in all_recipes())
        return index

    @property
    def resolver(self) -> SymbolResolver:
        """Maps a script's attribute chains to this index's symbol names (built on first use)."""
        if self._resolver is None:
            self._resolver = SymbolResolver(SymbolsByName(self.symbols))
        return self._resolver

    def symbols_used(self, script: str) -> set[str]:
        """The symbols of this index that a script uses (remembered per script; the recipes' come from used.json)."""
        key = script_key(script)
        found = self.used.get(key)
        if found is None:
            found = self.used[key] = frozenset(self.resolver.symbols_used(script))
        return set(found)

    def add_usage(self, pairs: Iterable[tuple[str, str]]) -> int:
        """Teach the usage prior verified (prompt, script) pairs; returns how many used any symbol."""
        return self.usage.add(UsageExample(prompt, frozenset(self.symbols_used(script))) for prompt, script in pairs)

    def get(self, name: str) -> Symbol | None:
        """The symbol with this exact name."""
        i = self.by_name.get(name)
        return None if i is None else self.symbols[i]

    def names(self) -> set[str]:
        """Every symbol name of this version."""
        return set(self.by_name)

    def _bm25(self, text: str, k: int) -> Ranking:
        """BM25 ranking of one text: (symbol index, score)."""
        import numpy as np

        tokens = [t for t in tokenize(text, pairs=True) if t in self.bm25.vocab_dict]
        if not tokens:
            return []
        scores = self.bm25.get_scores(tokens)
        k = min(k, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(i), float(scores[i])) for i in top if scores[i] > 0]

    def _nearest(self, vectors: Any, k: int) -> list[list[tuple[int, float]]]:
        """Per query vector, the k nearest symbols (symbol index, cosine)."""
        scores, ids = self.dense.search(vectors, min(k, self.dense.ntotal))
        return [[(int(self.dense_rows[j]), float(x)) for x, j in zip(row_s, row_j) if j >= 0] for row_s, row_j in zip(scores, ids)]

    def text_vectors(self, texts: list[str]) -> Any:
        """Unit-length embeddings of texts (an (n, dim) array) with the index's own embedder; None without one."""
        if self.embedder is None or not texts:
            return None
        try:
            return normalise(self.embedder.embed(texts))
        except EmbedderError:
            return None

    def _query_vector(self, query: str) -> Any:
        """The query's embedding as a (1, dim) array, or None (no embedder, empty query, endpoint gone)."""
        if self.dense is None or self.embedder is None or not query.strip():
            return None
        try:
            return self.embedder.embed([query])
        except EmbedderError as exc:  # an endpoint that went away: this query is answered by BM25 alone
            self.dense_status = f"embedder failed ({exc}): BM25-only for that query"
            return None

    def _own_dense(self, query: str, vector: Any = None) -> Ranking:
        vector = self._query_vector(query) if vector is None else vector
        return [] if vector is None else self._nearest(vector, POOL)[0]

    def _hybrid(self, text: str, lexical: Ranking, dense: Ranking) -> tuple[Ranking, dict[int, list[str]]]:
        """One text's BM25 and dense rankings fused by reciprocal rank (k=60), then structurally re-ranked; with reasons."""
        ranks: dict[int, dict[str, int]] = {}
        for name, ranked in (("bm25", lexical), ("dense", dense)):
            for n, (i, _) in enumerate(ranked, 1):
                ranks.setdefault(i, {})[name] = n
        fused = {i: sum(1.0 / (RRF_K + n) for n in r.values()) for i, r in ranks.items()}
        reasons = {i: [f"{name} #{n}" for name, n in r.items()] for i, r in ranks.items()}
        self._rerank(text, fused, reasons)
        return sorted(fused.items(), key=lambda item: (-item[1], self.symbol_names[item[0]])), reasons

    def _needs(self, query: str, mode: str, own: Ranking) -> list[Need]:
        """The query's own ranking and those of its modelling phrases, with their weights."""
        weight = PROSE_PHRASE_WEIGHT if len(tokenize(query)) > PROSE_TOKENS else PHRASE_WEIGHT
        return [Need(1.0, "", own)] + [Need(weight, p, self._phrase(p)[0][mode]) for p in modelling_phrases(query)]

    def _hits(self, merged: list[Merged], field: str, k: int) -> list[ScoredSymbol]:
        return [
            ScoredSymbol(
                symbol=self.symbols[m.symbol],
                score=round(m.score, 6),
                **{field: n},
                reasons=[f"via {m.phrase!r} #{m.rank}"] if m.phrase else [],
            )
            for n, m in enumerate(merged[:k], 1)
        ]

    def search(self, query: str, k: int = 10, *, mode: SearchMode = "hybrid+usage") -> list[ScoredSymbol]:
        """The k best symbols for a query; per need (the query, each modelling phrase) ranked by `mode`, needs merged.

        - bm25: BM25 alone (identifier-aware tokens);
        - dense: the dense vectors alone (empty when the index has none);
        - hybrid: BM25 + dense fused by reciprocal rank, then structurally re-ranked;
        - hybrid+usage (what a generator needs): hybrid fused with the usage prior, the share of the verified scripts for
          the most similar prompts that use each symbol (the recipes, plus what add_usage taught it). The query's best
          hit stays first.
        A hit's bm25_rank / dense_rank are its ranks for the query's own text (None when only a phrase found it).
        """
        if mode == "bm25":
            return self._hits(union(self._needs(query, "bm25", self._bm25(query, POOL))), "bm25_rank", k)
        if mode == "dense":
            if self.dense is None:
                return []
            return self._hits(union(self._needs(query, "dense", self._own_dense(query))), "dense_rank", k)
        if mode not in SEARCH_MODES:
            raise ValueError(f"unknown search mode {mode!r}: one of {', '.join(SEARCH_MODES)}")
        vector = self._query_vector(query)
        if mode == "hybrid" or not len(self.usage):
            return self._search_hybrid(query, k, vector)
        ranked, context = self._ranked(query, vector)
        ranked = ranked[: max(k, USAGE_POOL)]
        shares = {
            self.by_name[n]: x for n, x in self.usage.shares(query, None if vector is None else vector[0]).items() if n in self.by_name
        }
        fused = dict(shares)
        for rank, item in enumerate(ranked):  # the query's own ranking, decaying: #1 adds QUERY_WEIGHT, #4 half of it
            fused[item.symbol] = fused.get(item.symbol, 0.0) + QUERY_WEIGHT / (1 + rank / 3)
        head = [item.symbol for item in ranked[:QUERY_FIRST]]
        order = head + [i for i in sorted(fused, key=lambda i: (-fused[i], self.symbol_names[i])) if i not in head]
        own = {item.symbol: item for item in ranked}
        hits = []
        for i in order[:k]:
            hit = self._hit(own[i], context) if i in own else ScoredSymbol(symbol=self.symbols[i], score=0.0)
            if i in shares:
                hit.reasons.insert(0, f"used by {shares[i]:.0%} of the verified scripts for similar prompts")
            hit.score = round(fused[i], 6)
            hits.append(hit)
        return hits

    def _ranked(self, query: str, vector: Any) -> tuple[list[Merged], tuple]:
        """The merged hybrid ranking (symbol, score, phrase, rank) and what _hit needs to explain each entry."""
        lexical, dense = self._bm25(query, POOL), self._own_dense(query, vector) if vector is not None else []
        hybrid, reasons = self._hybrid(query, lexical, dense)
        own_ranks = {name: {i: n for n, (i, _) in enumerate(ranked, 1)} for name, ranked in (("bm25", lexical), ("dense", dense))}
        return union(self._needs(query, "hybrid", hybrid)), (reasons, own_ranks)

    def _hit(self, item: Merged, context: tuple) -> ScoredSymbol:
        i, score, phrase, rank = item
        reasons, own_ranks = context
        why = reasons[i] if not phrase else [f"via {phrase!r} #{rank}", *self._phrase(phrase)[1][i]]
        return ScoredSymbol(
            symbol=self.symbols[i],
            score=round(score, 6),
            bm25_rank=own_ranks["bm25"].get(i),
            dense_rank=own_ranks["dense"].get(i),
            reasons=list(why),
        )

    def _search_hybrid(self, query: str, k: int, vector: Any) -> list[ScoredSymbol]:
        ranked, context = self._ranked(query, vector)
        return [self._hit(item, context) for item in ranked[:k]]

    def _fact(self, i: int) -> tuple[str, str, str, bool]:
        """Symbol i's type family, parent name, the family's stem, and whether it is peripheral (UI, preferences)."""
        facts = self._facts.get(i)
        if facts is None:
            name = self.symbol_names[i]
            family = family_key(name, self.families)
            facts = self._facts[i] = (family, name.rsplit(".", 1)[0], stem(family.lower()), is_peripheral_name(name))
        return facts

    def _has_examples(self, i: int) -> bool:
        """Whether symbol i has recipe lines, read off its record when lazily loaded (no validation)."""
        has = getattr(self.symbols, "has_examples", None)
        return has(i) if has is not None else bool(self.symbols[i].examples)

    def _owner_words(self, i: int) -> set[str]:
        """Tokens of the struct/namespace and first member of symbol i (cached): ObjectModifiers.new → object, modifier, …"""
        words = self._words.get(i)
        if words is None:
            words = self._words[i] = set(tokenize(".".join(self.symbol_names[i].split(".")[2:4])))
        return words

    def _rerank(self, query: str, fused: dict[int, float], reasons: dict[int, list[str]]) -> None:
        """Boost candidates related to the top fused hits, in a family the query names, or used in the recipes."""
        top = sorted(fused, key=lambda i: -fused[i])[:3]
        anchors = {self.symbol_names[i]: fused[i] for i in top}
        anchor_parents = [(name, name.rsplit(".", 1)[0]) for name in anchors]
        family_anchor = {self._fact(i)[0]: fused[i] for i in reversed(top)}  # the best-scoring top hit per family
        mentioned = {t for t in tokenize(query) if t in self.family_words}
        for i in fused:
            name, (fam, parent, fam_stem, peripheral) = self.symbol_names[i], self._fact(i)
            related = [anchors[n] for n, n_parent in anchor_parents if n == parent or n_parent == name]
            if i not in top and (related or fam in family_anchor):
                # Relatives follow their anchor: a boost never lifts a symbol above the top hit it is related to.
                boost, anchor = (BOOST_RELATED, max(related)) if related else (BOOST_FAMILY, family_anchor[fam])
                fused[i] = max(fused[i], min(fused[i] + boost, anchor - 1e-6))
                reasons[i].append(f"related to {parent if parent in anchors else 'a top hit'}" if related else f"{fam} family")
            # The family word in the family root (SubsurfModifier), the struct (ObjectModifiers) or the operator (modifier_add).
            if mentioned and (fam_stem in mentioned or mentioned & self._owner_words(i)):
                fused[i] += BOOST_MENTIONED
                reasons[i].append("family named in query")
            if self._has_examples(i):
                fused[i] += BOOST_RECIPES
                reasons[i].append("used in recipes")
            if peripheral:
                fused[i] -= PENALTY_UI
                reasons[i].append("UI/preferences API (demoted)")
