"""Facts about a recipe computed from its own fields, as the words a cook searches by.

A question says "a main course", "something baked", "a big batch", "seafood"; a recipe says
"Preheat the oven", "Serves 10", "500 g cod". These facts close that gap from the recipe's
own data at index time (its tags, title, times, servings, ingredients and steps), never from
a label written for one recipe, so that a recipe added tomorrow gets them too. They are
indexed beside the tags (keyword side), added to the embedded text (vector side), seen by
exclusions ("savoury pie, not a dessert", "seafood that isn't fish"), and give each recipe
its course, by which a question that only sets filters is ranked.

Both back ends index `facts` as a field of their own and embed `embedded_text`;
DOCUMENT_VERSION says what they hold, so that an index built from older documents is rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from pathlib import Path

from app.recipes import Recipe

# Change when what `facts` or `embedded_text` produce changes: the embedded index, which
# records it, is rebuilt on the next start, and every recipe's document hash changes, so the
# next indexing run writes each one again on Azure AI Search too.
DOCUMENT_VERSION = "7"

LEXICON = json.loads(Path(__file__).with_name("recipe_facts.json").read_text(encoding="utf-8"))
# The course, from the words that say one (recipe_facts.json). The title's head word says it
# first ("Bolognese Sauce", but not "Chicken Satay with Peanut Sauce"); then a tag naming a
# main ingredient makes a main ("sauce" is also a tag of meatballs in tomato sauce); then the
# other tags, in the lexicon's order (pancakes tagged "sweet" are breakfast).
COURSES: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (entry["course"], frozenset(entry["words"])) for entry in LEXICON["courses"]
)
MAIN_TAGS = frozenset(LEXICON["main_tags"])
# A recipe none of whose words says a course is a main only if it is made of what mains are:
# "Cream Cheese" and "Limoncello" say no course and are none.
MAIN_WORDS = MAIN_TAGS | frozenset(LEXICON["main_words"])
HEAD = re.compile(r"\s+(?:with|in|on|and|or)\s+|\s*[(,:]|\s+[-–]\s+", re.I)
MAIN = "main course"

# What a course adds to the searched words: how people ask for it.
COURSE_WORDS = {
    "drink": "drink",
    "dessert": "dessert sweet",
    "condiment": "condiment sauce",
    "breakfast": "breakfast",
    "side dish": "side dish",
    "snack": "snack",
    MAIN: "main course dinner",
}

# Ingredient words that make a recipe meat, fish or seafood: searched as those words, and
# excluded by them ("seafood that isn't fish" leaves out the cod).
FISH = frozenset(LEXICON["fish"])
SHELLFISH = frozenset(LEXICON["shellfish"])
MEAT = frozenset(LEXICON["meat"])
# Cookies are baked though their steps may only say "cook for 10 minutes".
BAKED_WORDS = frozenset(LEXICON["baked_words"])
CUISINES = frozenset(LEXICON["cuisines"])
# Drinks and dishes with these hold alcohol ("a drink that's not alcoholic"); wine vinegar
# does not.
ALCOHOL = re.compile(r"\b(" + "|".join(LEXICON["alcohol"]) + r")\b(?!\s+vinegar)", re.I)
# Ingredients that bring heat: no recipe rates its own, so "not too spicy" is read from these.
HOT = re.compile(r"\b(?:" + "|".join(word.replace("chili", "chil+i") for word in LEXICON["hot"]) + ")", re.I)

HEAT = re.compile(
    r"\b(bake|baked|baking|oven|boil|boiling|fry|fried|frying|simmer|roast|grill|broil|saut[eé]"
    r"|heat|toast|microwave|cook|cooked|cooking|steam|poach|sear|brown|melt|stew)\w*",
    re.I,
)
# "baking powder", "a baking tray" of cream under a tiramisù, a Dutch oven (a pot): no oven.
OVEN = re.compile(
    r"\b((?<!dutch )oven|bake[sd]?|baking(?!\s+(?:powder|soda|tray|dish|sheet|pan|paper|tin)))\b", re.I
)
# Not "a frying pan" alone: the pork belly browned in one, lid on, is no fried dish.
FRIED = re.compile(r"\b(deep[- ]fry|deep[- ]fried|fry|fried|frying(?! pan))\b", re.I)
CHILLED = re.compile(r"\b(chill|chilled|refrigerat\w*|fridge|freez\w*|serve cold|served cold)\b", re.I)
SLOW_COOKER = re.compile(r"\b(slow[- ]?cooker|crock[- ]?pot)\b", re.I)
ONE_POT = re.compile(r"\b(one[- ]pot|same pot|one pan|same pan|slow cooker|crock ?pot)\b", re.I)

COOKED_ALREADY = re.compile(r"\b(?:cooked|leftover|left-over|day-old|stale)\b", re.I)

QUICK_MINUTES = 30
SLOW_MINUTES = 180
BIG_BATCH_SERVINGS = 8


def course(recipe: Recipe) -> str | None:
    """The recipe's course, from its title's head word, else its tags; a main if it is made
    of what mains are (meat, fish, pasta, a stew…); None when nothing says."""
    head = re.findall(r"[a-z]+", HEAD.split(recipe.title.lower(), maxsplit=1)[0])[-1:]
    tags = {t.lower() for t in recipe.tags}
    for words in (set(head), set() if tags & MAIN_TAGS else tags):
        for name, says in COURSES:
            if words & says:
                return name
    said = tags | set(re.findall(r"[a-z]+", recipe.title.lower()))
    if said & MAIN_WORDS or {"meat", "seafood"} & set(_families(" ".join(recipe.ingredients).lower())):
        return MAIN
    return None


def _families(ingredients: str) -> list[str]:
    said = set(re.findall(r"[a-z]+", ingredients))
    found = []
    fish = bool(said & FISH)
    shellfish = bool(said & SHELLFISH)
    if fish:
        found.append("fish")
    if fish or shellfish:
        found.append("seafood")
    if said & MEAT:
        found.append("meat")
    if ALCOHOL.search(ingredients):
        found += ["alcohol", "alcoholic", "boozy", "booze"]
    return found


@lru_cache(maxsize=16384)
def _facts(recipe_json: str) -> tuple[str, ...]:
    recipe = Recipe.model_validate_json(recipe_json)
    steps = " ".join(recipe.steps)
    served = course(recipe)
    words = COURSE_WORDS[served].split() if served else []
    minutes = recipe.total_minutes
    if minutes is not None and minutes <= QUICK_MINUTES:
        words.append("quick")
    if minutes is not None and minutes >= SLOW_MINUTES:
        words.append("slow-cooked")
    if recipe.cook_minutes == 0 or not HEAT.search(steps):
        words += ["no-cook", "cold"]
    elif CHILLED.search(steps):
        words.append("chilled")
    title_words = set(re.findall(r"[a-z]+", recipe.title.lower()))
    if OVEN.search(steps) or title_words & BAKED_WORDS:
        words += ["baked", "oven"]  # "oven": what "no oven" leaves out
    if SLOW_COOKER.search(steps):
        words.append("slow-cooker")
    if FRIED.search(steps):
        words.append("fried")
    if ONE_POT.search(steps + " " + recipe.description):
        words.append("one-pot")
    if (servings := recipe.servings_count) is not None and servings >= BIG_BATCH_SERVINGS:
        words += ["big", "batch"]
    words += _families(" ".join(recipe.ingredients).lower())
    return tuple(dict.fromkeys(words))


def facts(recipe: Recipe) -> list[str]:
    """The recipe's facts as words, each once: its course, then what its data says."""
    return list(_facts(recipe.model_dump_json()))


def mild(recipe: Recipe) -> bool:
    """Whether no ingredient brings heat ("not too spicy" puts these first). Not a fact that
    is indexed: searched, "spicy" would find every dish with a pinch of cayenne."""
    return not HOT.search(" ".join(recipe.ingredients))


def uses_leftovers(recipe: Recipe) -> bool:
    """Whether an ingredient is already cooked ("2 cups chicken, cooked and chopped", "day-old
    rice"): what "leftover chicken" is for. Not indexed, as `mild`."""
    return any(COOKED_ALREADY.search(line) for line in recipe.ingredients)


def embedded_text(recipe: Recipe) -> str:
    """The text a recipe's vector is made from: what a cook would search by, and its facts."""
    return recipe.search_text() + "\n" + " ".join(facts(recipe))


def document_hash(recipe: Recipe) -> str:
    """The recipe's content hash and the document version: what indexing compares to skip a
    recipe whose indexed document would be the same."""
    return hashlib.sha256(f"{recipe.content_hash()} {DOCUMENT_VERSION}".encode()).hexdigest()
