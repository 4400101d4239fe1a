"""generate(): the public entry of the generation loop (CLI and HTTP service), durable by thread id."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...config import DEFAULT_BUDGET_S, Settings
from ..reading.request import strategy_for
from .events import CallCost, GenerationResult, ProgressEvent, RequestCost
from .state import GenState

if TYPE_CHECKING:
    from ...cluster.factory import Pool
    from ...ingest.search import SymbolIndex
    from ..model.llm import CallStats, LLMClient
    from .context import RunContext
    from .exemplar_source import ExemplarStoreLike


class RunNotFound(ValueError):
    """--resume names a thread id the checkpoint database does not hold (or a new run reuses one)."""


class VersionConflict(ValueError):
    """A resume asks for another target Blender than the one the run's checkpoint holds."""


def new_thread_id() -> str:
    """A sortable, unique run id: UTC time plus random hex."""
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + secrets.token_hex(3)


def generate(
    prompt: str,
    *,
    settings: Settings,
    version: str | None = None,
    n: int = 1,
    max_rounds: int | None = None,
    thread_id: str | None = None,
    resume: bool = False,
    on_event: Callable[[ProgressEvent], None] | None = None,
    pool: Pool | None = None,  # a WorkerPool or RayPool (cluster.factory.open_pool); else one is made for the run
    store: ExemplarStoreLike | None = None,
    index: SymbolIndex | None = None,
    llm: LLMClient | None = None,
) -> GenerationResult:
    """Prompt → validated script (or, with no LLM configured, the nearest verified exemplar); resume=True continues thread_id.

    version: the target Blender of a new run (default settings.blender_version). A resumed run keeps the version in its
    checkpoint: a different `version` raises VersionConflict (the caller's pool must be that version's: see
    resumed_version()).
    A caller that serves many requests passes its loaded symbol index (of this version); otherwise it is loaded here.
    llm overrides the client made from settings (the benchmark passes its own to read its token counts).
    """
    from ...runtimes import major_minor
    from ..model.llm import LLMClient
    from .build import build_graph, checkpoint_db, sqlite_checkpointer
    from .context import RunContext
    from .routing import recursion_limit

    if resume and not thread_id:
        raise RunNotFound("resume needs the thread id of an earlier run (printed by `bpywright generate`)")
    if n < 1:
        raise ValueError("n must be >= 1")
    thread_id = thread_id or new_thread_id()
    began = time.monotonic()
    llm = llm or LLMClient.from_settings(settings)
    mark = len(llm.stats) if llm is not None else 0  # a caller's own client (the benchmark's) holds earlier requests' calls
    asked = major_minor(version) if version is not None else None
    ctx = RunContext(
        settings=settings,
        thread_id=thread_id,
        pool=pool,
        store=store,
        llm=llm,
        on_event=on_event,
        index=index,
        version=asked or major_minor(settings.blender_version),
    )
    db = checkpoint_db(settings)
    try:
        with sqlite_checkpointer(db) as saver:
            graph = build_graph(checkpointer=saver)
            config = {"configurable": {"thread_id": thread_id}}
            snapshot = graph.get_state(config)
            if resume:
                if not snapshot.values:
                    raise RunNotFound(f"no run with thread id {thread_id} in {db}")
                state = GenState.model_validate(snapshot.values)
                if asked is not None and asked != state.version:
                    raise VersionConflict(conflict_message(thread_id, state.version, asked))
                ctx.version = state.version  # a resumed run keeps its target
                if snapshot.next:
                    invoke_bounded(graph, None, config, recursion_limit(state.max_rounds), ctx)
            else:
                if snapshot.values:
                    raise RunNotFound(f"thread id {thread_id} is taken in {db}: resume it (--resume) or pick another")
                rounds = settings.max_heal_rounds if max_rounds is None else max_rounds
                start = GenState(
                    prompt=prompt,
                    version=ctx.version,
                    n=n,
                    max_rounds=max(0, rounds),
                    max_critic_rounds=max(0, settings.critic_rounds),
                    max_redraws=max(0, settings.redraws),
                    repair=settings.repair,
                    strategy=strategy_for(settings.strategy, prompt),
                    plan_examples=settings.plan_examples,
                    plan_shapes=settings.plan_shapes,
                    budget_s=settings.budget_s or DEFAULT_BUDGET_S,
                    llm=llm is not None,
                    started_at=time.time(),
                )
                invoke_bounded(graph, start, config, recursion_limit(start.max_rounds), ctx)
            final = GenState.model_validate(graph.get_state(config).values)
    finally:
        if ctx.owns_pool and ctx.pool is not None:
            ctx.pool.close()
        if ctx.linter is not None:
            ctx.linter.close()
    result = to_result(final, thread_id)
    result.cost = request_cost(final, llm, time.monotonic() - began, since=mark)
    keep_cost(ctx, result.cost)
    ctx.emit("done", attempt=final.best or 0, status=result.outcome, detail=result.message)
    return result


