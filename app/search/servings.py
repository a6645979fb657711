"""How many a question cooks for: "a quick dinner for 4", "something that feeds six".

A preference, not a filter: among the recipes the search found, those that say they serve at
least that many come first, then those that do not say, then those that serve fewer. A recipe
for two still answers "dinner for 4" when nothing better fits (its amounts can be doubled).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

from app.search.open_question import Ranked

NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
NUMBERS |= {"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a dozen": 12, "twenty": 20}
# "for 4", "for six people", "feeds 8", but not "for 20 minutes" nor "at 180 degrees".
COUNT = rf"(?P<count>\d{{1,3}}|{'|'.join(NUMBERS)})"
# "for 4", "for six people", "feeds 8", but not "for 20 minutes" nor "at 180 degrees"; and
# "8 people over", "there's 6 of us", "10 guests".
FOR_PEOPLE = re.compile(
    rf"\b(?:for|feeds?|serves?|serving|feeding)\s+(?:about\s+|around\s+)?{COUNT}\b"
    r"(?!\s*(?:-|to)?\s*\d*\s*(?:min|mins|minutes?|hours?|hrs?|h\b|seconds?|secs?|days?|weeks?|°|degrees))"
    # "about 12 kids": a party's head count; "my 2 kids" is a family, not whom it cooks for.
    rf"|\b(?:about|around|roughly|like)\s+{COUNT.replace('count', 'near')}\s+(?:kids|children|teens)\b"
    rf"|\b{COUNT.replace('count', 'many')}\s+(?:people|persons|guests|ppl|of us|adults|friends)\b"
    # "one of us is coeliac" counts no one.
    r"(?!\s+(?:is|are|has|have|can|cant|can't|doesn't|doesnt|won't|wont|isn't|aren't)\b)"
    # "birthday party, 10 kids.", "10 kids coming": a head count, said on its own.
    r"|(?<!my )(?<!our )(?<!have )(?<!has )(?<!with )"
    rf"\b{COUNT.replace('count', 'kids')}\s+(?:kids|children)\b"
    r"(?=\s*(?:[.,!?;]|$|coming|over|attending|invited|at the party))",
    re.I,
)
# How many more candidates than offered are looked at for ones that serve enough.
WIDER = 2

T = TypeVar("T", bound=Ranked)


def people(question: str) -> int | None:
    """How many the question cooks for, when it says."""
    match = FOR_PEOPLE.search(question)
    if match is None:
        return None
    said = (match["count"] or match["many"] or match["near"] or match["kids"]).lower()
    count = NUMBERS.get(said) or int(said)
    return count if 1 <= count <= 100 else None


def enough_first(found: Sequence[T], count: int) -> list[T]:
    """Those that serve `count` or more first, then those that do not say, then the rest, each
    part in the search's order."""

    def rank(item: T) -> int:
        serves = item.recipe.servings_count
        return 1 if serves is None else 0 if serves >= count else 2

    return sorted(found, key=rank)
