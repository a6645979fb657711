"""Which recipes of a set a description ("the noodle one", "the quicker one") picks out."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet

from app.catalog.spelling import key, keys_of, words
from app.chat.references.vocabulary import FAMILIES, MEATY, QUICK, SLOW
from app.recipes import Recipe
from app.search.recipe_facts import facts

MEATLESS = frozenset({"meatless", "meat free", "veggie", "no meat", "without meat"})
# The facts (app/search/recipe_facts.py) a description may pick by; not "oven": "does either go
# in the oven" picks none.
HOW_MADE = frozenset({"baked", "fried", "chilled", "alcoholic", "alcohol", "boozy", "booze"})


def matches(description: str, recipe: Recipe) -> int:
    """How well `description` ("noodle", "french", "vegan", "meaty") fits `recipe`: 3 by its
    title, 2 by its tags or diet, 1 by its ingredients, 0 not at all."""
    said_words = [w for w in words(description) if w not in ("the", "one", "ones", "a", "with")]
    wanted = [key(w) for w in said_words]
    if not wanted:
        return 0
    title = {key(t) for t in words(recipe.title)}
    # A title word or its start: "the züri one" of the Zurich-Style Meat Saute, "the choc one";
    # or the food of an adjective: "the soupy one".
    if all(
        w in title or (len(w) >= 4 and any(t.startswith(w) for t in title)) or set(foods(s)[1:]) & title
        for w, s in zip(wanted, said_words, strict=True)
    ):
        return 3
    # The end of a title's word: "the shake" of the Milkshake, below a whole word ("the bread" is
    # the Banana Bread before the Shortbread).
    if all(w in title or (len(w) >= 4 and any(t.endswith(w) for t in title)) for w in wanted):
        return 2
    tags = {key(t) for tag in recipe.tags for t in words(tag)}
    diets = {key(w) for label in recipe.diet_labels for w in words(label.replace("-", " "))}
    # And how its data says it is made: "the baked one", "the fried one", "no booze".
    tags |= {key(fact) for fact in facts(recipe) if fact in HOW_MADE}
    if all(
        w in tags or w in diets or set(foods(s)[1:]) & tags for w, s in zip(wanted, said_words, strict=True)
    ):
        return 2
    said = " ".join(words(description))
    if said in MEATLESS:
        return 2 if recipe.vegetarian else 0
    if set(said.split()) & MEATY or said in ("non vegetarian", "not vegetarian"):
        return 2 if not recipe.vegetarian else 0
    ingredients = keys_of(tuple(recipe.ingredients))
    # "pork" is also the bacon, ham or guanciale of an ingredient list.
    return 1 if all(any(holds(v, ingredients) for v in foods(w)) for w in said_words) else 0


def holds(food: str, ingredients: AbstractSet[str]) -> bool:
    return food in ingredients or bool(FAMILIES.get(food, set()) & ingredients)


def foods(word: str) -> list[str]:
    """A word's key and, when it is the adjective of a food ("peanutty", "cheesy", "lemony",
    "fishy"), the food's."""
    if len(word) <= 4 or not word.endswith("y"):
        return [key(word)]
    return [key(word), key(word[:-1]), key(word[:-1] + "e")]


def by_time(description: str, recipes: Sequence[Recipe]) -> list[Recipe] | None:
    """ "the quicker one" / "the longer one": the recipe with the least or most time given."""
    said = set(words(description))
    timed = [r for r in recipes if r.total_minutes is not None]
    # "the one u said takes the least time", "takes the most time".
    least = re.search(r"\b(?:least|less) time\b", description, re.I)
    most = re.search(r"\bmost time\b", description, re.I)
    if not timed or not (said & (QUICK | SLOW) or least or most):
        return None
    pick = min if said & QUICK or least else max
    return [pick(timed, key=lambda r: r.total_minutes or 0)]


# "the 8 hour one", "the 20-minute one", "the 2h one".
DURATION = re.compile(r"(?P<amount>\d+(?:\.\d+)?)\s*-?\s*(?P<unit>hours?|hrs?|h|minutes?|mins?|m)\b", re.I)


