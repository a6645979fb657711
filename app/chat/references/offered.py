"""The recipes a conversation offers, read in what its turns say of them: the dishes an
answer names in passing, and what it says of each dish it lists."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from app.catalog.listed_dishes import BULLET, FILLER, LINE
from app.catalog.names import RecipeNames
from app.catalog.spelling import key, keys_of, words
from app.http.bodies import Message
from app.recipes import Recipe


def in_passing(
    names: RecipeNames, recipes: Mapping[str, Recipe], history: Sequence[Message], found: list[dict[str, int]]
) -> list[dict[str, int]]:
    """Add the dishes an answer names in passing, written loosely ("you could go for
    stoofvlees", "an old-fashioned rice pudding"), unless their words are ingredients of
    the recipes the conversation named ("a shakshuka with eggs in a tomato and pepper
    sauce" offers no Pepper Sauce) or of a title found beside them, or they describe the
    dish a list item opens with ("- Fall vegetable & chickpea curry: … in a Thai red curry
    sauce")."""
    used: set[str] = set()
    widened = []
    for turn, ids in zip(history, found, strict=True):
        ids = dict(ids)
        for i in ids:
            # "make a simple syrup" of a Limoncello: its steps say it too.
            used |= keys_of(tuple(recipes[i].ingredients)) | keys_of(tuple(recipes[i].steps))
        if turn.role == "assistant":
            taken = used | {k for i in ids for k in title_keys(recipes[i])}
            items = lines_opening(BULLET, turn.content)
            described = [(s, e) for s, e in items if any(s <= at < e for at in ids.values())]
            for at, i in names.anywhere(turn.content):
                in_item = any(s <= at < e for s, e in described)
                if i not in ids and i in recipes and not title_keys(recipes[i]) <= taken and not in_item:
                    ids[i] = at
                    # "mazurek … spread with orange jam": the jam is the mazurek's.
                    taken |= keys_of(tuple(recipes[i].ingredients))
        widened.append(ids)
    return widened


def without_parts(
    recipes: Mapping[str, Recipe], history: Sequence[Message], found: list[dict[str, int]]
) -> list[dict[str, int]]:
    """Leave out the one dish a turn names when it is written as an ingredient of another
    dish the conversation names: "then puff pastry brushed with egg" of a Beef Wellington,
    "it's Greek yogurt, red onion and mint" of an Onion Raitha. Written as a title ("the Puff
    Pastry"), or among other dishes ("Gnocchi, Rösti … and Parmesan potatoes"), it stays."""
    named = {i for ids in found for i in ids}
    used = {i: keys_of(tuple(recipes[i].ingredients)) for i in named}
    kept = []
    for turn, ids in zip(history, found, strict=True):
        kept.append(
            {
                i: at
                for i, at in ids.items()
                if _as_title(turn.content, at, recipes[i])
                or not any(
                    _said_keys(turn.content, at, recipes[i]) <= used[o]
                    for o in (named if len(ids) == 1 else ids)
                    if o != i
                )
                # "… a scotch bonnet, ketchup, hoisin and honey": among dishes too, a one-word
                # title in lower case is what the dish beside it cooks with.
                or (len(ids) > 1 and len(title_keys(recipes[i])) > 1)
            }
        )
    return kept


def _said_keys(text: str, at: int, recipe: Recipe) -> set[str]:
    """The words of its title a turn says where it names the recipe: "stir in the red onion"
    says "red onion" of the Pickled Red Onions, which may be another dish's ingredient."""
    title = title_keys(recipe)
    return {key(w) for w in words(text[at:])[: len(words(recipe.title))]} & title or set(title)


def _as_title(text: str, at: int, recipe: Recipe) -> bool:
    said = text[at:].split()[: len(words(recipe.title))]
    return all(w[:1].isupper() for w in said if w.lower() not in FILLER)


TIP = re.compile(r"\W*(?:tip|note|ps|p\.s\.|bonus|pro tip)\b", re.I)
# "1. …", "2) …", and "**Option B — …**", whose letter counts as its number.
NUMBERED = re.compile(r"^\s*(?:\*\*|__|#{1,6}\s*)?(\d+)[.)]\s|^\W*option\s+([a-e]|\d+)\b", re.M | re.I)


# A list's item that has no number: a markdown heading or a line in bold, whose details may
# be bullets; or else a bullet, at the list's own depth.
HEADED = re.compile(r"^[ \t]*(?:#{1,6}\s|\*\*|__)", re.M)
ITEM = re.compile(r"^(?P<indent>[ \t]*)[-*•–—]\s", re.M)


def numbered(text: str, places: Mapping[str, int]) -> dict[int, str]:
    """The recipe each item of a list names, by its number (`places`: where the turn names
    each recipe), "" for an item that names no catalog recipe: "number 4" is the item numbered
    4, and "the second one" of "### Challah … ### Naan Bread" is the Naan, even when an item
    before it names no catalog recipe. Items without numbers count in order."""
    numbers = list(NUMBERED.finditer(text))
    marks: list[tuple[re.Match[str], int]] = []
    for mark in numbers:
        said = mark[1] or mark[2]
        marks.append((mark, int(said) if said.isdigit() else ord(said.lower()) - ord("a") + 1))
    if not marks:
        top = list(HEADED.finditer(text))
        if len(top) < 2:
            bullets = list(ITEM.finditer(text))
            depth = min((len(m["indent"]) for m in bullets), default=0)
            top = [m for m in bullets if len(m["indent"]) == depth]
        marks = [(mark, n) for n, mark in enumerate(top, 1)] if len(top) > 1 else []
    if not marks:
        return {}
    items = {}
    for (mark, number), end in zip(marks, [*(m.start() for m, _ in marks[1:]), len(text)], strict=True):
        inside = [i for i, at in places.items() if mark.start() <= at < end]
        items[number] = min(inside, key=lambda i: places[i]) if inside else ""
    return items


def is_list(text: str) -> bool:
    """Whether a turn lists its dishes as items (numbered, bulleted, headed), not in prose."""
    return bool(numbered(text, {})) or len(lines_opening(BULLET, text)) > 1


def on_the_list(text: str, ids: Sequence[str], places: Mapping[str, int]) -> list[str]:
    """The recipes a turn offers: the items of its list, when two or more of them name one.
    A dish its prose names around the list ("Top it with the easy pizza sauce") is not one
    of the options."""
    items = lines_opening(BULLET, text)
    listed = [i for i in ids if any(start <= places[i] < end for start, end in items)]
    if len(listed) >= 2:
        return listed
    # "Tip: a jar of quick pickled red onions is great on the burgers too" offers no option.
    asides = lines_opening(TIP, text)
    offered = [i for i in ids if not any(start <= places[i] < end for start, end in asides)]
    return offered if len(offered) >= 2 else list(ids)


def lines_opening(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    """Where the lines of `text` that open with `pattern` stand: a list's items (BULLET), its
    tips (TIP)."""
    return [line.span() for line in LINE.finditer(text) if pattern.match(line.group())]


def title_keys(recipe: Recipe) -> set[str]:
    """A title's word keys, without "and", "with" and the like."""
    return {key(w) for w in words(recipe.title)} - FILLER


def said_of(text: str, places: Mapping[str, int]) -> dict[str, str]:
    """What a turn that lists recipes says of each (`places`: where it names each): its
    words up to the next one's."""
    starts = sorted((at, i) for i, at in places.items())
    ends = [start for start, _ in starts[1:]] + [len(text)]
    # Or up to the next list item, when that names no catalog dish: "3. Chicken kaldereta - a
    # rich Filipino stew" says nothing of the item before it.
    items = [start for start, _ in lines_opening(BULLET, text)]
    return {
        i: text[start : min([end, *(s for s in items if start < s)])]
        for (start, i), end in zip(starts, ends, strict=True)
    }
