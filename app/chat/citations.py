"""Citations in a plain-text answer: `[mushroom-risotto]`, checked against what was retrieved.

Protocol front ends turn every bracketed part of an answer into a link to a source, so a
bracket that is not one of the recipes retrieved for this request is removed: a made-up id
must never show as a link. The check works on text as it streams, piece by piece, because a
citation can arrive split over several pieces (`[mush`, `room-ris`, `otto]`).
"""

from __future__ import annotations

import re
from collections.abc import Collection

# Longer than any recipe id (100 characters) with room for a few ids in one bracket; a bracket
# still open past this is prose, not a citation.
MAX_BRACKET_CHARS = 400
SEPARATORS = re.compile(r"[,;]\s*|\s+")


class CitationFilter:
    """Feed it the answer as it comes; it hands back what may be shown so far.

    Text inside an open bracket is held until the bracket closes. Whitespace is held until
    the next character, so that a citation removed mid-sentence takes its leading space with
    it ("soup [made-up]." becomes "soup.").
    """

    def __init__(self, ids: Collection[str]) -> None:
        self.ids = set(ids)
        self._space = ""
        self._bracket: str | None = None

    def feed(self, text: str) -> str:
        shown: list[str] = []
        for char in text:
            if self._bracket is not None:
                self._bracket += char
                if char == "]":
                    shown.append(self._close())
                elif char == "\n" or len(self._bracket) > MAX_BRACKET_CHARS:
                    # A newline or a run this long: not a citation after all, so it is shown as it was.
                    shown.append(self._space + self._bracket)
                    self._space, self._bracket = "", None
            elif char.isspace():
                self._space += char
            elif char == "[":
                self._bracket = char
            else:
                shown.append(self._space + char)
                self._space = ""
        return "".join(shown)

    def flush(self) -> str:
        """What is still held at the end of the answer; an unclosed bracket is no citation."""
        rest = self._space + (self._bracket or "")
        self._space, self._bracket = "", None
        return rest

    def _close(self) -> str:
        """A closed bracket: the retrieved ids it names, each in brackets of its own as the
        protocol asks (`[a][b]`), or nothing at all."""
        assert self._bracket is not None
        named = [part for part in SEPARATORS.split(self._bracket[1:-1]) if part]
        kept = [f"[{part}]" for part in dict.fromkeys(named) if part in self.ids]
        space = self._space
        self._space, self._bracket = "", None
        return space + "".join(kept) if kept else ""


def check_citations(answer: str, ids: Collection[str]) -> str:
    """A whole answer with every citation that is not one of `ids` removed."""
    citations = CitationFilter(ids)
    return citations.feed(answer) + citations.flush()
