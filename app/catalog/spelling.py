"""Names folded as people write them: case, accents, doubled letters, a few spelling variants,
one slip in a longer word, and the short names a title goes by."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from app.search.text import SAME_FOOD, fold

# Spelling variants folded away, so that "stroganov" meets "stroganoff" and "shakshuka"
# meets "shakshouka". Applied in order, after accents are gone.
VARIANTS = (("ph", "f"), ("v", "f"), ("k", "c"), ("z", "s"), ("y", "i"), ("ou", "u"), ("ae", "a"))
# One slip (a letter missing, extra or swapped for another) is allowed in a word this long.
FUZZY_LENGTH = 6
# A title's word this long may be its name alone ("Goulash", but not "Pie" of "Cottage Pie").
NICKNAME_LENGTH = 5
# A word that this many other recipes cook with is food, not a name.
EVERYDAY_IN = 2
WORD = re.compile(r"[a-z0-9]+")
# A word as written, its apostrophe kept inside it: "Shepherd's" is one word, as "shepherds" is.
TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
APOSTROPHE = re.compile(r"(?<=[a-z0-9])'(?=[a-z0-9])")
DOUBLED = re.compile(r"(.)\1+")
# Every turn of a conversation is read for names again at each request, and its answer by the
# guard: the same words and texts come back, and folding them was a good part of a request's
# CPU. Bounded caches, since texts come from clients.
WORDS_KEPT = 4096
KEYS_KEPT = 65536


def words(text: str) -> list[str]:
    return list(_words(text))


@lru_cache(maxsize=WORDS_KEPT)
def _words(text: str) -> tuple[str, ...]:
    return tuple(WORD.findall(APOSTROPHE.sub("", fold(text))))


@lru_cache(maxsize=KEYS_KEPT)
def key(word: str) -> str:
    """A word's spelling key: the same food's other name, variants folded, doubled letters
    single, a plural's s dropped."""
    word = SAME_FOOD.get(word, word)
    for old, new in VARIANTS:
        word = word.replace(old, new)
    # The plural first: "eggs" is "egg" before its doubled letter goes, "glass" no plural.
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return DOUBLED.sub(lambda doubled: doubled[1], word)


@lru_cache(maxsize=WORDS_KEPT)
def keys_of(lines: tuple[str, ...]) -> frozenset[str]:
    """The word keys of some lines (a recipe's ingredients), read once for each recipe."""
    return frozenset(key(w) for line in lines for w in words(line))


def one_slip(a: str, b: str) -> bool:
    """Whether `a` becomes `b` by one letter added, dropped or changed."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def aliases(title: str) -> list[list[str]]:
    """The word sequences that name a recipe: the title, the title without its parenthesis
    or after its dash, and a parenthesis or second half of two words or more
    ("Drunken beans (Pintos Borrachos)", "Glühwein - mulled wine")."""
    return [list(alias) for alias in _aliases(title)]


PLAIN = re.compile(r"^(?:basic|classic|easy|perfect|quick|simple)\s+|\s+recipe$", re.I)


@lru_cache(maxsize=WORDS_KEPT)
def _aliases(title: str) -> tuple[tuple[str, ...], ...]:
    # A follow-up reads the aliases of the conversation's recipes again at each turn.
    forms = [title, re.sub(r"\s*\([^)]*\)", "", title)]
    forms += re.findall(r"\(([^)]*)\)", title)
    forms += [part for part in re.split(r"\s+[-–:]\s+", forms[1]) if part]
    # A title's head before a comma: "Schinkenfleckerl überbacken, Viennese Mac'n'Cheese".
    forms += [forms[1].split(",")[0]] if "," in forms[1] else []
    # A French title's head before "au": "grands-pères" of "Grands-pères au sirop d'érable".
    head = re.split(r"\s+aux?\s+", forms[1], maxsplit=1, flags=re.I)[0]
    forms += [head] if head != forms[1] else []
    # Without a word of praise or "Recipe": "Sweet potato fries" of "Basic Sweet Potato Fries Recipe".
    forms += [bare for bare in [PLAIN.sub("", forms[1])] if bare != forms[1]]
    # "w/" is "with": "Tanzanian tea with milk" of "Tanzanian Tea w/ Milk".
    forms += [re.sub(r"\bw/\s*", "with ", f, flags=re.I) for f in forms if re.search(r"\bw/", f, re.I)]
    # "&" and "and" are written either way: "Chorizo and Chickpea Soup", "chicken, tomato & spinach curry".
    forms += [re.sub(r"\s*&\s*", " and ", f) for f in forms if "&" in f]
    forms += [re.sub(r"\band\b", " ", f, flags=re.I) for f in forms if re.search(r"\band\b", f, re.I)]
    # "hoisin tofu with broccoli" of "Hoisin Tofu and Broccoli".
    forms += [re.sub(r"\band\b", "with", f, flags=re.I) for f in forms[1:2] if re.search(r"\band\b", f, re.I)]
    found: list[tuple[str, ...]] = []
    for index, form in enumerate(forms):
        keys = tuple(key(w) for w in words(form))
        if keys and keys not in found and (index < 2 or len(keys) >= 2):
            found.append(keys)
    return tuple(found)


def joined(title: str) -> list[tuple[str, ...]]:
    """The title with two of its words written as one: "Tahini shortbread" of "Tahini short
    bread". A whole name only, never a list's loose reading: each is one word less."""
    bare = words(re.sub(r"\s*\([^)]*\)", "", title))
    found = []
    for n in range(len(bare) - 1):
        if len(bare[n]) >= 3 and len(bare[n + 1]) >= 3 and len(bare) > 2:
            found.append((*map(key, bare[:n]), key(bare[n] + bare[n + 1]), *map(key, bare[n + 2 :])))
    return found


