"""Rewrite the latest user message into a standalone question, and check the rewrite.

The history is handed to the model as one transcript inside a single user turn, after a few
worked examples, rather than as chat turns: small models shown chat turns tend to carry on
the conversation (answer the question) instead of rewriting it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.api_models import Message
from app.history import estimate_tokens, recent_history
from app.prompts import examples, prompt
from app.providers import ChatModel, ChatTurn
from app.settings import Settings
from app.text import content_words, stem

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
    # Why the model's rewrite was set aside for the user's own words; None when it was used
    # or when no model call was needed.
    fallback: str | None = None


def transcript(history: Sequence[Message], question: str) -> str:
    lines = ["Conversation:"]
    lines.extend(f"{turn.role.capitalize()}: {' '.join(turn.content.split())}" for turn in history)
    lines.append(f"Latest question: {' '.join(question.split())}")
    return "\n".join(lines)


def rewrite_messages(history: Sequence[Message], question: str) -> list[ChatTurn]:
    messages: list[ChatTurn] = [{"role": "system", "content": prompt("reformulate_system")}]
    for example in examples("reformulate_examples"):
        shown = [Message.model_validate(turn) for turn in example["conversation"]]
        messages.append({"role": "user", "content": transcript(shown, example["question"])})
        messages.append({"role": "assistant", "content": example["rewrite"]})
    messages.append({"role": "user", "content": transcript(history, question)})
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


def check_rewrite(candidate: str, question: str, history: Sequence[Message] = ()) -> Rewrite:
    """The model's rewrite if it is plausible, else the user's own message and the reason."""
    text = LABEL.sub("", candidate.strip()).strip().strip('"“”').strip()
    said = " ".join([*(m.content for m in history), question])
    if not text:
        reason = "empty"
    elif "\n" in text:
        reason = "several lines"
    elif len(text) > length_limit(question):
        reason = "too long"
    elif ANSWER_OPENERS.match(text) or (looks_like_question(question) and not looks_like_question(text)):
        reason = "an answer, not a question"
    elif len(new_words(text, said)) > MAX_NEW_WORDS:
        # Small models copy a worked example or invent dishes; a rewrite only rephrases.
        reason = "adds words that nobody said"
    elif dropped_words(text, question):
        # "How long does the omelette take?" must not come back about pancakes.
        reason = "drops words the user said"
    else:
        return Rewrite(text)
    log.info("rewrite rejected (%s); using the user's message", reason)
    return Rewrite(question, fallback=reason)


async def reformulate(
    llm: ChatModel, question: str, conversation: Sequence[Message], settings: Settings
) -> Rewrite:
    history = recent_history(conversation, settings.history_max_messages, settings.history_max_tokens)
    if not history:
        # A first turn is already standalone: no model call, no latency, no cost.
        return Rewrite(question)
    reply = await llm.complete(
        rewrite_messages(history, question),
        max_tokens=estimate_tokens("x" * length_limit(question)) + 16,
        temperature=0.0,
    )
    return check_rewrite(reply, question, history)