def keep_cost(ctx: RunContext, cost: RequestCost) -> None:
    """The request's cost beside its script and report (runs/THREAD_ID/cost.json): where the time went."""
    try:
        ctx.run_dir.mkdir(parents=True, exist_ok=True)
        (ctx.run_dir / "cost.json").write_text(cost.model_dump_json(indent=1) + "\n", encoding="utf-8")
    except OSError:
        pass  # the report is a convenience: a full disk must not lose the answer


def invoke_bounded(graph: Any, start: GenState | None, config: dict[str, Any], limit: int, ctx: Any) -> None:
    """Run the graph to its end; a run that still reaches LangGraph's recursion limit (routing gives up before it) ends
    like every other stop, with its best attempt and the reason, never with a traceback."""
    from langgraph.errors import GraphRecursionError

    from .nodes.finish import give_up_node

    try:
        graph.invoke(start, {**config, "recursion_limit": limit}, context=ctx, durability="sync")
    except GraphRecursionError:
        state = GenState.model_validate(graph.get_state(config).values)
        state = state.model_copy(update={"error": f"the graph's step limit ({limit} steps) was reached"})
        update = give_up_node(state, ctx)
        graph.update_state(config, {**update, "error": state.error}, as_node="give_up")


def conflict_message(thread_id: str, stored: str, asked: str) -> str:
    """Why a resume with another target version is refused, and the two ways on."""
    return (
        f"run {thread_id} targets Blender {stored} (its checkpoint), not {asked}: a run's attempts, lint and heals are "
        f"{stored}'s. Resume it without --blender-version, or start a new run with --blender-version {asked}"
    )


def resumed_version(settings: Settings, thread_id: str, asked: str | None = None) -> str:
    """The target Blender stored in thread_id's checkpoint, read before anything is built for the run (its pool's runtime).

    RunNotFound when there is no such run; VersionConflict when `asked` (a version the user named) differs.
    """
    from ...runtimes import major_minor
    from .build import build_graph, checkpoint_db, sqlite_checkpointer

    db = checkpoint_db(settings)
    if not db.is_file():
        raise RunNotFound(f"no run with thread id {thread_id} in {db}")
    with sqlite_checkpointer(db) as saver:
        snapshot = build_graph(checkpointer=saver).get_state({"configurable": {"thread_id": thread_id}})
    if not snapshot.values:
        raise RunNotFound(f"no run with thread id {thread_id} in {db}")
    stored = GenState.model_validate(snapshot.values).version
    if asked is not None and major_minor(asked) != stored:
        raise VersionConflict(conflict_message(thread_id, stored, major_minor(asked)))
    return stored


OUTCOME = {"accepted": "accepted", "best_attempt": "best_attempt", "retrieved": "retrieved", "failed": "failed", "running": "failed"}


CHARS_PER_TOKEN = 3.0  # Qwen2.5's tokenizer on this project's prompts: 2.7 (heal, numbered script) to 3.4 (generate)