def alias_index(titles: Mapping[str, str]) -> dict[tuple[str, ...], str]:
    """Every alias of every title (a tuple of word keys) → its recipe id; the first id, in id
    order, wins for twin titles. Then the shortened names a title goes by in chat, where
    only one title can be meant: `shortened`."""
    index: dict[tuple[str, ...], str] = {}
    for recipe_id, title in sorted(titles.items()):
        for alias in aliases(title):
            index.setdefault(tuple(alias), recipe_id)
    owners = title_owners(titles)
    short: dict[tuple[str, ...], set[str]] = {}
    for recipe_id, title in titles.items():
        own = {key(w) for w in words(title) if owners[key(w)] == {recipe_id}}
        for cut in shortened(title, own):
            short.setdefault(cut, set()).add(recipe_id)
    for cut, ids in short.items():
        if len(ids) == 1 and cut not in index:
            index[cut] = ids.pop()
    return index


def title_owners(titles: Mapping[str, str]) -> dict[str, set[str]]:
    """Each word key of the titles → the recipes whose titles hold it."""
    owners: dict[str, set[str]] = {}
    for recipe_id, title in titles.items():
        for word in words(title):
            owners.setdefault(key(word), set()).add(recipe_id)
    return owners


def everyday(held: Mapping[str, set[str]], word_key: str, ids: set[str]) -> bool:
    """Whether a word is one of cooking's everyday words rather than these recipes' name:
    other recipes' ingredients or steps hold it (`held`: word key → the recipes that do).
    "pastry", "breast", "skillet" are; "goulash", "carnitas", "Wellington" are not."""
    return len(held.get(word_key, set()) - ids) >= EVERYDAY_IN


def nicknames(titles: Mapping[str, str], held: Mapping[str, set[str]]) -> dict[tuple[str, ...], str]:
    """The one-word names chat gives dishes: the last word of a title ("Wellington",
    "the carnitas" of "Slow-cooked Pork Carnitas", "Vareniki" of "Ukrainian Vareniki") or
    a title's part of one word ("Glühwein" of "Glühwein - mulled wine"). Only a word that
    no other title has, no `everyday` one, and long enough not to be a common word."""
    owners = title_owners(titles)
    found: dict[tuple[str, ...], str] = {}
    for recipe_id, title in titles.items():
        bare = re.sub(r"\s*\([^)]*\)", "", title)
        head = words(re.split(r"\s+with\s+", bare, maxsplit=1, flags=re.I)[0])
        candidates = head[-1:] if len(head) > 1 else []
        candidates += [part[0] for part in map(words, re.split(r"\s+[-–:]\s+|,", bare)) if len(part) == 1]
        for word in candidates:
            k = key(word)
            own = owners.get(k) == {recipe_id}
            if (
                own
                and len(word.lower().removesuffix("s")) >= NICKNAME_LENGTH
                and not everyday(held, k, {recipe_id})
            ):
                found.setdefault((k,), recipe_id)
    return found


def shortened(title: str, own: set[str]) -> list[tuple[str, ...]]:
    """How chat shortens a title: its head before "with" ("Chicken Satay" of "Chicken Satay
    with Peanut Sauce"), or the title without a first word that other titles share, when the
    rest is its own ("aglio e olio" of "Spaghetti aglio e olio"; "noodle soup" is anybody's).
    `own`: the word keys that belong to this title alone."""
    bare = re.sub(r"\s*\([^)]*\)", "", title)
    keys = [key(w) for w in words(bare)]
    found: list[tuple[str, ...]] = []
    head = [key(w) for w in words(re.split(r"\s+with\s+", bare, maxsplit=1, flags=re.I)[0])]
    if 2 <= len(head) < len(keys) and own & set(head):
        found.append(tuple(head))
    rest = keys[1:]
    if len(rest) >= 2 and keys[0] not in own and all(k in own for k in rest if len(k) > 2):
        found.append(tuple(rest))
    return found
