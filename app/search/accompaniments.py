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

from app.recipes import Recipe
from app.search.open_question import Ranked
from app.search.recipe_facts import COURSE_WORDS, COURSES, CUISINES, course
from app.search.text import content_words

# Not "I'll go with the risotto", a choice.
SERVED_WITH = re.compile(
    r"\b(?:serve|served|serving|goes|pairs?|paired|eat)\s+(?:well\s+)?(?:with|alongside)\b"
    r"|(?<!\bi'll )(?<!\bill )(?<!\bi )(?<!\bi'd )(?<!\blet's )(?<!\bwe'll )(?<!\bwe )"
    r"\bgo\s+(?:well\s+)?with\b"
    r"|\balongside\b|\baccompan(?:y|iment|iments)\b|\bon the side (?:with|of)\b"
    # "something bready to dunk in it", "to mop up the sauce".
    r"|\b(?:dunk|dunking|dip|dipping)\s+in(?:to)?\b|\bmop up\b",
    re.I,
)
# What goes with the dish, up to the end of its clause: "a dessert [to go with the Lasagna]".
PAIRED = re.compile(rf"(?:\bto\s+)?(?:{SERVED_WITH.pattern})\s+[^,.;:!?]*", re.I)
# Words that ask, not what for: "what should I serve", "any ideas".
ASKING = frozenset({"serve", "make", "cook", "ideas", "idea", "something", "anything", "good", "nice", "ok"})
# … and what is said around the asking: "Ooh the Kung Pao. what do i serve with it?".
ASKING |= {"ooh", "oh", "ohh", "okay", "yum", "great", "cool", "wow", "perfect", "lovely", "amazing"}
BESIDE = frozenset({"side dish", "condiment", "snack"})
# How many more candidates than offered are fetched to find those eaten beside the dish.
WIDER = 4

T = TypeVar("T", bound=Ranked)


def asks_for_accompaniments(question: str) -> bool:
    return SERVED_WITH.search(question) is not None


def search_text(question: str, searched: str, dishes: Sequence[Recipe] = ()) -> tuple[str, bool]:
    """What to search for a question about what goes with a dish, and whether what is eaten
    beside a dish comes first. "A dessert to go with the Lasagna" asks for a kind of dish: its
    words alone are searched, since the Lasagna's would bring its kin back. "What do I serve
    with tacos?" asks for none: the tacos' words find what goes with them, sides first.

    When the dish is a catalog recipe (`dishes`), its cuisine is searched instead of its words:
    beside the Kung Pao chicken, Asian sides rather than other chicken dishes; with the Lasagna,
    an Italian dessert."""
    said = [m.group(0) for m in PAIRED.finditer(question)]
    if not said:
        return searched, False
    rest = searched
    for phrase in [*said, *(dish.title for dish in dishes)]:
        rest = rest.replace(phrase, " ")  # the dish's title too: "the Chicken Wings. what goes with it?"
    kin = " ".join(dict.fromkeys(tag for dish in dishes for tag in dish.tags if tag in CUISINES))
    asked = set(content_words(rest)) - ASKING
    if not asked:
        return (f"{kin} {COURSE_WORDS['side dish']}".strip() if dishes else searched), True
    # What is eaten beside a dish still comes first, unless another course is asked for.
    course = next((name for name, words in COURSES if asked & words), None)
    return " ".join(f"{rest} {kin if paired_course(searched, said[0]) else ''}".split()), (
        course is None or course in BESIDE
    )


def paired_course(searched: str, phrase: str) -> str | None:
    """The course said just before what it goes with: "a dessert [to go with the Lasagna]", "and
    drinks [to go with them]"; not "Sweet. and something bready [to dunk in it]"."""
    before = re.split(r"[.!?]\s+", searched[: max(searched.find(phrase), 0)])[-1]
    near = set(content_words(" ".join(before.split()[-4:])))
    return next((name for name, words in COURSES if near & words), None)


def beside_first(found: Sequence[T], top: int) -> list[T]:
    """The first `top` of `found`: side dishes, then the rest of what is eaten beside a dish
    (a jam is no side for stuffed vegetables, a salsa is one for tacos), then the rest, each part
    in its order."""
    return sorted(
        found, key=lambda f: 0 if course(f.recipe) == "side dish" else 1 if course(f.recipe) in BESIDE else 2
    )[:top]