def request_cost(state: GenState, llm: LLMClient | None, wall_s: float, since: int = 0) -> RequestCost:
    """The request's cost: the LLM calls this client made from call `since` on (the critic's are its structured calls
    with the critic's schema), its rounds and free steps, and the Blender time of its attempts."""
    stats = list(llm.stats[since:]) if llm is not None else []
    critic = [s for s in stats if s.kind == "structured" and s.name == "critique"]
    waits = [s.first_token_s for s in stats if s.first_token_s is not None]
    ran = [a for a in state.attempts if a.run is not None]
    cost = RequestCost(
        llm_calls=len(stats),
        tokens_written=sum(s.tokens for s in stats),
        first_token_s=stats[0].first_token_s if stats else None,
        first_token_total_s=round(sum(waits), 3) if waits else None,
        llm_s=round(sum(s.seconds for s in stats), 3),
        critic_s=round(sum(s.seconds for s in critic), 3),
        critic_calls=len(critic),
        critic_skipped=sum(1 for a in state.attempts if state.llm and a.critique is not None and not a.critique.objective_ok),
        rounds=state.rounds,
        rule_steps=state.rule_steps,
        sure_fixes=sum(1 for a in state.attempts if a.sure_fixes),
        blender_runs=len(ran),
        blender_s=round(sum(a.run.timings.total for a in ran if a.run is not None), 3),
        wall_s=round(wall_s, 3),
    )
    if stats:
        server = all(s.prompt_tokens is not None and s.cached_tokens is not None for s in stats)
        cost.prompt_source = "server" if server else "estimated"
        for s in stats:
            size, reused = prompt_tokens(s, server)
            cost.calls.append(
                CallCost(
                    kind=s.kind,
                    name=s.name,
                    prompt_tokens=size,
                    reused_tokens=reused,
                    first_token_s=s.first_token_s,
                    tokens=s.tokens,
                    seconds=round(s.seconds, 3),
                )
            )
        cost.prompt_tokens = sum(c.prompt_tokens for c in cost.calls)
        cost.prompt_tokens_reused = sum(c.reused_tokens for c in cost.calls)
        cost.prompt_tokens_processed = cost.prompt_tokens - cost.prompt_tokens_reused
    return cost


def prompt_tokens(s: CallStats, server: bool) -> tuple[int, int]:
    """(prompt tokens, of them reusable) of one call: the server's counts (server=True: it reported both for every
    call), else its prompt count or characters / CHARS_PER_TOKEN, and reuse from the prefix it shares with the
    conversation the server last held."""
    if server:
        size = s.prompt_tokens or 0
        return size, min(size, s.cached_tokens or 0)
    per = s.prompt_tokens / s.prompt_chars if s.prompt_tokens and s.prompt_chars else 1 / CHARS_PER_TOKEN
    size = s.prompt_tokens if s.prompt_tokens is not None else round(s.prompt_chars * per)
    return size, min(size, round(s.reused_chars * per))


def to_result(state: GenState, thread_id: str) -> GenerationResult:
    """The GenerationResult of a finished state: the best attempt's script, reports and file paths."""
    best = state.attempt(state.best)
    message = state.message or ("the run did not finish" if state.status == "running" else "")
    return GenerationResult(
        thread_id=thread_id,
        outcome=OUTCOME[state.status],
        message=message,
        prompt=state.prompt,
        blender_version=state.version,
        script=best.script if best else None,
        run_report=best.run if best else None,
        lint_report=best.lint if best else None,
        score=best.critique.score if best and best.critique else None,
        reasons=best.critique.reasons if best and best.critique else [],
        attempts=len(state.attempts),
        script_path=state.script_path,
        report_path=state.report_path,
        render_path=state.render_path,
        symbols=[s.name for s in state.symbols],
        model=state.model if best is not None and best.origin != "retrieved" else None,
    )
