"""The one answer pipeline of POST /api/chat, for both of its bodies: retrieve, prompt,
generate, check, shape.

- retrieve: the standalone question (the app body's `userMessage`; for the protocol, its
  last message rewritten by `app/chat/rewrite.py`) with the diets, time limit and exclusions it
  names, read in one model call at most with the rewrite (`app/chat/understanding.py`), or as
  the app body sends them back from `/api/chat/reformulate`;
- prompt: one prompt (`app/prompts/answer_system.txt`) and one recipe format
  (`prompt_recipe`): each recipe's facts first, its details after them as far as the budget
  goes (a few facts for the embedded 135M model; for a cloud model, whole recipes, the steps
  only of those the question is about);
- generate: the model streams, or, for a question the retrieved recipes' data answers
  better (`answer_writer`), the data answers with no model call (`app/chat/data_answers.py`);
- check (`Answer`, `app/chat/answer_stream.py`): the answer guard (`app/chat/answer_guard.py`)
  lets through only sentences that neither repeat, loop, name a recipe that was not retrieved,
  nor contradict the recipes' data, and drops the unfinished end of a reply cut at the token
  limit; citations of recipes that were not retrieved are removed (`app/chat/citations.py`).
  A reply the guard refuses before it has named a retrieved recipe is followed by the data's
  answer, so that a search that found recipes is never answered with an apology;
- shape: `Answer` is iterated piece by piece by the protocol's chunks
  (`app/protocol/rendering.py`) and by the app body's streams, or read whole by
  `chat_response` for the app body's `{"answer", "sources"}`."""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.chat.answer_guard import Named
from app.chat.answer_stream import Answer, Writer
from app.chat.citations import CitationFilter
from app.chat.data_phrasing import facts, key_ingredients, named_in
from app.chat.history import recent_history
from app.chat.rewrite import Rewrite
from app.chat.thoughts import data_point, semantic_options, thoughts
from app.chat.understanding import read_filters, understand
from app.http.bodies import ChatRequest, ChatResponse, Message
from app.prompts import prompt
from app.protocol.chat_protocol import ChatProtocolRequest, Overrides
from app.providers.protocols import ChatModel, ChatTurn
from app.recipes import Recipe
from app.search.question_reader import ReadQuestion, read_question
from app.search.retrieval import Retrieval, Retriever
from app.settings import Settings

# A cloud model's answer; the embedded model's is LOCAL_ANSWER_MAX_TOKENS.
ANSWER_MAX_TOKENS = 600
# Room for three short questions after the answer.
FOLLOWUP_TOKENS = 120
CITATION = re.compile(r"\s?\[[a-z0-9][a-z0-9-]*\]")


# Where a recipe's text may be cut: after a sentence, or before a step's number ("… 2) Add").
SENTENCE_OR_STEP_END = re.compile(r"[.!?](?=\s)|(?=\s\d+\) )")


def prompt_recipe(recipe: Recipe, max_chars: int, *, with_steps: bool = True) -> str:
    """A recipe as the model sees it: its title and id, then the facts that answer most
    questions (time, servings, diets), then its description, ingredients and steps, cut at
    `max_chars`. The facts come first, so a small budget keeps them; when the budget cuts the
    ingredients, their first few names stand in for them, right after the facts."""
    about = facts(recipe)
    head = f"{recipe.title} [{recipe.id}]: {about or 'time and servings not given'}."
    details = [f"Description: {recipe.description}"] if recipe.description else []
    ingredients = "Ingredients: " + "; ".join(recipe.ingredients)
    steps = (
        ["Steps: " + " ".join(f"{n}) {step}" for n, step in enumerate(recipe.steps, 1))] if with_steps else []
    )
    whole = "\n".join([head, *details, ingredients])
    if len(whole) > max_chars:
        head += "\nKey ingredients: " + ", ".join(key_ingredients(recipe)) + "."
    text = "\n".join([head, *details, ingredients, *steps])
    if len(text) <= max_chars:
        return text
    # Never cut inside the first line: it holds the facts the guard checks the answer against;
    # and cut after a whole sentence or step, not inside one: half an instruction ("until
    # liquid is abso") is worse than none.
    first_line = len(head.split("\n", 1)[0])
    cut = text[: max(max_chars, first_line) - 2]
    ends = [m.end() for m in SENTENCE_OR_STEP_END.finditer(cut) if m.end() > first_line]
    return (cut[: ends[-1]] if ends else cut).rstrip() + " …"


