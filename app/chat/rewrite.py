"""Rewrite the latest user message into a standalone question, and check the rewrite.

First the catalog resolver (app/chat/references.py) finds what the message refers to: the recipes
the conversation named, and the constraints the user set earlier. On the embedded model its
rewrite is the answer: deterministic, no model call. With a cloud model the model writes the
rewrite, given the resolved recipes as grounding, and the guard checks that it kept them;
when it did not, the resolver's rewrite stands.

The history is handed to the model as one transcript inside a single user turn, after a few
worked examples, rather than as chat turns: small models shown chat turns tend to carry on
the conversation (answer the question) instead of rewriting it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.catalog.names import RecipeNames
from app.chat.history import estimate_tokens, recent_history
from app.chat.references.catalog import Catalog
from app.chat.references.resolution import Resolution
from app.http.bodies import Message
from app.prompts import examples, prompt
from app.providers.protocols import ChatModel, ChatTurn
from app.search.filters import DIET_FLAGS
from app.search.question_reader import read_question
from app.search.text import content_words, stem
from app.settings import Settings

log = logging.getLogger(__name__)

# Openers of a reply that answers, refuses or chats instead of rewriting.
ANSWER_OPENERS = re.compile(
    r"^(sure|certainly|of course|yes\b|no\b|here (is|are)|i (recommend|suggest|can|would|'m sorry)"
    r"|sorry|as an ai|the answer|you (can|could|should))",
    re.IGNORECASE,
)
# A rewrite may add a connecting word or two ("recipes", "dishes" are stopwords already).
MAX_NEW_WORDS = 2
LABEL = re.compile(r"^(standalone|rewritten)?\s*question\s*:\s*", re.IGNORECASE)
QUESTION_START = re.compile(
    r"^(what|which|how|why|when|where|who|whose|can|could|do|does|did|is|are|was|were|should"
    r"|would|will|have|has|any)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Rewrite:
    question: str
    # Why the model's rewrite was set aside; None when it was used or no model was asked.
    fallback: str | None = None
    # The catalog recipes the question names, and the earlier constraints it carries.
    recipe_ids: tuple[str, ...] = ()
    carried: tuple[str, ...] = ()
    # Who wrote it: "unchanged" (a first turn, or nothing to resolve), "catalog" or "model".
    by: str = "unchanged"


def from_resolution(resolution: Resolution, fallback: str | None = None) -> Rewrite:
    return Rewrite(
        resolution.question,
        fallback,
        tuple(resolution.recipe_ids),
        tuple(resolution.carried),
        "catalog" if resolution.rule else "unchanged",
    )


def transcript(history: Sequence[Message], question: str, grounding: Sequence[str] = ()) -> str:
    lines = ["Conversation:"]
    lines.extend(f"{turn.role.capitalize()}: {' '.join(turn.content.split())}" for turn in history)
    lines.append(f"Latest question: {' '.join(question.split())}")
    lines.extend(grounding)
    return "\n".join(lines)


def grounding_lines(resolution: Resolution, names: RecipeNames) -> list[str]:
    """What the resolver found, for the model to name as the catalog does."""
    lines = []
    if resolution.recipe_ids:
        titles = "; ".join(names.titles[i] for i in resolution.recipe_ids)
        lines.append(f"Catalog recipes it refers to: {titles}")
    if resolution.carried:
        lines.append(f"Earlier requests it keeps: {', '.join(resolution.carried)}")
    return lines


def rewrite_messages(
    history: Sequence[Message], question: str, grounding: Sequence[str] = ()
) -> list[ChatTurn]:
    messages: list[ChatTurn] = [{"role": "system", "content": prompt("reformulate_system")}]
    for example in examples("reformulate_examples"):
        shown = [Message.model_validate(turn) for turn in example["conversation"]]
        messages.append(
            {"role": "user", "content": transcript(shown, example["question"], example.get("grounding", []))}
        )
        messages.append({"role": "assistant", "content": example["rewrite"]})
    messages.append({"role": "user", "content": transcript(history, question, grounding)})
    return messages


def length_limit(question: str) -> int:
    """The longest acceptable rewrite: room to name a few recipes, not to write an answer."""
    return 2 * len(question) + 150


def looks_like_question(text: str) -> bool:
    return text.rstrip().endswith("?") or bool(QUESTION_START.match(text.lstrip()))


def new_words(text: str, said: str) -> list[str]:
    """Meaningful words of `text` that nobody said: what a rewrite must not add."""
    known = {stem(w) for w in content_words(said)}
    return [w for w in content_words(text) if stem(w) not in known]


def dropped_words(text: str, question: str) -> list[str]:
    """Meaningful words of the user's message that the rewrite lost: it must keep them all."""
    kept = {stem(w) for w in content_words(text)}
    return [w for w in content_words(question) if stem(w) not in kept]


