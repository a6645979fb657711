"""Answer a protocol request in plain text that cites recipes by id, as it is being written.

The steps are those of the app's own answer: rewrite the latest message into a standalone
question (no LLM call on a first turn), retrieve, then answer from the recipes found. What
the protocol adds is said up front: the data points and the thoughts, all known before the
model writes its first word, so that a stream can open with them.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from app import query_rewriter
from app.answerer import ANSWER_MAX_TOKENS, describe
from app.api_models import Message
from app.chat_protocol import ChatProtocolRequest, Overrides
from app.citations import CitationFilter
from app.followups import FollowupSplitter
from app.history import recent_history
from app.prompts import prompt
from app.providers import ChatModel, ChatStream, ChatTurn, SearchIndex, SemanticOptions, Usage
from app.query_rewriter import Rewrite
from app.recipes import Recipe
from app.retrieval import Retrieval, Retriever, ScoredRecipe
from app.settings import Settings

log = logging.getLogger(__name__)

# Room for three short questions after the answer.
FOLLOWUP_TOKENS = 120
NO_ANSWER = "Sorry, I couldn't put an answer together. Please try asking again."


@dataclass(frozen=True)
class StartedAnswer:
    # The protocol's `data_points` and `thoughts`.
    context: dict[str, Any]
    reply: CheckedReply


class CheckedReply:
    """The model's reply as a client may see it: citations of recipes that were not retrieved
    removed, follow-up questions (when asked for) split off, surrounding whitespace trimmed.
    Iterate it once; `followup_questions` and `usage` are known after the last piece."""

    def __init__(self, stream: ChatStream, ids: Collection[str], *, followups: bool) -> None:
        self._stream = stream
        self._ids = ids
        self._followups = followups
        self.model = stream.model
        # None when they were not asked for; a list, perhaps empty, when they were.
        self.followup_questions: list[str] | None = None

    @property
    def usage(self) -> Usage | None:
        return self._stream.usage

    async def __aiter__(self) -> AsyncIterator[str]:
        citations = CitationFilter(self._ids)
        splitter = FollowupSplitter() if self._followups else None
        shown = False
        async for piece in self._stream:
            text = citations.feed(splitter.feed(piece) if splitter else piece)
            if not shown:
                text = text.lstrip()
            if text:
                shown = True
                yield text
        tail = citations.feed(splitter.flush()) if splitter else ""
        tail = (tail + citations.flush()).rstrip()
        if not shown:
            # Nothing but whitespace, bad citations or questions: say so rather than go blank.
            log.warning("the model's reply held no answer")
            tail = tail.lstrip() or NO_ANSWER
        if tail:
            yield tail
        if splitter:
            self.followup_questions = splitter.questions()


def cited_answer_messages(
    recipes: Sequence[Recipe],
    history: Sequence[Message],
    question: str,
    settings: Settings,
    *,
    followups: bool,
) -> list[ChatTurn]:
    listed = "\n\n".join(describe(r, settings.recipe_prompt_chars) for r in recipes) or "(none found)"
    system = prompt("cited_answer_system").replace("{recipes}", listed)
    if followups:
        system += "\n\n" + prompt("followup_questions")
    messages: list[ChatTurn] = [{"role": "system", "content": system}]
    messages.extend({"role": m.role, "content": m.content} for m in history)
    messages.append({"role": "user", "content": question})
    return messages


def data_point(found: ScoredRecipe, max_chars: int) -> str:
    """A recipe as a protocol data point, `"<id>: <text>"`: what a front end shows as the
    supporting content of a citation; the semantic captions when there are some."""
    recipe = found.recipe
    text = f"{recipe.id}: {recipe.title}. {recipe.description} Ingredients: {'; '.join(recipe.ingredients)}"
    if found.captions:
        text = f"{recipe.id}: {' . '.join(found.captions)}"
    text = " ".join(text.split())
    return text if len(text) <= max_chars else text[: max_chars - 1].rstrip() + "…"


def thought(title: str, description: Any, props: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"title": title, "description": description, "props": props}


def how_rewritten(rewrite: Rewrite, history: Sequence[Message]) -> str:
    if not history:
        return "first turn: the message is already standalone, no model call"
    if rewrite.fallback:
        return f"the model's rewrite was set aside ({rewrite.fallback}); searched for the catalog's rewrite"
    if rewrite.by == "catalog":
        return "resolved against the catalog: no model call"
    if rewrite.by == "unchanged":
        return "nothing to resolve: the message stands on its own, no model call"
    return "rewritten by the model into a standalone question, grounded in the catalog"


def semantic_options(overrides: Overrides, index: SearchIndex) -> SemanticOptions:
    """The semantic options asked for that this index can apply: ranking needs search text,
    and captions come only with ranking."""
    ranker = (
        bool(overrides.semantic_ranker) and index.supports_semantic and overrides.retrieval_mode != "vectors"
    )
    return SemanticOptions(ranker=ranker, captions=ranker and bool(overrides.semantic_captions))


def semantic_note(overrides: Overrides, applied: SemanticOptions, index: SearchIndex) -> str | None:
    """Why `semantic_ranker` and `semantic_captions`, when asked for, were not applied."""
    asked = {"semantic_ranker": overrides.semantic_ranker, "semantic_captions": overrides.semantic_captions}
    missed = [name for name, wanted in asked.items() if wanted and not getattr(applied, name.split("_")[1])]
    if not missed:
        return None
    if not index.supports_semantic:
        why = "they are Azure AI Search features, which the embedded store does not have"
    elif overrides.retrieval_mode == "vectors":
        why = "semantic ranking reranks by the search text, which a vectors-only search does not send"
    else:
        why = "captions come only with the semantic ranker"
    return f"Not applied: {', '.join(missed)}, because {why}."


def thoughts(
    request: ChatProtocolRequest,
    rewrite: Rewrite,
    history: Sequence[Message],
    retrieval: Retrieval,
    messages: Sequence[ChatTurn],
    settings: Settings,
    index: SearchIndex,
) -> list[dict[str, Any]]:
    overrides = request.overrides
    semantic = retrieval.semantic
    mode = overrides.retrieval_mode or "hybrid"
    search_props = {
        "standalone_question": rewrite.question,
        "rewrite": how_rewritten(rewrite, history),
        "retrieval_mode": mode,
        "top": overrides.top or settings.search_top,
        # Those read from the question, and those of the overrides, which win.
        "filters": retrieval.filters.model_dump(mode="json", exclude_defaults=True),
        "has_vector": mode != "text",
        "has_text": mode != "vectors",
        "use_semantic_ranker": semantic.ranker,
        "use_semantic_captions": semantic.captions,
    }
    steps = [
        thought("Original user query", request.question),
        thought("Generated search query", retrieval.searched, search_props),
        thought(
            "Results",
            [{"id": f.recipe.id, "title": f.recipe.title, "score": f.score} for f in retrieval.found],
        ),
        thought("Prompt", [dict(m) for m in messages]),
    ]
    if note := semantic_note(overrides, semantic, index):
        steps.insert(2, thought("Search options not applied", note))
    return steps


async def start_answer(
    llm: ChatModel, retriever: Retriever, request: ChatProtocolRequest, settings: Settings
) -> StartedAnswer:
    """Everything up to the model's first word: the rewrite, the search, and the answer call
    taken by the provider (so that a refusal, such as the content filter's, is raised here)."""
    overrides = request.overrides
    conversation = request.conversation
    rewrite = await query_rewriter.reformulate(
        llm, request.question, conversation, settings, retriever.catalog
    )
    # Diets, a time limit and exclusions are read from the question, as for the app's own body.
    retrieval = await retriever.retrieve_question(
        rewrite.question,
        overrides.top or settings.search_top,
        mode=overrides.retrieval_mode or "hybrid",
        filters=overrides.filters,
        semantic=semantic_options(overrides, retriever.index),
    )
    recipes = [f.recipe for f in retrieval.found]
    # The question takes the last of the N places in the window. It goes in as the user wrote
    # it: the history around it gives it its meaning, and the rewrite served the search.
    history = recent_history(conversation, settings.history_max_messages - 1, settings.history_max_tokens)
    followups = bool(overrides.suggest_followup_questions)
    messages = cited_answer_messages(recipes, history, request.question, settings, followups=followups)
    stream = await llm.stream(
        messages,
        max_tokens=ANSWER_MAX_TOKENS + (FOLLOWUP_TOKENS if followups else 0),
        temperature=overrides.temperature,
    )
    rewrite_history = recent_history(conversation, settings.history_max_messages, settings.history_max_tokens)
    context = {
        "data_points": {"text": [data_point(f, settings.recipe_prompt_chars) for f in retrieval.found]},
        "thoughts": thoughts(
            request, rewrite, rewrite_history, retrieval, messages, settings, retriever.index
        ),
    }
    return StartedAnswer(context, CheckedReply(stream, [r.id for r in recipes], followups=followups))