def asked_about(retrieval: Retrieval, question: str) -> set[str]:
    """The recipes a question is about: those it names (the catalog recipes the retrieval kept,
    and those found whose title it says: "how do I make pizza sauce"), or, naming none, the
    first found."""
    recipes = [f.recipe for f in retrieval.found]
    named = {*retrieval.named, *(r.id for r in named_in(question, recipes))}
    return named or {r.id for r in recipes[:1]}


def answer_messages(
    recipes: Sequence[Recipe],
    history: Sequence[Message],
    question: str,
    *,
    recipe_chars: int,
    about: Collection[str],
    followups: bool = False,
) -> list[ChatTurn]:
    """The answer prompt. The method (the steps) is given for the recipes the question is
    `about` only. The others are there to be offered or compared, which their facts,
    description and ingredients do: their steps were most of the prompt's tokens and served no
    answer about them."""
    listed = (
        "\n\n".join(prompt_recipe(r, recipe_chars, with_steps=r.id in about) for r in recipes)
        or "(none found)"
    )
    system = prompt("answer_system").replace("{recipes}", listed)
    if followups:
        system += "\n\n" + prompt("followup_questions")
    messages: list[ChatTurn] = [{"role": "system", "content": system}]
    messages.extend({"role": m.role, "content": m.content} for m in history)
    messages.append({"role": "user", "content": question})
    return messages


def choose_writer(settings: Settings) -> Writer:
    """Who writes the answers. `auto` keeps a cloud model in charge (with the guard); on the
    embedded SmolLM2-135M it is the recipes' data: `make eval` measured the small model's
    replies on every kind of question, and the guard refused or the data replaced nearly all
    of them (wrong times and servings, invented dishes, loops), at a second or more each."""
    if settings.answer_writer != "auto":
        return settings.answer_writer
    return "data" if settings.uses_embedded_llm else "model"


def strip_citations(text: str) -> str:
    """The answer without its `[id]` citations: the app body returns them as `sources`."""
    return CITATION.sub("", text)


@dataclass(frozen=True)
class StartedAnswer:
    """Everything known before the answer's first word: the protocol's `data_points` and
    `thoughts`, and the answer to iterate."""

    context: dict[str, Any]
    reply: Answer
    retrieval: Retrieval | None = field(default=None, compare=False)