def lost_grounding(text: str, resolution: Resolution, names: RecipeNames, said: str) -> str | None:
    """Why a model's rewrite fails what the catalog knows, or None: it must name one at least
    of the recipes the resolver found the message refers to, keep the earlier requests, and
    name no catalog recipe that the conversation (`said`) did not name, however loosely."""
    named = names.named(text)
    allowed = {*resolution.recipe_ids, *resolution.mentioned, *names.named(resolution.question)}
    if any(i not in allowed and not names.among(said, [i]) for i in named):
        return "names a recipe the conversation did not"
    if resolution.recipe_ids and not set(named) & set(resolution.recipe_ids):
        # An echo ("which of those…?") loses the reference. A rewrite that keeps some of the
        # recipes the resolver found, and names no other than the conversation did, is the
        # model's reading ("the second one" may be read otherwise): it stands.
        return "drops the recipes the message refers to"
    kept = {stem(w) for w in content_words(text)}
    if any(not {stem(w) for w in content_words(c)} <= kept for c in resolution.carried):
        return "drops an earlier request"
    return None


def changed_filters(text: str, question: str, said: str) -> str | None:
    """Why a rewrite asks for other diets or times than were asked for, or None: it keeps the
    message's own and adds none the conversation did not say."""
    rewrite, asked, spoken = (read_question(t).filters for t in (text, question, said))
    for diet in DIET_FLAGS:
        if getattr(asked, diet) and not getattr(rewrite, diet):
            return "drops a diet the user asked for"
        if getattr(rewrite, diet) and not getattr(spoken, diet):
            return "adds a diet nobody asked for"
    if asked.max_total_minutes is not None and rewrite.max_total_minutes is None:
        return "drops the time limit"
    return None


def kept_words(question: str, resolution: Resolution) -> str:
    """The user's words a rewrite must keep: those the resolver kept ("the noodle one" may
    become "the Yibin Burning Noodles", but "the omelette" must not become "pancakes")."""
    if not resolution.rule:
        return question
    resolved = {stem(w) for w in content_words(resolution.question)}
    return " ".join(w for w in content_words(question) if stem(w) in resolved)


