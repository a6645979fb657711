"""Follow-up questions the model suggests after its answer, each written as `<<question>>`.

The answer streams through until the first `<<`; from there on the text is held back and read
as questions at the end, so that a client never sees the markers as part of the answer.
"""

from __future__ import annotations

import re

QUESTION = re.compile(r"<<([^<>]+)>>")
MAX_QUESTIONS = 3


class FollowupSplitter:
    def __init__(self) -> None:
        # A lone "<" at the end of a piece may be the first half of "<<".
        self._held = ""
        self._questions: str | None = None

    def feed(self, text: str) -> str:
        """The part of `text` that belongs to the answer."""
        if self._questions is not None:
            self._questions += text
            return ""
        text, self._held = self._held + text, ""
        start = text.find("<<")
        if start >= 0:
            self._questions = text[start:]
            return text[:start]
        if text.endswith("<"):
            self._held = "<"
            return text[:-1]
        return text

    def flush(self) -> str:
        """The answer's last character, if a lone "<" was held back."""
        held, self._held = self._held, ""
        return held

    def questions(self) -> list[str]:
        found = (" ".join(q.split()) for q in QUESTION.findall(self._questions or ""))
        return [q for q in dict.fromkeys(found) if q][:MAX_QUESTIONS]
