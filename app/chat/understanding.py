"""What a chat turn searches for: the standalone question and its filters, in one model call
at most.

- a first turn is standalone already; its filters are read by the rules
  (app/search/question_reader.py) when they leave no hint of one unread, and only otherwise by
  the question reader (the model, on a cloud model with structured output);
- a follow-up that a model rewrites, where the model also reads filters, gets both from ONE
  structured-output call (the rewrite and the filters as one JSON object) when the rules leave
  a hint of a filter unread in the message, in what the resolver carries or in an earlier
  message of the user's: the rewrite is held to the rewrite guard (app/chat/rewrite.py) and
  the filters to the question as the reader's are; when the guard sets the rewrite aside, the
  rules read the filters of the rewrite kept, because the model read its own. When the rules
  read every filter, as on a first turn, the call asks for the rewrite alone, as plain text
  (no schema: a schema is some 200 tokens of prompt), and the rules read its filters;
- otherwise (the catalog's rewrite, or a reader of rules) the rewrite, then the filters as for
  a first turn.

`/api/chat/reformulate` returns what was read, and `/api/chat` takes it back, so that the page's
two requests make no more calls than the protocol's one.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from pydantic import ValidationError

from app.chat.references.catalog import Catalog
from app.chat.rewrite import Rewrite, RewriteTask, rewrite_task
from app.http.bodies import Message
from app.prompts import prompt
from app.providers.protocols import ChatModel, ChatTurn
from app.search.question_reader import (
    READING_SCHEMA,
    ModelReader,
    ModelReading,
    QuestionReader,
    ReadQuestion,
    checked_reading,
    read_question,
)
from app.search.retrieval import Retriever
from app.settings import Settings

log = logging.getLogger(__name__)

# Words that may ask for a filter (a diet, a time limit, something left out). The rules take
# out of the searched text every phrase they read; a hint left in it is one they could not read.
HINTS = re.compile(
    r"\b(?:vegan|vegetarian|veggie|plant|gluten|coeliac|celiac|dairy|lactose"
    r"|minutes?|mins?|hours?|hrs?|quick|quickly|fast|hurry|rush|speedy"
    r"|without|no|not|except|excluding|free|avoid\w*|allerg\w*|intoleran\w*|hate|dislike"
    r"|can't|cannot|can not|don't|doesn't|skip|minus|hold the|leave out)\b",
    re.IGNORECASE,
)

# The rewrite and the reader's filters, as one object (strict structured output: every field
# required, none other allowed).
REWRITE_READING_SCHEMA: dict[str, Any] = {
    **READING_SCHEMA,
    "properties": {"question": {"type": "string"}, **cast(dict[str, Any], READING_SCHEMA["properties"])},
    "required": ["question", *cast(list[str], READING_SCHEMA["required"])],
}
# Room for the filters beside the rewrite: the search text repeats the question, at most.
READING_TOKENS = 60


class RewriteReading(ModelReading):
    """What the model replies with: the standalone question, and what the reader reads of it."""

    question: str


@dataclass(frozen=True)
class Understanding:
    rewrite: Rewrite
    # What is searched for, and with which filters.
    reading: ReadQuestion


def rules_suffice(question: str, read: ReadQuestion) -> bool:
    """Whether the rules read every filter the question may ask for: no hint is left in the
    text they search (which is the whole question again when they took all of it)."""
    everything_read = read.text == question and not read.filters.is_empty()
    return everything_read or not HINTS.search(read.text)


async def read_filters(question: str, reader: QuestionReader) -> ReadQuestion:
    """The filters of a standalone question: the rules', unless they leave a hint unread and
    the reader is a model."""
    read = read_question(question)
    if isinstance(reader, ModelReader) and not rules_suffice(question, read):
        return await reader.read(question)
    return read


def needs_reading(task: RewriteTask) -> bool:
    """Whether the rules leave a filter unread in the message, in the resolver's rewrite (which
    holds the earlier requests the message keeps) or in an earlier message of the user's (which
    the model's rewrite may carry where the resolver did not): then the model reads the filters."""
    earlier = (turn.content for turn in task.history if turn.role == "user")
    texts = dict.fromkeys((task.question, task.resolution.question, *earlier))
    return any(not rules_suffice(text, read_question(text)) for text in texts)


def rewrite_messages(task: RewriteTask) -> list[ChatTurn]:
    return [
        {"role": "system", "content": prompt("rewrite_system")},
        {"role": "user", "content": task.transcript()},
    ]


async def rewrite_only(llm: ChatModel, task: RewriteTask) -> Understanding:
    """One call for the rewrite alone, under the rewrite guard; the rules read its filters."""
    reply = await llm.complete(rewrite_messages(task), max_tokens=task.max_tokens(), temperature=0.0)
    rewrite = task.check(reply)
    return Understanding(rewrite, read_question(rewrite.question))


def rewrite_reading_messages(task: RewriteTask) -> list[ChatTurn]:
    return [
        {"role": "system", "content": prompt("rewrite_and_read_system")},
        {"role": "user", "content": task.transcript()},
    ]


async def rewrite_and_read(llm: ChatModel, task: RewriteTask) -> Understanding:
    """One call: the model's rewrite, under the rewrite guard, and its filters, held to it."""
    reply = await llm.complete(
        rewrite_reading_messages(task),
        json_schema=REWRITE_READING_SCHEMA,
        max_tokens=2 * task.max_tokens() + READING_TOKENS,
        temperature=0.0,
    )
    try:
        reading = RewriteReading.model_validate_json(reply)
    except ValidationError as error:
        log.warning("the model's rewrite and filters were unusable (%d errors)", error.error_count())
        rewrite = task.set_aside("not the JSON asked for")
        return Understanding(rewrite, read_question(rewrite.question))
    rewrite = task.check(reading.question)
    if rewrite.by != "model":
        return Understanding(rewrite, read_question(rewrite.question))
    return Understanding(rewrite, checked_reading(reading, rewrite.question))


async def understand(
    llm: ChatModel,
    question: str,
    conversation: Sequence[Message],
    settings: Settings,
    retriever: Retriever,
) -> Understanding:
    """The standalone question for the latest message and what to search it with."""
    task = await rewrite_task(question, conversation, settings, Catalog(retriever.store, retriever.names))
    if isinstance(task, RewriteTask) and isinstance(retriever.reader, ModelReader):
        return await (rewrite_and_read if needs_reading(task) else rewrite_only)(llm, task)
    rewrite = await task.run(llm) if isinstance(task, RewriteTask) else task
    return Understanding(rewrite, await read_filters(rewrite.question, retriever.reader))
