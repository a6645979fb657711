"""Everyday intents read from a question, as words the catalog holds.

"Something light for a hot day" names no dish and no ingredient: neither keywords nor a small
embedding model find salads in it. The lexicon (intents.json, data, not code) maps phrases
that say an intent to the words a cook would use for such dishes; those words are added to
what is searched. An intent never becomes a filter: a wrong guess reorders, it hides nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import TypeVar

from app.recipes import Recipe
from app.search.filters import DIET_FLAGS
from app.search.open_question import Ranked
from app.search.recipe_facts import facts, mild, uses_leftovers
from app.search.text import fold

LEXICON = Path(__file__).with_name("intents.json")
T = TypeVar("T", bound=Ranked)


@dataclass(frozen=True)
class Intent:
    name: str
    when: re.Pattern[str]
    search: str
    # The phrases that say it, as written in the lexicon (for the model reader's prompt).
    examples: tuple[str, ...] = ()
    # Those of its phrases that say nothing of the dish in the catalog's words: not searched
    # ("cold day" would find cold soups, "starter" a sourdough starter).
    unsearched: re.Pattern[str] | None = None
    # Phrases that, said too, mean it is not meant: "kids" asking for a drink wants no kid food.
    unless: re.Pattern[str] | None = None
    # Phrases that, said too, mean its words are not searched though it is meant: a dessert for
    # a dinner party wants no roast, and is still for the party.
    unsearched_beside: re.Pattern[str] | None = None
    # What the recipes that come first have: a flag ("eat less meat" prefers the vegetarian
    # ones), or a fact they lack ("no meat": a pescatarian eats fish, not meat).
    prefers: str | None = None
    # Who or what the food is for ("a picnic", "the kids"), not which dish: carried on.
    occasion: bool = False
    # Those of its phrases that name an event, carried when said without "for" too:
    # "throwing my son's birthday party", "going on a picnic".
    events: frozenset[str] = frozenset()


def phrases(said: list[str]) -> re.Pattern[str]:
    """Any of these phrases, matched whole, case and accents folded."""
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(fold(p)) for p in said) + r")(?!\w)")


@cache
def intents() -> tuple[Intent, ...]:
    entries = json.loads(LEXICON.read_text(encoding="utf-8"))["intents"]
    return tuple(
        Intent(
            entry["name"],
            phrases(entry["when"]),
            entry["search"],
            tuple(entry["when"]),
            re.compile(r"\b(?:" + "|".join(map(re.escape, entry["unsearched"])) + r")\b", re.I)
            if entry.get("unsearched")
            else None,
            phrases(entry["unless"]) if entry.get("unless") else None,
            phrases(entry["unsearched_beside"]) if entry.get("unsearched_beside") else None,
            entry.get("prefers"),
            entry.get("occasion", False),
            frozenset(fold(p) for p in entry.get("events", ())),
        )
        for entry in entries
    )


@cache
def holidays() -> re.Pattern[str]:
    # The longest first: "christmas eve" before "christmas".
    return phrases(sorted(json.loads(LEXICON.read_text(encoding="utf-8"))["holidays"], key=len, reverse=True))


def intent_names() -> list[str]:
    return [intent.name for intent in intents()]


def read_intents(question: str) -> list[Intent]:
    """The intents that `question` says, in the lexicon's order."""
    said = fold(question)
    return [
        intent
        for intent in intents()
        if intent.when.search(said) and not (intent.unless and intent.unless.search(said))
    ]


# "for a kids birthday party", "for my diabetic dad": "for", a few words, the occasion's phrase.
FOR_BEFORE = re.compile(r"\bfor\s+(?:(?:a|an|the|my|our|his|her|their|this|some)\s+)?(?:[\w'-]+\s+){0,2}$")
FOR_AFTER = re.compile(
    r"(?:\s+(?:party|parties|night|day|dinner|lunch|crowd|dad|mum|mom|friends?|guests))?\b"
)


# "my son's 6th birthday party", "a picnic": whose or which event, said before it.
OWNER_BEFORE = re.compile(
    r"\b(?:a|an|the|my|our|his|her|their|this|next)\s+"
    r"(?:(?:[\w-]+'s|\d+\w*|kids?'?|little|big|family|surprise|summer|office|work|school)\s+){0,2}$"
)
# Events said with "a" when no word before says whose: "for a picnic", but "for brunch".
COUNTED_EVENTS = frozenset(
    {"party", "picnic", "potluck", "luck", "bbq", "barbecue", "barbeque", "cookout", "sale", "sales", "stall"}
    | {"dinner", "occasion", "birthday", "bday", "b-day", "lunch"}
)


