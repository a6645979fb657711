"""A question for what goes with a dish: "what do I serve with a roast beef?", "what to serve
with tacos", "nibbles to go with a cold beer".

The dish it names is what the words match best (the tacos themselves), while the answer is
what is eaten beside it: naan and raita with a curry, guacamole and salsa with tacos. Each
recipe's course (app/search/recipe_facts.py, from its own data) tells which recipes are
eaten beside a dish: side dishes, condiments and snacks are moved first, in the order the
search ranked them, the rest after.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

from app.search.open_question import Ranked
from app.search.recipe_facts import course

SERVED_WITH = re.compile(
    r"\b(?:serve|served|serving|go(?:es)?|goes well|pairs?|eat)\s+(?:well\s+)?(?:with|alongside)\b"
    r"|\balongside\b|\baccompan(?:y|iment|iments)\b",
    re.I,
)
BESIDE = frozenset({"side dish", "condiment", "snack"})
# How many more candidates than offered are fetched to find those eaten beside the dish.
WIDER = 4

T = TypeVar("T", bound=Ranked)


def asks_for_accompaniments(question: str) -> bool:
    return SERVED_WITH.search(question) is not None


def beside_first(found: Sequence[T], top: int) -> list[T]:
    """The first `top` of `found`, what is eaten beside a dish before the rest, each part in
    its order."""
    beside = [f for f in found if course(f.recipe) in BESIDE]
    return (beside + [f for f in found if course(f.recipe) not in BESIDE])[:top]
