"""What the add-on knows in this Blender session: validated scripts by SHA-256, the last generation, checks, heals.

Kept in Python memory only, never in the .blend: a file someone sends you cannot claim its script was validated.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .planscript import is_plan_script
from .screen import Flag, screen
from .tasks import Task
from .verdict import Verdict, sha256

SANDBOX_MEANS = (
    "A sandbox pass means the script raised nothing on factory settings in the sandbox. It says nothing about what it "
    "does here, where it runs as you with your files: that is what the screen below is for."
)


@dataclass(frozen=True)
class Vouch:
    """What the add-on can say about what a script does in the user's Blender, read from its text (nothing runs)."""

    how: str  # "plan": rebuilt byte for byte from its part plan | "screen": nothing flagged | "flagged"
    flags: tuple[Flag, ...] = ()

    @property
    def summary(self) -> str:
        if self.how == "plan":
            return "Rebuilt from its part plan byte for byte: only data came from the model"
        if self.how == "screen":
            return "Screened: no imports, files, handlers, drivers or dynamic code beyond the scene"
        return f"{len(self.flags)} flagged construct(s): they run as you, outside any sandbox, only if you confirm"


def vouch(script: str) -> Vouch:
    """The plan rebuild first (a plan script needs no screening), else the static screen."""
    if is_plan_script(script):
        return Vouch("plan")
    flags = screen(script)
    return Vouch("flagged", tuple(flags)) if flags else Vouch("screen")


@dataclass(frozen=True)
class Validation:
    """A script text that passed in the service's sandbox for one Blender version, and what was checked."""

    sha: str
    version: str
    origin: str  # "generated for 'a red cube'", "Check of text 'scene.py'"
    checked: tuple[str, ...]


@dataclass
class Generation:
    """The last generate answer: the script, whether the loop accepted it, and the verdict for this Blender."""

    prompt: str
    script: str
    outcome: str
    message: str
    model: str
    score: float | None
    verdict: Verdict
    image: str = ""  # name of the preview in bpy.data.images ('' when nothing was rendered)


@dataclass
class TextCheck:
    """The last Check of a text block: the SHA-256 of the text that was sent, and the verdict."""

    sha: str
    verdict: Verdict
    image: str = ""


@dataclass
class HealProposal:
    """A healed version of a text block, waiting for the user to apply it."""

    base_sha: str  # the text it was healed from: applying it over a changed text is refused
    script: str
    diff: str
    summary: str


@dataclass
class Session:
    """Everything the panels draw and the operators decide on, for one add-on registration."""

    validated: dict[str, Validation] = field(default_factory=dict)
    generation: Generation | None = None
    checks: dict[str, TextCheck] = field(default_factory=dict)
    heals: dict[str, HealProposal] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)  # "view3d" / "text" → the last error or note
    task: Task | None = None
    vouches: dict[str, Vouch] = field(default_factory=dict)  # SHA-256 → what the text says (panels redraw often)

    def vouch_for(self, script: str) -> Vouch:
        """vouch(script), kept by the text's SHA-256."""
        sha = sha256(script)
        if sha not in self.vouches:
            if len(self.vouches) > 64:
                self.vouches.clear()
            self.vouches[sha] = vouch(script)
        return self.vouches[sha]

    def busy(self) -> bool:
        """True while a service call is in flight."""
        return self.task is not None and not self.task.done

    def validation_for(self, script: str, version: str) -> Validation | None:
        """The validation of exactly this text for this Blender version, or None (then it must not run)."""
        found = self.validated.get(sha256(script))
        return found if found is not None and found.version == version else None

    def remember(self, script: str, version: str, origin: str, verdict: Verdict) -> None:
        """Record a script that passed (only a passing verdict is recorded)."""
        if verdict.passed:
            sha = sha256(script)
            self.validated[sha] = Validation(sha, version, origin, tuple(verdict.checked))


CURRENT: list[Session] = []  # the registered add-on's session (empty when unregistered)


def current() -> Session:
    """The session of the registered add-on."""
    if not CURRENT:
        CURRENT.append(Session())
    return CURRENT[0]
