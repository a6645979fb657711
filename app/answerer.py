"""Answer a standalone question from the top recipes, and keep the model honest about sources."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from app.api_models import ChatResponse, Message, ModelAnswer, Source
from app.history import recent_history
from app.prompts import prompt
from app.providers import ChatModel, ChatTurn
from app.recipes import Recipe
from app.retrieval import Retriever
from app.settings import Settings

log = logging.getLogger(__name__)

ANSWER_MAX_TOKENS = 600
CODE_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")


def describe(recipe: Recipe, max_chars: int) -> str:
    """A recipe as the model sees it, cut to `max_chars` so three recipes fit any context."""
    times = [
        f"{label} {minutes} min"
        for label, minutes in (
            ("prep", recipe.prep_minutes),
            ("cook", recipe.cook_minutes),
            ("total", recipe.total_minutes),
        )
        if minutes is not None
    ]
    lines = [
        f"[id: {recipe.id}]",
        f"Title: {recipe.title}",
        f"Diet: {', '.join(recipe.diet_labels) or 'not specified'}",
        f"Time: {', '.join(times) or 'not given'}",
    ]
    if recipe.servings:
        lines.append(f"Servings: {recipe.servings}")
    if recipe.description:
        lines.append(f"Description: {recipe.description}")
    lines.append("Ingredients: " + "; ".join(recipe.ingredients))
    lines.append("Steps: " + " ".join(f"{n}) {step}" for n, step in enumerate(recipe.steps, 1)))
    text = "\n".join(lines)
    return text if len(text) <= max_chars else text[: max_chars - 1].rstrip() + "…"


def answer_schema(ids: Sequence[str]) -> dict[str, Any]:
    """The reply's JSON schema; source ids are limited to the retrieved recipes."""
    source_id: dict[str, Any] = {"type": "string", "enum": list(ids)} if ids else {"type": "string"}
    return {
        "type": "object",
        "properties": {
            "answer": {"type": "string"},
            "sources": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"id": source_id, "title": {"type": "string"}},
                    "required": ["id", "title"],
                    "additionalProperties": False,
                },
            },
        },
        "required": ["answer", "sources"],
        "additionalProperties": False,
    }


def answer_messages(
    recipes: Sequence[Recipe], history: Sequence[Message], question: str, settings: Settings
) -> list[ChatTurn]:
    listed = "\n\n".join(describe(r, settings.recipe_prompt_chars) for r in recipes) or "(none found)"
    messages: list[ChatTurn] = [
        {"role": "system", "content": prompt("answer_system").replace("{recipes}", listed)}
    ]
    messages.extend({"role": m.role, "content": m.content} for m in history)
    messages.append({"role": "user", "content": question})
    return messages


def parse_answer(reply: str, recipes: Sequence[Recipe]) -> ChatResponse:
    """The model's JSON as a response; sources only among `recipes`, titled from them."""
    try:
        parsed = ModelAnswer.model_validate_json(CODE_FENCE.sub("", reply.strip()))
    except ValidationError:
        log.warning("the model's reply was not the JSON asked for (%d chars)", len(reply))
        return unparsable_reply(recipes)
    by_id = {r.id: r for r in recipes}
    cited = dict.fromkeys(s.id for s in parsed.sources if s.id in by_id)
    invented = [s.id for s in parsed.sources if s.id not in by_id]
    if invented:
        log.info("dropped %d source id(s) that were not retrieved", len(invented))
    return ChatResponse(
        answer=parsed.answer,
        sources=[Source(id=i, title=by_id[i].title) for i in cited],
    )


def unparsable_reply(recipes: Sequence[Recipe]) -> ChatResponse:
    """A clear answer when the model's reply could not be read: the search itself worked."""
    if not recipes:
        return ChatResponse(answer="Sorry, I couldn't put an answer together. Please try asking again.")
    return ChatResponse(
        answer=(
            "Sorry, I couldn't put an answer together this time. These recipes matched your "
            "question; open one, or try asking again."
        ),
        sources=[Source(id=r.id, title=r.title) for r in recipes],
    )


async def answer(
    llm: ChatModel,
    retriever: Retriever,
    question: str,
    conversation: Sequence[Message],
    settings: Settings,
) -> ChatResponse:
    retrieval = await retriever.retrieve_question(question, settings.search_top)
    recipes = [found.recipe for found in retrieval.found]
    # The question takes the last of the N places in the window.
    history = recent_history(conversation, settings.history_max_messages - 1, settings.history_max_tokens)
    reply = await llm.complete(
        answer_messages(recipes, history, question, settings),
        json_schema=answer_schema([r.id for r in recipes]),
        max_tokens=ANSWER_MAX_TOKENS,
    )
    return parse_answer(reply, recipes)