async def start_answer(
    llm: ChatModel,
    retriever: Retriever,
    named: Named,
    *,
    question: str,
    searched: str,
    conversation: Sequence[Message],
    settings: Settings,
    reading: ReadQuestion,
    overrides: Overrides | None = None,
    rewrite: Rewrite | None = None,
) -> StartedAnswer:
    """Retrieve for `searched` (the standalone question) as `reading` reads it, prompt with the
    recipes found, and start the answer: the model's stream is taken (so that a refusal such as
    the content filter's is raised here, before a response is committed to), or the data will
    answer."""
    overrides = overrides or Overrides()
    retrieval = await retriever.retrieve_question(
        searched,
        overrides.top or settings.search_top,
        mode=overrides.retrieval_mode or "hybrid",
        filters=overrides.filters,
        semantic=semantic_options(overrides, retriever.index),
        read=reading,
    )
    recipes = [f.recipe for f in retrieval.found]
    small = settings.uses_embedded_llm
    # The question takes the last of the N places in the window. It goes in as the user wrote
    # it: the history around it gives it its meaning, and the rewrite served the search.
    history = recent_history(conversation, settings.history_max_messages - 1, settings.history_max_tokens)
    followups = bool(overrides.suggest_followup_questions)
    messages = answer_messages(
        recipes,
        history,
        question,
        recipe_chars=min(settings.local_recipe_prompt_chars, settings.recipe_prompt_chars)
        if small
        else settings.recipe_prompt_chars,
        about=asked_about(retrieval, searched),
        followups=followups,
    )
    writer = choose_writer(settings) if recipes else "data"
    stream = None
    if writer == "model":
        max_tokens = settings.local_answer_max_tokens if small else ANSWER_MAX_TOKENS
        stream = await llm.stream(
            messages,
            max_tokens=max_tokens + (FOLLOWUP_TOKENS if followups else 0),
            temperature=overrides.temperature,
        )
    answer = Answer(searched, recipes, named, stream, followups=followups, require_recipe=small)
    rewrite_history = recent_history(conversation, settings.history_max_messages, settings.history_max_tokens)
    context = {
        "data_points": {"text": [data_point(f, settings.recipe_prompt_chars) for f in retrieval.found]},
        "thoughts": thoughts(
            question,
            overrides,
            rewrite,
            rewrite_history,
            retrieval,
            messages if stream is not None else None,
            settings,
            retriever.index,
        ),
    }
    return StartedAnswer(context, answer, retrieval)


async def start_protocol_answer(
    llm: ChatModel, retriever: Retriever, named: Named, request: ChatProtocolRequest, settings: Settings
) -> StartedAnswer:
    """A protocol request: its last message is rewritten into a standalone question and its
    filters read, in one model call at most (none on a first turn the rules read), and searched;
    the answer call gets the message as written."""
    understood = await understand(llm, request.question, request.conversation, settings, retriever)
    return await start_answer(
        llm,
        retriever,
        named,
        question=request.question,
        searched=understood.rewrite.question,
        conversation=request.conversation,
        settings=settings,
        reading=understood.reading,
        overrides=request.overrides,
        rewrite=understood.rewrite,
    )


async def start_app_answer(
    llm: ChatModel,
    retriever: Retriever,
    named: Named,
    question: str,
    conversation: Sequence[Message],
    settings: Settings,
    reading: ReadQuestion | None = None,
) -> StartedAnswer:
    """The app's own body: `userMessage` is already the standalone question, and `reading`
    what `/api/chat/reformulate` read of it, when the client sends that back."""
    return await start_answer(
        llm,
        retriever,
        named,
        question=question,
        searched=question,
        conversation=conversation,
        settings=settings,
        reading=reading or await read_filters(question, retriever.reader),
    )


def reading_sent(body: ChatRequest) -> ReadQuestion | None:
    """What the client sent back of `/api/chat/reformulate`'s reading, if it did: its filters,
    and the text to search (the rules take the filters' words out of the question without it);
    the intents, which order what is found ("eat less meat"), are read from the question."""
    if body.filters is None:
        return None
    read = read_question(body.userMessage)
    return ReadQuestion(body.searched or read.text, body.filters, read.intents)


async def chat_response(started: StartedAnswer) -> ChatResponse:
    """The app body's `{"answer", "sources"}`, from the whole answer."""
    async for _ in started.reply:
        pass
    return ChatResponse(answer=strip_citations(started.reply.text).strip(), sources=started.reply.sources())


async def app_events(started: StartedAnswer) -> AsyncGenerator[dict[str, Any], None]:
    """The app body as server-sent events: `{"delta": text}` as the answer is written (its
    citations taken out), then `{"answer", "sources", "finish_reason"}`, the same answer whole."""
    strip = CitationFilter(())  # knows no id, so it removes every citation
    async for piece in started.reply:
        if text := strip.feed(piece):
            yield {"delta": text}
    if tail := strip.flush().rstrip():
        yield {"delta": tail}
    response = ChatResponse(
        answer=strip_citations(started.reply.text).strip(), sources=started.reply.sources()
    )
    yield response.model_dump(mode="json") | {"finish_reason": started.reply.finish_reason}