def check_rewrite(
    candidate: str,
    question: str,
    history: Sequence[Message] = (),
    resolution: Resolution | None = None,
    names: RecipeNames | None = None,
    *,
    strict: bool = True,
) -> Rewrite:
    """The model's rewrite if it is plausible, else the resolver's (or the user's own message)
    and the reason. `strict` (a small model) holds it to the user's words; a capable model may
    rephrase, held to the catalog's recipes, the dishes and foods said, and the filters."""
    resolution = resolution or Resolution(question)
    text = LABEL.sub("", candidate.strip()).strip().strip('"“”').strip()
    said = " ".join([*(m.content for m in history), question, resolution.question])
    if not text:
        reason = "empty"
    elif "\n" in text:
        reason = "several lines"
    elif len(text) > length_limit(resolution.question):
        reason = "too long"
    elif ANSWER_OPENERS.match(text) or (looks_like_question(question) and not looks_like_question(text)):
        reason = "an answer, not a question"
    elif strict and len(new_words(text, said)) > MAX_NEW_WORDS:
        # Small models copy a worked example or invent dishes; a rewrite only rephrases.
        reason = "adds words that nobody said"
    elif [
        w
        for w in dropped_words(text, kept_words(question, resolution))
        if strict or not names or names.knows(w)
    ]:
        # "How long does the omelette take?" must not come back about pancakes. A capable
        # model may rephrase ("how many people does it feed" as "how many servings"), but
        # keeps every dish and food the user said.
        reason = "drops words the user said"
    elif (changed := changed_filters(text, question, said)) is not None:
        reason = changed
    elif names is not None and (lost := lost_grounding(text, resolution, names, said)):
        reason = lost
    else:
        return Rewrite(text, None, tuple(resolution.recipe_ids), tuple(resolution.carried), "model")
    log.info("rewrite rejected (%s); using the catalog's rewrite", reason)
    return from_resolution(resolution, fallback=reason)


@dataclass(frozen=True)
class RewriteTask:
    """A follow-up the model is to rewrite: what it is shown, and what checks its rewrite."""

    question: str
    history: Sequence[Message]
    resolution: Resolution
    names: RecipeNames | None
    # A small model, held to the user's own words.
    strict: bool = True

    def grounding(self) -> list[str]:
        return grounding_lines(self.resolution, self.names) if self.names else []

    def transcript(self) -> str:
        return transcript(self.history, self.question, self.grounding())

    def max_tokens(self) -> int:
        return estimate_tokens("x" * length_limit(self.resolution.question)) + 16

    def check(self, candidate: str) -> Rewrite:
        return check_rewrite(
            candidate, self.question, self.history, self.resolution, self.names, strict=self.strict
        )

    async def run(self, llm: ChatModel) -> Rewrite:
        """The model's rewrite as plain text, after a few worked examples, under the guard."""
        messages = rewrite_messages(self.history, self.question, self.grounding())
        reply = await llm.complete(messages, max_tokens=self.max_tokens(), temperature=0.0)
        return self.check(reply)

    def set_aside(self, reason: str) -> Rewrite:
        log.info("rewrite rejected (%s); using the catalog's rewrite", reason)
        return from_resolution(self.resolution, fallback=reason)


async def rewrite_task(
    question: str, conversation: Sequence[Message], settings: Settings, catalog: Catalog | None = None
) -> Rewrite | RewriteTask:
    """The rewrite, when no model is to write it (a first turn, or the catalog's rewriter);
    otherwise what the model is to be asked. Without a `catalog` nothing is resolved, and a
    model's rewrite falls back to the user's own words."""
    history = recent_history(conversation, settings.history_max_messages, settings.history_max_tokens)
    names = await catalog.names.get() if catalog else None
    if not history:
        # A first turn is already standalone: no model call, no latency, no cost.
        return Rewrite(question, recipe_ids=tuple(names.named(question)) if names else ())
    # The catalog reads the whole conversation, as it costs no prompt: "I'm vegan" said five
    # turns ago still holds. A model sees the window its prompt budget allows.
    said = [m for m in conversation if m.content.strip()]
    resolution = await catalog.resolve(question, said) if catalog else Resolution(question)
    if not settings.model_rewrites and catalog is not None:
        return from_resolution(resolution)
    return RewriteTask(question, history, resolution, names, strict=settings.uses_embedded_llm)


async def reformulate(
    llm: ChatModel,
    question: str,
    conversation: Sequence[Message],
    settings: Settings,
    catalog: Catalog | None = None,
) -> Rewrite:
    """The standalone question for `question`, written as plain text where a model writes it."""
    task = await rewrite_task(question, conversation, settings, catalog)
    return task if isinstance(task, Rewrite) else await task.run(llm)
