"""How the recipes' own data is written out in an answer: a recipe cited by its id, its
facts in one clause, its key ingredients, the ingredient lines that hold a word, and which of
the retrieved recipes a question names."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from app.catalog.listed_dishes import FILLER
from app.catalog.spelling import key
from app.chat.answer_cues import AMOUNT, CATEGORIES, FALSE_FRIENDS
from app.recipes import Recipe
from app.search.text import stem


@dataclass(frozen=True)
class Composed:
    """A data answer, and which kind of question it answered (`list` when none in particular)."""

    text: str
    kind: str


def cite(recipe: Recipe) -> str:
    return f"{recipe.title} [{recipe.id}]"


def minutes(value: int) -> str:
    if value >= 120 and value % 60 == 0:
        return f"{value // 60} hours"
    return f"{value} min"


def key_ingredients(recipe: Recipe, most: int = 4) -> list[str]:
    """The first few ingredients without their amounts: what the dish is made of."""
    return list(_key_ingredients(tuple(recipe.ingredients), most))


# The same recipes come back request after request (the prompt lists them, the answer guard
# reads all their ingredients); reading the lines is a few regular expressions each.
@lru_cache(maxsize=4096)
def _key_ingredients(lines: tuple[str, ...], most: int) -> tuple[str, ...]:
    names: list[str] = []
    for line in lines:
        name = AMOUNT.sub("", line.split(",")[0].split(". ")[0]).strip(" .;:-")
        name = re.sub(r"\s*\([^)]*\)?", "", name).strip()
        if name and len(name) <= 40 and name.lower() not in (n.lower() for n in names):
            names.append(name)
        if len(names) == most:
            break
    return tuple(names)


def facts(recipe: Recipe) -> str:
    """A recipe's checkable facts in one short clause: its time, servings and diets."""
    parts = []
    if recipe.total_minutes is not None:
        parts.append(f"{minutes(recipe.total_minutes)} in all")
    if (count := recipe.servings_count) is not None:
        parts.append(f"serves {recipe.servings if recipe.servings and len(recipe.servings) <= 8 else count}")
    parts.extend(recipe.diet_labels)
    return ", ".join(parts)


def describe(recipe: Recipe) -> str:
    about = facts(recipe)
    ingredients = key_ingredients(recipe)
    text = cite(recipe) + (f" ({about})" if about else "")
    return text + (f": {', '.join(ingredients)}" if ingredients else "")


def contains(recipe: Recipe, word: str) -> list[str]:
    """The ingredient lines that hold `word` or, for a category such as cheese, one of its kinds."""
    folded = stem(word.lower())
    terms = CATEGORIES.get(folded, (folded,))
    friends = FALSE_FRIENDS.get(folded)
    lines = [
        (line, friends.sub(" ", line.lower()) if friends else line.lower()) for line in recipe.ingredients
    ]
    return [line for line, read in lines if any(t in read for t in terms)]


def named_in(question: str, recipes: Sequence[Recipe]) -> list[Recipe]:
    """The retrieved recipes the question names by title (or by the title's distinctive words)."""
    lowered = question.lower()
    # Longest titles first, each where no longer one stands: "the Rice Pudding" is no "Rice".
    taken: list[tuple[int, int]] = []
    exact: list[Recipe] = []
    for recipe in sorted(recipes, key=lambda r: -len(r.title)):
        title = re.escape(recipe.title.lower())
        for match in re.finditer(rf"(?<!\w){title}(?!\w)", lowered):
            if not any(start < match.end() and match.start() < end for start, end in taken):
                taken.append(match.span())
                exact.append(recipe)
                break
    if exact:
        return [r for r in recipes if r in exact]
    # By spelling key: "shakshuka" is the Shakshouka, "stroganof" the Stroganov.
    words = {key(w) for w in re.findall(r"[a-z]+", lowered)}
    scored = []
    for recipe in recipes:
        # Every word but the filler: "too many apples" names no Apple Pie.
        title_words = {
            key(w) for w in re.findall(r"[a-z]+", recipe.title.lower()) if len(w) > 2 and w not in FILLER
        }
        if title_words and title_words <= words:
            scored.append(recipe)
    return scored[:1]


def own_words(question: str, recipes: Sequence[Recipe]) -> str:
    """The question with the titles of `recipes` blanked, letter for letter (positions hold):
    the words a question asks with. "Which is the least spicy, the Spicy Kung Pao-Style Chicken
    or …?" asks about heat where it says so, and "is the Vegan Chili gluten-free?" asks about
    gluten, not about being vegan."""
    for recipe in recipes:
        title = re.escape(recipe.title)
        question = re.sub(rf"(?<!\w){title}(?!\w)", lambda m: " " * len(m.group()), question, flags=re.I)
    return question


def asked_of(cue: re.Pattern[str], question: str, recipes: Sequence[Recipe]) -> list[Recipe]:
    """The retrieved recipes a question of this kind names ("how long does X take?"); none
    when it is not of this kind or names none."""
    return named_in(question, recipes) if cue.search(own_words(question, recipes)) else []


def join(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def clause_before(question: str, at: int) -> str:
    """The words of the question's clause before `at`: "which of them" in "Considering the A
    and the B, which of them has nuts?"; a question asked of recipes opens so."""
    return re.split(r"[,.;:!?]", question.lower()[:at])[-1].strip()
