"""The answer as it is written: the model's stream through the answer guard, the citation
check and the follow-up splitter, or the recipes' data answering instead (when chosen, when the
model is busy, or when the guard refuses a reply before it names a retrieved recipe).
`app/chat/answers.py` starts it; the protocol's chunks and the app body's streams iterate it."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator, Sequence
from typing import Literal

from app.chat import data_answers
from app.chat.answer_guard import AnswerGuard, GuardReport, Named
from app.chat.citations import CitationFilter
from app.chat.followups import FollowupSplitter
from app.http.bodies import Source
from app.providers.errors import ModelBusyError
from app.providers.protocols import ChatStream, Usage
from app.recipes import Recipe

log = logging.getLogger(__name__)

DATA_MODEL = "recipe-data"

Writer = Literal["model", "data"]


class Answer:
    """One answer as a client may see it: guarded, citations checked, follow-up questions
    (when asked for) split off, whitespace trimmed. Iterate it once; `text`, `finish_reason`,
    `followup_questions`, `usage` and `report` are known after the last piece."""

    def __init__(
        self,
        question: str,
        recipes: Sequence[Recipe],
        named: Named,
        stream: ChatStream | None,
        *,
        followups: bool,
        require_recipe: bool,
    ) -> None:
        self._question = question
        self.recipes = list(recipes)
        self._named = named
        self._stream = stream
        self._followups = followups
        # A small model's reply that names none of the recipes found is no answer.
        self._require_recipe = require_recipe
        self.model = stream.model if stream is not None else DATA_MODEL
        self.writer: Writer = "model" if stream is not None else "data"
        self.text = ""
        self.finish_reason = "stop"
        # None when they were not asked for; a list, perhaps empty, when they were.
        self.followup_questions: list[str] | None = None
        self.report = GuardReport()

    @property
    def usage(self) -> Usage | None:
        return self._stream.usage if self._stream is not None else None

    async def __aiter__(self) -> AsyncIterator[str]:
        shown = False
        async for piece in self._pieces():
            if not shown:
                piece = piece.lstrip()
            if piece:
                shown = True
                self.text += piece
                yield piece
        self.text = self.text.rstrip()

    async def _pieces(self) -> AsyncIterator[str]:
        if self._stream is not None:
            async for piece in self._model_pieces(self._stream):
                yield piece
            if self.writer == "model":
                return
            # The model's reply was refused (or it was busy): the data's answer follows.
            self.finish_reason = "stop"
            if self.text.strip():
                yield "\n\n"
        if self._followups and self.followup_questions is None:
            self.followup_questions = []
        composed = data_answers.compose(self._question, self.recipes)
        self.report.named = [r.id for r in self.recipes if f"[{r.id}]" in composed.text]
        # Sentence by sentence, as a model would write it.
        for part in re.split(r"(?<=[.:])(?=\s)", composed.text):
            yield part

    async def _model_pieces(self, stream: ChatStream) -> AsyncIterator[str]:
        guard = AnswerGuard(self.recipes, self._named)
        self.report = guard.report
        citations = CitationFilter([r.id for r in self.recipes])
        splitter = FollowupSplitter() if self._followups else None
        started = False
        # A small model's sentences are held until one names a retrieved recipe: its openings
        # ("Sure!", "I'm sorry for the confusion.") are no answer, and the data's answer
        # replaces a reply that never names one, with nothing of it shown.
        held = ""
        try:
            async with contextlib.aclosing(aiter(stream)) as pieces:
                async for piece in pieces:
                    started = True
                    text = citations.feed(guard.feed(splitter.feed(piece) if splitter else piece))
                    if self._require_recipe and not guard.report.named:
                        held, text = held + text, ""
                    elif held:
                        held, text = "", held + text
                    if text:
                        yield text
                    if guard.refused:
                        # What the model writes after a refused sentence comes from the same
                        # state: stop it (closing the stream frees the model).
                        break
        except ModelBusyError:
            if started:
                raise
            log.info("the embedded model was busy: answering from the recipes' data")
            self.writer = "data"
            return
        cut = stream.finish_reason == "length"
        tail = splitter.flush() if splitter else ""
        tail = held + citations.feed(guard.feed(tail) + guard.finish(cut=cut)) + citations.flush()
        named_any = bool(guard.report.named)
        if tail.strip() and (named_any or not self._require_recipe):
            yield tail
        if splitter:
            self.followup_questions = splitter.questions()
        if self.recipes and (
            (guard.refused and not named_any)
            or not self.text.strip()
            or (not named_any and self._require_recipe)
        ):
            self.writer = "data"
        elif cut:
            self.finish_reason = "length"

    def sources(self) -> list[Source]:
        """The retrieved recipes the answer names, titled from the store."""
        named = set(self.report.named)
        lowered = self.text.lower()
        return [
            Source(id=r.id, title=r.title)
            for r in self.recipes
            if r.id in named or f"[{r.id}]" in lowered or r.title.lower() in lowered
        ]
