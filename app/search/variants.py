"""Which recipes a question names to keep to, and which it names as the dish to move away from.

"Considering the Mushroom sauce and the Shakshouka, which is quicker?" keeps to those two.
"Like steak tartare but with fish", "the Greek version of lasagna", "paella but baked in the
oven" ask for another dish than the one they name: it is moved below the others. A reference
dish is often written in lower case, in running words, where the strict reading of names
sees none; so any title said whole after "like" (and its kin) counts.
"""

from __future__ import annotations

import re
from functools import lru_cache

from app.catalog.names import RecipeNames
from app.catalog.spelling import key, words
from app.search.accompaniments import SERVED_WITH

LIKENESS = re.compile(
    r"(?<!\bwould )(?<!\bi'd )(?<!\bi )(?<!\byou'd )"
    # "sounds like a plan": no likeness of a dish.
    r"(?<!\bsounds )(?<!\blooks )(?<!\bfeels )(?<!\bseems )\blike\b"
    # "till like thursday", "in like an hour", "for like 20 min", "home at like 7": a filler, no dish.
    r"(?!\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tonight|today|an hour|half an hour|\d))"
    r"|\bsimilar to\b|\binstead of\b|\brather than\b"
    r"|\balternative to\b|\bversion of\b|\bother than\b",
    re.I,
)
# "The Spanish equivalent of French toast", "a twist on carbonara": also a dish to leave; and
# "a dessert to go with the Lasagna" (app/search/accompaniments.py): another dish, beside it.
VARIANT = re.compile(
    LIKENESS.pattern + rf"|\bequivalent of\b|\b(?:take|twist|spin) on\b|{SERVED_WITH.pattern}", re.I
)
# The dish after such a cue, up to what the question wants changed: "like [a spanish
# omelette] but italian", "the greek version of [lasagna]".
REFERENCE = re.compile(
    rf"\b(?:like|similar to|instead of|rather than|alternative to|version of|other than|equivalent of"
    rf"|(?:take|twist|spin) on|{SERVED_WITH.pattern})\s+(?:an?\s+|the\s+|some\s+|my\s+)?"
    r"(?P<dish>[^\W\d_][\w' -]*?)(?=\s+(?:but|with|from|that|which|for|in|only|except)\b|[,.;:!?]|$)",
    re.I,
)
# An ingredient swapped: "with oil instead of lard".
SWAPPED = re.compile(r"\b(?:instead of|rather than)\b", re.I)
# More of a kind than those named: each recipe named after it is one to move away from.
BESIDES = re.compile(r"\bbesides\b", re.I)
# The words before a title that set it aside: "not the Okroshka", "except the Stoemp".
SET_ASIDE = re.compile(
    r"(?:\w+ )?(?:not|except|besides|minus)|(?:not|except|apart from|besides|minus|no more) the", re.I
)
# The most recipes a question may name and still be kept to: past it, it is a list, not a choice.
MAX_NAMED = 10


@lru_cache(maxsize=4)
def titles_by_first_word(names: RecipeNames) -> dict[str, list[tuple[tuple[str, ...], str]]]:
    """Each title's words, folded as names are (plurals, accents, spellings), with its id, under
    its first word: a question's words look up only the titles that could start there."""
    index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for recipe_id, title in names.titles.items():
        folded = tuple(key(w) for w in words(title))
        if folded:
            index.setdefault(folded[0], []).append((folded, recipe_id))
    for candidates in index.values():
        candidates.sort(key=lambda candidate: -len(candidate[0]))
    return index


def said_whole(question: str, names: RecipeNames) -> list[tuple[str, int]]:
    """(id, index of the word after it) of each catalog title the question says whole; where
    titles overlap, the longer one, as names are read."""
    said = [key(w) for w in words(question)]
    index = titles_by_first_word(names)
    found: list[tuple[str, int]] = []
    start = 0
    while start < len(said):
        match = next(
            (
                (title, recipe_id)
                for title, recipe_id in index.get(said[start], ())
                if tuple(said[start : start + len(title)]) == title
            ),
            None,
        )
        if match is None:
            start += 1
            continue
        found.append((match[1], start + len(match[0])))
        start += len(match[0])
    return found


def references(question: str, names: RecipeNames) -> list[str]:
    """The recipes a "like X" question names as X: the titles said whole in X. Titles that only
    hold X's words stay: "a Chinese version of meatballs" asks for Hakka-style meatballs."""
    found = []
    for match in REFERENCE.finditer(question):
        # A title may hold "with" ("Chicken Satay with Peanut Sauce"), where the dish said ends:
        # a title said whole from where the dish starts, to the end of its clause, is it.
        clause = re.split(r"[,.;:!?]", question[match.start("dish") :], maxsplit=1)[0]
        whole = [i for i, end in said_whole(clause, names) if end == len(words(names.titles[i]))]
        found += whole or [recipe_id for recipe_id, _ in said_whole(match["dish"], names)]
    return list(dict.fromkeys(found))


DESCRIBED_BY = (["that"], ["which"], ["with"], ["without"])


def variants(question: str, names: RecipeNames) -> tuple[list[str], list[str]]:
    """(the recipes to keep to, the recipes to move away from)."""
    if (besides := BESIDES.search(question)) is not None:
        # "What other vegetarian recipes are there besides the A, the B and the C?"
        return [], [recipe_id for recipe_id, _ in said_whole(question[besides.end() :], names)]
    if VARIANT.search(question):
        left = references(question, names)
        if not left and not VARIANT.search(SWAPPED.sub(" ", question)):
            # "Can I make the Torta Frita with oil instead of lard?": an ingredient swapped in
            # the dish named, which is kept to.
            return names.named(question, kinds=True)[:MAX_NAMED], []
        # "Like steak tartare but with fish", "rice pudding like they eat in Scandinavia":
        # another dish than the one named.
        return [], left
    said = words(question)
    # "Paella but baked in the oven", "Shakshouka, but vegan".
    mentioned = said_whole(question, names)
    left = [recipe_id for recipe_id, after in mentioned if said[after : after + 1] == ["but"]]
    described = []
    for recipe_id, after in mentioned:
        start = after - len(words(names.titles[recipe_id]))
        # "anything soupy that's actually hot? not the Russian Okroshka lol": set aside.
        if SET_ASIDE.fullmatch(" ".join(said[max(0, start - 2) : start])):
            left.append(recipe_id)
        # "a pizza dough that rises overnight with no kneading": a kind of dish, described; not
        # the Pizza Dough of the catalog.
        if said[start - 1 : start] in (["a"], ["an"], ["any"]) and said[after : after + 1] in DESCRIBED_BY:
            described.append(recipe_id)
    kept = [i for i in names.named(question, kinds=True) if i not in left and i not in described]
    return kept[:MAX_NAMED], list(dict.fromkeys(left))


def without_besides(searched: str) -> str:
    """The search text of "What other vegetarian recipes are there besides the A, the B and
    the C?": what is asked for, not the titles set aside, whose words would bring their kin
    back. The titles run to the end of the sentence."""
    besides = BESIDES.search(searched)
    if besides is None:
        return searched
    end = re.search(r"[.?!]", searched[besides.end() :])
    after = searched[besides.end() + end.start() :] if end else ""
    return " ".join(f"{searched[: besides.start()]} {after}".split())