def by_duration(description: str, recipes: Sequence[Recipe]) -> list[Recipe] | None:
    """ "the 8 hour one": the recipe whose time is nearest, if one is within half or double."""
    said = DURATION.search(description)
    if said is None:
        return None
    minutes = float(said["amount"]) * (60 if said["unit"].lower().startswith("h") else 1)
    timed = [r for r in recipes if r.total_minutes]
    near = [r for r in timed if minutes / 2 <= (r.total_minutes or 0) <= minutes * 2]
    if not near:
        return None
    return [min(near, key=lambda r: abs(math.log((r.total_minutes or 1) / minutes)))]


def described(
    description: str, recipes: Sequence[Recipe], said: Mapping[str, str] | None = None
) -> list[Recipe]:
    """The recipes of the set that `description` picks out, best fit only: by the catalog's
    data, or else by the words the assistant said of each (`said`, by id): "the sandwich
    one" after "the francesinha, that massive sandwich with …"."""
    if (timed := by_time(description, recipes) or by_duration(description, recipes)) is not None:
        return timed
    scores = [(matches(description, r), r) for r in recipes]
    best = max((s for s, _ in scores), default=0)
    picked = [r for s, r in scores if s == best and best > 0]
    if said and (not picked or len(picked) == len(recipes)):
        wanted = {key(w) for w in words(description)} - {key(w) for w in ("the", "one", "ones", "a", "with")}
        told = [r for r in recipes if wanted and wanted <= {key(w) for w in words(said.get(r.id, ""))}]
        picked = told if 0 < len(told) < len(recipes) else picked
    return picked


# Words of a relative clause that tell no recipe apart, whatever the data holds.
CLAUSE_FILLER = frozenset(
    {"the", "one", "that", "which", "you", "can", "has", "have", "had", "need", "needs", "just", "done"}
    | {"made", "any", "some", "with", "and", "for", "was", "are", "goes", "go", "eat", "make", "cook", "use"}
    | {"takes", "take", "said", "mentioned", "sit", "around", "into", "onto", "from", "all", "really"}
    # "the one where you said you can add limoncello": nearly every recipe adds or puts something.
    | {"add", "added", "adding", "put", "could"}
)
NEGATION = frozenset({"doesnt", "dont", "not", "never", "no", "without", "isnt", "doesn", "don", "isn", "wo"})
HOURS = re.compile(r"(?P<count>\d+)\s*(?:hours?|hrs?|h)\b", re.I)


def told_apart(
    clause: str,
    recipes: Sequence[Recipe],
    said: Mapping[str, str] | None = None,
    *,
    negations: bool = True,
    closely: bool = False,
) -> list[Recipe]:
    """The recipes of the set that a relative clause picks out: "(the one) that's just done in
    a frying pan", "you eat cold", "that doesn't need any eggs", "that has to sit for 12 hours".
    Each word that some of the recipes have and some don't (by their data, or by what the
    assistant said of each) keeps those that have it, or after a negation those that don't;
    a number of hours keeps the recipes whose steps or description say it. Words no recipe
    has say nothing, so all of them are kept if none tells them apart. Without `negations`,
    "no" and "don't" are read past: "i dont have a smoker" is about the one with a smoker.
    `closely` reads only titles, tags, diets and what the assistant said, not every ingredient
    and step: for words that may not be about a dish at all."""
    said = said or {}
    kept = list(recipes)
    for hours in HOURS.finditer(clause):
        told = re.compile(rf"\b{hours['count']}\s*(?:-\s*\d+\s*)?(?:hours?|hrs?|h)\b", re.I)
        having = [r for r in recipes if told.search(" ".join([*r.steps, said.get(r.id, "")]))]
        if 0 < len(having) < len(recipes):
            kept = [r for r in kept if r in having]
    negated = False
    for word in words(HOURS.sub(" ", clause)):
        if word in NEGATION:
            negated = negations
            continue
        if len(word) < 3 or word in CLAUSE_FILLER:
            continue
        # What the assistant said of a dish may itself be negated ("no baking at all"): a
        # negated word is read from the data only.
        told_of = set() if negated else {i for i, text in said.items() if key(word) in keys_of((text,))}
        having = [r for r in recipes if matches(word, r) > closely or r.id in told_of]
        if not closely and not 0 < len(having) < len(recipes):
            # How it is made: "done in a pressure cooker", "on the grill".
            having = [r for r in recipes if key(word) in keys_of(tuple(r.steps))]
        if 0 < len(having) < len(recipes):
            kept = [r for r in kept if (r in having) != negated]
    return kept
