"""What an answer shows of its working (the protocol's `context.thoughts` and `data_points`):
the search, how the question was rewritten, the semantic options applied, the sources."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.chat.rewrite import Rewrite
from app.http.bodies import Message
from app.protocol.chat_protocol import Overrides
from app.providers.protocols import ChatTurn, SearchIndex, SemanticOptions
from app.search.retrieval import Retrieval, ScoredRecipe
from app.settings import Settings


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


def how_rewritten(rewrite: Rewrite | None, history: Sequence[Message]) -> str:
    if rewrite is None:
        return "the app body: the message is the standalone question"
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
    question: str,
    overrides: Overrides,
    rewrite: Rewrite | None,
    history: Sequence[Message],
    retrieval: Retrieval,
    messages: Sequence[ChatTurn] | None,
    settings: Settings,
    index: SearchIndex,
) -> list[dict[str, Any]]:
    semantic = retrieval.semantic
    mode = overrides.retrieval_mode or "hybrid"
    search_props = {
        "standalone_question": rewrite.question if rewrite else question,
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
        thought("Original user query", question),
        thought("Generated search query", retrieval.searched, search_props),
        thought(
            "Results",
            [{"id": f.recipe.id, "title": f.recipe.title, "score": f.score} for f in retrieval.found],
        ),
        thought(
            "Prompt",
            [dict(m) for m in messages]
            if messages is not None
            else "No model call: the answer is composed from the recipes' data.",
        ),
    ]
    if note := semantic_note(overrides, semantic, index):
        steps.insert(2, thought("Search options not applied", note))
    return steps