# A conversation's user turns are read again at every turn: the reading is a pure function.
@lru_cache(maxsize=1024)
def event_said(said: str, start: int, end: int) -> str:
    """An event said without "for", as what the food is for: "for my son's 6th birthday party",
    "for a picnic", "for an anniversary dinner", "for brunch"."""
    owner = OWNER_BEFORE.search(said, 0, start)
    event = said[owner.start() if owner else start : end]
    counted = owner is None and said[start:end].split()[-1] in COUNTED_EVENTS
    return f"for {('an ' if event[0] in 'aeiou' else 'a ') if counted else ''}{event}"


@lru_cache(maxsize=1024)  # each user turn is read again at every follow-up
def occasion_said(question: str) -> str | None:
    """What the food is for, as the user said it ("for a kids birthday party"), when an
    occasion of the lexicon is said after "for", or an event is said on its own ("going on a
    picnic": "for a picnic"); lower case."""
    said = fold(question)
    spans: list[tuple[int, int]] = []
    events: list[str] = []
    for intent in read_intents(question):
        for match in intent.when.finditer(said) if intent.occasion else ():
            after = FOR_AFTER.match(said, match.end())
            end = after.end() if after else match.end()
            if (before := FOR_BEFORE.search(said, 0, match.start())) is not None:
                spans.append((before.start(), end))
            elif match.group() in intent.events:
                events.append(event_said(said, match.start(), end))
    for match in holidays().finditer(said):
        after = FOR_AFTER.match(said, match.end())
        end = after.end() if after else match.end()
        if (before := FOR_BEFORE.search(said, 0, match.start())) is not None:
            spans.append((before.start(), end))
        else:
            events.append(event_said(said, match.start(), end))
    if not spans:
        return events[0] if events else None
    # "for a kids birthday party" says two occasions: the words from the first to the last.
    return said[min(start for start, _ in spans) : max(end for _, end in spans)]


def named_intents(names: list[str]) -> list[Intent]:
    """The lexicon's intents by name; names it does not hold are dropped."""
    wanted = set(names)
    return [intent for intent in intents() if intent.name in wanted]


def preferences(intent_names: Sequence[str], question: str = "") -> list[str]:
    """What these intents prefer: "eat less meat" prefers "vegetarian", a pescatarian "no meat";
    not where the question asks for another course ("a dessert to impress" wants no dinner)."""
    said = fold(question)
    return [
        intent.prefers
        for intent in named_intents(list(intent_names))
        if intent.prefers and not (intent.unsearched_beside and intent.unsearched_beside.search(said))
    ]


def preferred_first(found: Sequence[T], preferred: Sequence[str]) -> list[T]:
    """The recipes with every preference first, then those with the earlier ones (a dinner
    that is not mild before a mild sauce), each part in the search's order: a preference
    reorders, it never hides a recipe."""
    return sorted(found, key=lambda item: tuple(not has(item.recipe, p) for p in preferred))


# Preferences read from the ingredient lines, never indexed as facts (searched, "spicy" would
# find every pinch of cayenne).
READ_FROM_INGREDIENTS: dict[str, Callable[[Recipe], bool]] = {"mild": mild, "leftovers": uses_leftovers}


def has(recipe: Recipe, preference: str) -> bool:
    """A flag the recipe has ("vegetarian"), a fact of its data ("quick"), one it lacks ("no
    meat"), no heat in its ingredients ("mild"), or an ingredient already cooked ("leftovers")."""
    if (read := READ_FROM_INGREDIENTS.get(preference)) is not None:
        return read(recipe)
    if preference.startswith("no "):
        return preference.removeprefix("no ") not in facts(recipe)
    if preference in DIET_FLAGS:
        return bool(getattr(recipe, preference))
    return preference in facts(recipe)


def with_intents(text: str, found: list[Intent]) -> str:
    """`text` with the words of each intent added (each word once, none it already holds), and
    without the phrases that say nothing of the dish ("cold day" would find cold soups), even
    where the intent is not meant ("a dinner party dessert" wants no roast, nor a party drink)."""
    said = fold(text)
    for intent in intents():
        if intent.unsearched and (intent in found or intent.when.search(said)):
            text = intent.unsearched.sub(" ", text)
    words = text.split()
    # "dinner?" already says "dinner".
    have = {w.strip(".,;:!?()\"'").lower() for w in words}
    for intent in found:
        if intent.unsearched_beside and intent.unsearched_beside.search(said):
            continue
        for word in intent.search.split():
            if word not in have:
                have.add(word)
                words.append(word)
    return " ".join(words)
