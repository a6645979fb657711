"""Which catalog recipes a text names, matched as people write them.

"the Stroganov", "shakshuka", "the Spanish tortilla", "Egg Roll in a Bowl", "the carbonara"
all name a catalog recipe. Titles are compared word by word on a folded key (case, accents,
doubled letters, a few spelling variants), allowing one slip in a longer word, so that a
misspelt or pluralised title still matches. What a text names is what the rewrite grounds
in, what retrieval keeps to, and what an answer may not invent."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from app.catalog.listed_dishes import ASIDE, BOLD, BULLET, FILLER, ListedDishes
from app.catalog.spelling import (
    FUZZY_LENGTH,
    KEYS_KEPT,
    TOKEN,
    WORD,
    alias_index,
    aliases,
    deletions,
    everyday,
    joined,
    key,
    nicknames,
    one_slip,
    words,
)
from app.recipes import Recipe
from app.search.text import fold

SENTENCE_START = re.compile(r"(?:^|[.!?\n])\s*$")
# Words after which a lower-case title of two words is still a name: "the potato soup".
LEADS = frozenset(
    {"the", "try", "or", "a", "an", "make", "cook", "about", "some", "is", "called", "like", "want"}
    | {"thinking", "making", "doing", "do", "fancy", "love"}
)


# What separates the words before a name from it: a list's comma or bullet, a dash between
# spaces, a parenthesis ("Uzbek plov (pilaf)"); not the hyphen inside "mayo-ketchup-relish".
SEPARATOR = re.compile(r"[,:;\n•*(]|(?<!\S)[-–—]")
# A parenthesis opened just before a name, by at most two words: "(the Portuguese tarte …".
ASIDE_OPENED = re.compile(r"\((?:[\w'-]+\s+){0,2}$")
# In a list item, what opens the description after the dish: "- Goulash: …", "- Tzatziki - …".
# Where a list written on one line opens its next item: ". 2. ".
INLINE_ITEM = re.compile(r"(?<=[.!?;])\s+(?=\d{1,2}[.)]\s)")
DESCRIBING = re.compile(r":|\s[-–—]\s|\s[-–—]$")

# Words after which a food is an ingredient of the dish before: "tomato and pepper sauce".
# Not "with": "keep it simple with spatchcock chicken" offers a dish, and the resolver drops
# a dish that is an ingredient of those named ("chimichangas filled with taco meat").
JOINING = frozenset({"and", "of", "in", "on", "into", "plus"})
COMPARING = frozenset({"like", "similar", "than", "unlike", "resembles"})
# Words that may follow a dish's name, where a noun would make it an ingredient's ("paella pan").
PHRASE_ENDS = FILLER | {"is", "was", "for", "that", "which", "recipe", "tonight", "today", "please", "pls"}
PHRASE_ENDS |= {"at", "from", "without", "like", "so", "to", "on"}
# What ends a phrase after a word: "flammkuchen, the Alsatian one"; not "mayo-ketchup-relish".
SET_APART = re.compile(r"[,.;:!?()]|\s[-–—]")
# "how do i make sauerkraut at home": a one-word title made is the dish.
MAKING = frozenset({"make", "making", "made", "cook", "cooking", "bake", "baking"})
# "whats okonomiyaki exactly": a one-word title asked about is the dish.
ASKING = ("what is", "whats", "what's", "what s")

TURNS_KEPT = 4096
K = TypeVar("K")
V = TypeVar("V")
# An amount just before a word: "2 whole ", "1/2 cup ".
AMOUNT_BEFORE = re.compile(r"\d[\d/.,]*\s*(?:[a-z]+\s+){0,2}$", re.I)
POINTERS = frozenset({key("one"), key("ones"), key("other"), key("others")})
# Words for any dish: "the recipes" is no "Basic Sweet Potato Fries Recipe".
ANY_DISH = POINTERS | {
    key(w) for w in ("recipe", "recipes", "dish", "dishes", "meal", "meals", "food", "idea")
}


class _Context:
    """The words around a text, read only if a short name needs them to be settled."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._keys: set[str] | None = None
        self.used = False

    @property
    def keys(self) -> set[str]:
        self.used = True
        if self._keys is None:
            self._keys = {key(w) for w in words(self._text)}
        return self._keys


@dataclass(frozen=True)
class Mention:
    """A recipe named in a text, at word positions [start, end)."""

    id: str
    start: int
    end: int


# Words before a title said without its last word that point at the recipe: "the quick breakfast".
DEFINITE = frozenset({"the", "that", "this", "your", "ur", "yr"})


class RecipeNames:
    """The catalog's titles, ready to be found in any text."""

    def __init__(self, titles: Mapping[str, str], cooking: Mapping[str, Sequence[str]] | None = None) -> None:
        """`cooking`: each recipe's ingredient lines and steps, whose everyday words ("the
        pastry", "the skillet") name no recipe."""
        self.titles = dict(titles)
        # The recipes whose ingredients or steps hold each word key, for the titles' words:
        # only those are ever asked about. Read once per catalog, uncached: the texts are long.
        said_in_titles = {key(w) for title in self.titles.values() for w in words(title)}
        self._held: dict[str, set[str]] = {}
        for recipe_id, lines in (cooking or {}).items():
            for k in {key(w) for w in WORD.findall(fold(" ".join(lines)))} & said_in_titles:
                self._held.setdefault(k, set()).add(recipe_id)
        # alias (a tuple of word keys) → recipe id.
        self._aliases = alias_index(self.titles)
        # Two title words written as one name only written whole: "the meatloaf" is the
        # Meatloaf, not the end of "Mexican Meatloaf".
        self._joined: set[tuple[str, ...]] = set()
        for recipe_id, title in sorted(self.titles.items()):
            for alias in joined(title):
                if alias not in self._aliases:
                    self._aliases[alias] = recipe_id
                    self._joined.add(alias)
        # A dish's own word, no one else's and no food's: "a proper paella", "the carnitas".
        self._own_words: set[tuple[str, ...]] = set()
        for nickname, recipe_id in nicknames(self.titles, self._held).items():
            if not set(nickname) & ANY_DISH:  # "the recipes" is no "… Fries Recipe"
                self._aliases.setdefault(nickname, recipe_id)
                self._own_words.add(nickname)
        # The names as written, before the shortenings below: what `anywhere` looks for.
        self._full = dict(self._aliases)
        # Titles by the last word of a name ("goulash" of "Beef Goulash"): "the goulash" names
        # the one title that ends so, but "the table" is no "Sourdough Table Loaf".
        self._heads: dict[str, list[tuple[str, ...]]] = {}
        for alias_keys in self._aliases.keys() - self._joined:
            self._heads.setdefault(alias_keys[-1], []).append(alias_keys)
        # A title of three words or more may go without its last word when that word is one
        # many titles end with: "the Butter Chicken Masala" is the Butter Chicken Masala Curry.
        endings: dict[str, int] = {}
        for alias_keys in self._aliases:
            endings[alias_keys[-1]] = endings.get(alias_keys[-1], 0) + 1
        self._shortened: set[tuple[str, ...]] = set()
        for alias_keys, recipe_id in list(self._aliases.items()):
            shorter = alias_keys[:-1]
            # Never a name ending in "with" or "and": "spaghetti with aubergine" is no Spaghetti
            # and Meatballs.
            if (
                len(alias_keys) >= 3
                and endings[alias_keys[-1]] >= 3
                and shorter not in self._aliases
                and shorter[-1] not in FILLER
            ):
                self._aliases[shorter] = recipe_id
                self._shortened.add(shorter)
        # Words that several titles share ("rice", "pasta"): in running text they are food.
        seen: dict[str, set[str]] = {}
        for alias_keys, recipe_id in self._aliases.items():
            if alias_keys in self._joined:
                continue
            for k in alias_keys:
                seen.setdefault(k, set()).add(recipe_id)
        self._shared = {k for k, ids in seen.items() if len(ids) > 1}
        self._owners = seen
        self._with_key: dict[str, list[tuple[str, ...]]] = {}
        for alias_keys in self._aliases:
            for k in set(alias_keys):
                self._with_key.setdefault(k, []).append(alias_keys)
        # The lengths of the names that start with a word key, longest first: most words
        # start none, and need no look-up at every length.
        starts: dict[str, set[int]] = {}
        for alias_keys in self._aliases:
            starts.setdefault(alias_keys[0], set()).add(len(alias_keys))
        self._lengths_from = {k: sorted(n, reverse=True) for k, n in starts.items()}
        self._listed = ListedDishes(titles)
        self._turns: dict[str | tuple[str, bytes], dict[str, int]] = {}
        self._anywhere: dict[str, tuple[tuple[int, str], ...]] = {}
        self._read: dict[tuple[str, bool, bool], tuple[Mention, ...]] = {}
        self._context: str | None = None
        self._context_digest = b""
        self._vocabulary = {k for alias in self._aliases for k in alias}
        self._by_deletion: dict[str, set[str]] = {}
        self._keys_of: dict[str, set[str]] = {}
        for k in self._vocabulary:
            if len(k) >= FUZZY_LENGTH:
                for variant in deletions(k) | {k}:
                    self._by_deletion.setdefault(variant, set()).add(k)

    @classmethod
    def of(cls, recipes: Iterable[Recipe]) -> RecipeNames:
        """The names of these recipes, read with their ingredients and steps."""
        recipes = list(recipes)
        return cls({r.id: r.title for r in recipes}, {r.id: [*r.ingredients, *r.steps] for r in recipes})

    def __len__(self) -> int:
        return len(self.titles)

    def knows(self, word: str) -> bool:
        """Whether a word is one of the catalog's titles ("omelette", "soup", "chicken")."""
        return any(key(w) in self._vocabulary for w in words(word))

    def _keys(self, word: str) -> set[str]:
        """The catalog's word keys that `word` may be: itself, or one slip away. Remembered
        (a bounded number, per catalog): every word of a text is looked up, the same words
        come back in each turn, and trying a word's slips is most of a lookup. Not to be
        changed by the caller."""
        if (found := self._keys_of.get(word)) is not None:
            return found
        if len(self._keys_of) >= KEYS_KEPT:
            self._keys_of.clear()
        found = self._keys_of[word] = self._slips(word)
        return found

    def _slips(self, word: str) -> set[str]:
        k = key(word)
        if k in self._vocabulary or len(k) < FUZZY_LENGTH:
            return {k}
        close = set(self._by_deletion.get(k, ()))
        for variant in deletions(k):
            close |= self._by_deletion.get(variant, set())
        # Deletions on both sides also pair words two slips apart ("ready" and "bread"); and a
        # slip in a word's first letter makes another word ("these" is no "cheese").
        return {c for c in close if c[0] == k[0] and one_slip(k, c)} or {k}

    def mentions(
        self, text: str, context: str = "", *, loose: bool = False, kinds: bool = False
    ) -> list[Mention]:
        """The recipes `text` names, in order; the longest name wins where names overlap.
        `loose` also takes short names ("the goulash"), as a chat turn about recipes already
        offered uses them; a short name that several titles end with ("the tikka masala")
        is the one whose other words `context` holds ("chicken"), if only one does. A user's
        question is read strictly: "the chocolate sweet" names no "Banana Muffins with
        Chocolate". `kinds`: the text is a question, whose "a quick breakfast" is a kind of dish,
        not the Quick Breakfast Spaghetti (a title said without its last word, after "a"); an
        answer's "I'd go for a butter chicken masala" names the recipe."""
        if context:
            return self._mentions(text, _Context(context), loose=loose, kinds=kinds)
        # Without a context the reading is the text's alone: each earlier user turn is read
        # again at every follow-up, and a question by the resolver, the guard and the search.
        read = remembered(
            self._read,
            (text, loose, kinds),
            lambda: tuple(self._mentions(text, _Context(""), loose=loose, kinds=kinds)),
        )
        return list(read)

    def _mentions(self, text: str, around: _Context, *, loose: bool, kinds: bool) -> list[Mention]:
        tokens = list(TOKEN.finditer(text))
        folded = [words(t.group()) for t in tokens]
        keys = [self._keys(f[0]) if f else set() for f in folded]
        found: list[Mention] = []
        position = 0
        while position < len(tokens):
            match = self._longest_at(keys, position)
            if match is not None:
                length, recipe_id = match
                if (
                    self._written_as_name(text, tokens, position, length, loose)
                    and not self._other_dish_after(text, tokens, keys, position, length)
                    and not (kinds and self._a_kind(tokens, keys, position, length))
                ):
                    found.append(Mention(recipe_id, position, position + length))
                    position += length
                    continue
            if loose and (short := self._short_name(tokens, keys, position, around)) is not None:
                found.append(short)
                position = short.end
                continue
            position += 1
        return found

    def _short_name(
        self, tokens: Sequence[re.Match[str]], keys: Sequence[set[str]], start: int, around: _Context
    ) -> Mention | None:
        """A title by the words it ends with, after "the": "the goulash", "the tikka masala"
        (settled by `around`, "chicken")."""
        if start == 0 or tokens[start - 1].group().lower() != "the":
            return None
        for length in (2, 1):
            span = keys[start : start + length]
            after = tokens[start + length].group().lower() if start + length < len(tokens) else ""
            if len(span) < length or after in ("one", "ones") or span[-1] & ANY_DISH:
                continue  # "the noodle one" describes a recipe, "the recipes" any; neither names one
            ids = {
                self._aliases[alias]
                for head in span[-1]
                for alias in self._heads.get(head, ())
                if len(alias) > length and all(options & set(alias) for options in span)
            }
            if length == 1:
                # "the pastry" beside a Beef Wellington is its pastry, no Puff Pastry.
                ids = {i for i in ids if not any(everyday(self._held, k, {i}) for k in span[0])}
            if len(ids) > 1 and around.keys:
                spoken = set().union(*span)
                ids = {i for i in ids if ({key(w) for w in words(self.titles[i])} - spoken) & around.keys}
            if len(ids) == 1:
                return Mention(ids.pop(), start, start + length)
        return None

    def _other_dish_after(
        self, text: str, tokens: Sequence[re.Match[str]], keys: Sequence[set[str]], start: int, length: int
    ) -> bool:
        """Whether a one-word title, or a title said without its last word, goes straight on
        with another dish's: "Yogurt soup" is no Yogurt, "a no-knead dough" no No-knead Bread
        ("- Butter chicken masala - chicken in …" is one)."""
        end = start + length
        cut = length == 1 or any(a in self._shortened for a in _combinations(keys[start:end]))
        if end >= len(keys) or not cut:
            return False
        glued = not text[tokens[end - 1].end() : tokens[end].start()].strip()
        return glued and any(k in self._heads for k in keys[end])

    def _a_kind(
        self, tokens: Sequence[re.Match[str]], keys: Sequence[set[str]], start: int, length: int
    ) -> bool:
        """Whether a title said without its last word is a kind of dish: "whats a quick breakfast"
        and "quick breakfast with eggs?" ask for no Quick Breakfast Spaghetti; "the quick
        breakfast" points at it."""
        shortened = any(a in self._shortened for a in _combinations(keys[start : start + length]))
        return shortened and (start == 0 or tokens[start - 1].group().lower() not in DEFINITE)

    def _longest_at(self, keys: Sequence[set[str]], start: int) -> tuple[int, str] | None:
        lengths = {n for k in keys[start] for n in self._lengths_from.get(k, ())}
        for length in sorted(lengths, reverse=True):
            if length > len(keys) - start:
                continue
            for alias in _combinations(keys[start : start + length]):
                if (recipe_id := self._aliases.get(alias)) is not None:
                    return length, recipe_id
        return None

    def _written_as_name(
        self, text: str, tokens: Sequence[re.Match[str]], start: int, length: int, loose: bool = False
    ) -> bool:
        """Whether these words are meant as the recipe's name, not as words of a sentence:
        "Bread" but not "bake bread", "the pepper sauce" but not "tomato and pepper sauce"."""
        span = tokens[start : start + length]
        line = text[text.rfind("\n", 0, span[0].start()) + 1 : span[0].start()]
        # "1. Mushroom risotto - creamy. 2. Fish Curry - fragrant.": a list written on one line.
        line = INLINE_ITEM.split(line)[-1]
        # "- **Tzatziki** - greek yogurt, …": bold is no word of the item.
        before_it = BULLET.sub("", line, count=1).strip(" *_") if BULLET.match(line) else ""
        describing = DESCRIBING.search(before_it) if before_it else None
        if before_it and (length == 1 or describing or before_it[:1].isdigit()):
            # In a list item, an ingredient line ("- 1 cup Rice") or the description after
            # the dish ("- Goulash (2 hours): beef, Bread", "- Tzatziki - Greek yogurt, dill")
            # names no dish; a one-word title names one only as the item's first word. But
            # an item whose dish the catalog does not spell ("- Šaltibarščiai - Lithuanian
            # cold borscht, …") is the title its description gives.
            head = before_it[: describing.start()] if describing else ""
            aside = ASIDE_OPENED.search(before_it)
            if aside and not describing and not self.named(before_it[: aside.start()]):
                # "- Uzbek plov (pilaf) with lamb", "- Lemon meringue pie (the Portuguese tarte
                # merengada)": the catalog's name for the item.
                return True
            return length > 1 and bool(head) and not self.knows(head)
        first_of_item = BULLET.match(line) is not None and not before_it  # "1. Lasagna" is no amount
        amount = AMOUNT_BEFORE.search(text[max(0, span[0].start() - 30) : span[0].start()])
        if length == 1 and amount and not first_of_item:
            return False  # "2 whole Eggs", "1/2 cup Rice": an amount of an ingredient
        if length == 1 and span[0].group()[:1].isupper():
            # "Rice" alone, but not the end of "Arborio Rice" nor the start of "Rice Noodles".
            word = span[0]
            before_word = tokens[start - 1] if start else None
            after_word = tokens[start + 1] if start + 1 < len(tokens) else None
            glued_before = (
                before_word is not None
                and before_word.group()[:1].isupper()
                and not text[before_word.end() : word.start()].strip()
                # "Our Lasagna": a sentence's first word is capitalised for the sentence.
                and not SENTENCE_START.search(text[: before_word.start()])
            )
            glued_after = (
                after_word is not None
                and after_word.group()[:1].isupper()
                and not text[word.end() : after_word.start()].strip()
            )
            return not (glued_before or glued_after)
        if any(t.group()[:1].isupper() for t in span):
            return True
        # From the last letter of the word before: a hyphen glued to it joins words.
        before = text[tokens[start - 1].end() - 1 : span[0].start()] if start else "\n"
        previous = tokens[start - 1].group().lower() if start else ""
        if length == 1:
            # "the carbonara", a list's "Carbonara, …", a dish's own word ("a proper paella"),
            # but not "a ketchup glaze" nor "the rice".
            k = key(span[0].group().lower())
            # In a chat turn about recipes, a dish's own word names it: "a proper paella".
            if (
                loose
                and (k,) in self._own_words
                and self._said_alone(text, tokens, start, self._aliases[(k,)])
            ):
                return True
            return k not in self._shared and (previous == "the" or bool(SEPARATOR.search(before)))
        if length >= 3 or start == 0:
            return True
        return previous in LEADS or bool(SEPARATOR.search(before))

    def _said_alone(self, text: str, tokens: Sequence[re.Match[str]], start: int, recipe_id: str) -> bool:
        """Whether a title's own word ends a phrase of its own, as a dish's name does: "a
        proper paella", "the seafood paella most tourists know"; not "a ketchup glaze",
        "tomato and pepper sauce" nor "a bit like a frittata"."""
        title = [key(w) for w in words(self.titles[recipe_id])]
        before = [t.group().lower() for t in tokens[max(0, start - 3) : start]]
        gap = text[tokens[start].end() : tokens[start + 1].start()] if start + 1 < len(tokens) else "."
        # A one-word title in running text is an ingredient, unless made ("how do i make
        # sauerkraut") or set apart ("And flammkuchen, the Alsatian one, …").
        asked = " ".join(before[-2:]).endswith(ASKING)  # "whats okonomiyaki exactly"
        if asked:
            return True
        if len(title) < 2 and not (before and before[-1] in MAKING) and not SET_APART.search(gap):
            return False
        opens = start == 0 or bool(SENTENCE_START.search(text[: tokens[start - 1].start()]))
        if before and (
            (before[-1] in JOINING and not opens) or key(before[-1]) in title or set(before) & COMPARING
        ):
            return False
        return bool(gap.strip()) or tokens[start + 1].group().lower() in PHRASE_ENDS

    def spelled(self, text: str) -> str:
        """The text with each recipe it names written as the catalog writes it: "the
        okonomiaki thing" is "the Okonomiyaki thing", "the paella" "the Valencian Paella". A
        name already written as the title, or as one of its forms, stays as it is. The text is a
        question: "a quick breakfast" stays a kind of dish."""
        tokens = list(TOKEN.finditer(text))
        for mention in reversed(self.mentions(text, kinds=True)):
            start, end = tokens[mention.start].start(), tokens[mention.end - 1].end()
            title = self.titles[mention.id]
            forms = [title, *re.split(r"\s*[()]\s*|\s+[-–:]\s+", title)]
            if words(text[start:end]) not in [words(form) for form in forms]:
                text = text[:start] + title + text[end:]
        return text

    def named(self, text: str, context: str = "", *, loose: bool = False, kinds: bool = False) -> list[str]:
        """The ids of the recipes `text` names, in order of first mention (`kinds`: see `mentions`)."""
        return list(dict.fromkeys(m.id for m in self.mentions(text, context, loose=loose, kinds=kinds)))

    def in_conversation(self, text: str, context: str = "") -> dict[str, int]:
        """The recipes a chat turn names, with where (a character offset) it first names
        each, in order: as `named` finds them, and as the dish that opens a list item or
        clause ("- banana pancakes, 20 minutes", "choc chip cookies, classic oatmeal cookies,
        …"), where assistants name dishes loosely."""
        if (places := self._turns.get(text)) is not None:
            return dict(places)
        settled_by = (text, self._digest(context))
        if (places := self._turns.get(settled_by)) is not None:
            return dict(places)
        around = _Context(context)
        tokens = list(TOKEN.finditer(text))
        spans = [
            (tokens[m.start].start(), tokens[m.end - 1].end(), m.id)
            for m in self._mentions(text, around, loose=True, kinds=False)
        ]
        found = [(start, i) for start, _, i in spans]
        # Words of a title already found are not the opening of another dish.
        found += [
            (at, i) for at, i in self._listed.leading(text) if not any(s <= at < e for s, e, _ in spans)
        ]
        bold = [m.span() for m in BOLD.finditer(text)]
        if any(s <= at < e for at, _ in found for s, e in bold):
            found = self._as_bold_turns_name(text, found, bold)
        places = {}
        for at, i in sorted(found):
            places.setdefault(i, at)
        # Every turn of a conversation is read again at each follow-up: a turn is remembered
        # (a bounded number of them, per catalog), with its context if that settled a name.
        if len(self._turns) >= TURNS_KEPT:
            self._turns.clear()
        self._turns[settled_by if around.used else text] = places
        return dict(places)

    def _as_bold_turns_name(
        self, text: str, found: list[tuple[int, str]], bold: list[tuple[int, int]]
    ) -> list[tuple[int, str]]:
        """A turn that writes its dishes in bold names those, and titles written as titles:
        "with sweet potato, zucchini and curry paste" beside them lists ingredients, and
        "Eggs gently poached …" opens a sentence. And a title in the parenthesis of a bold
        dish no title names: "**Galician octopus** (pulpo a la gallega)"."""

        def in_bold(at: int) -> bool:
            return any(s <= at < e for s, e in bold)

        def titled(at: int, recipe_id: str) -> bool:
            one_word = len(words(self.titles[recipe_id])) == 1
            return text[at].isupper() and not (one_word and SENTENCE_START.search(text[:at]))

        kept = [(at, i) for at, i in found if in_bold(at) or titled(at, i)]
        lines = {text.count("\n", 0, at) for at, _ in kept}
        for at, i in found:
            line = text.count("\n", 0, at)
            opened = text.rfind("(", 0, at)
            inside = opened > max(text.rfind("\n", 0, at), text.rfind(")", 0, at))
            if (at, i) not in kept and line not in lines and inside:
                kept.append((at, i))
        return sorted(kept)

    def anywhere(self, text: str) -> tuple[tuple[int, str], ...]:
        """Every place (a character offset) where a title's words stand in `text`, however
        written: "you could go for stoofvlees", "an old-fashioned rice pudding". Wider than
        `in_conversation`, for the caller to settle with what it knows of the recipes (a
        one-word title counts only spelt exactly and when no other title shares it)."""
        return remembered(self._anywhere, text, lambda: tuple(self._anywhere_in(text)))

    def _anywhere_in(self, text: str) -> list[tuple[int, str]]:
        if BOLD.search(text):
            return []  # a turn that writes its dishes in bold names them there
        asides = [m.span() for m in ASIDE.finditer(text)]
        tokens = list(TOKEN.finditer(text))
        keys = [key(words(t.group())[0]) if words(t.group()) else "" for t in tokens]
        found = []
        position = 0
        while position < len(tokens):
            at = tokens[position].start()
            previous = tokens[position - 1].group().lower() if position else ""
            before = {t.group().lower() for t in tokens[max(0, position - 3) : position]}
            for length in self._lengths_from.get(keys[position], ()):
                recipe_id = self._full.get(tuple(keys[position : position + length]))
                if recipe_id is None or (length == 1 and keys[position] in self._shared):
                    continue
                # "eggs in a tomato and pepper sauce", "(with a curry sauce)": ingredients;
                # "similar to a frittata": a comparison.
                aside = any(s <= at < e for s, e in asides)
                if previous not in JOINING and not before & COMPARING and not aside:
                    found.append((at, recipe_id))
                position += length - 1
                break
            position += 1
        return found

    def _digest(self, context: str) -> bytes:
        """A context (long, and the same for each turn of a conversation), by its digest."""
        if context != self._context:
            self._context = context
            self._context_digest = hashlib.blake2b(context.encode(), digest_size=16).digest()
        return self._context_digest

    def position(self, text: str, recipe_id: str) -> int:
        """Where (a character offset) `text` first names the recipe, by the first of its
        words to appear."""
        title = {key(w) for w in words(self.titles[recipe_id])} - FILLER
        for token in TOKEN.finditer(text):
            if any(key(w) in title for w in words(token.group())):
                return token.start()
        return len(text)

    def in_prose(self, text: str) -> list[str]:
        """The recipes an answer's prose names. One-word titles ("Rice", "Bread") are left
        out: in prose those words are ingredients, not recipes."""
        return [i for i in self.named(text) if len(words(self.titles[i])) > 1]

    def among(self, text: str, ids: Iterable[str], found: Iterable[str] = ()) -> list[str]:
        """Which of these recipes `text` names in any way, even as everyday words ("how do
        you make lasagna") or by a word no other of them has ("the pho"): only for recipes
        already in the conversation, where a word can say which one. Words of the titles
        `found` in the text already are theirs: "Oaty Pancakes" is no "Pancake"."""
        ids = list(ids)
        taken = {key(w) for i in found for w in words(self.titles[i])}
        said = {key(w) for w in words(text)} - taken
        # "one" points ("the fish one"); it names no "One-Pot Chicken Tetrazzini".
        title_words = {i: {key(w) for w in words(self.titles[i]) if len(w) > 2} - POINTERS for i in ids}
        named = []
        for i in ids:
            others = set().union(*(title_words[o] for o in ids if o != i))
            # A word of its own, and not an everyday one ("noodle" is in several titles).
            own = title_words[i] - others - self._shared
            if any(set(alias) <= said for alias in aliases(self.titles[i])) or own & said:
                named.append(i)
        return named


def remembered(kept: dict[K, V], key: K, read: Callable[[], V]) -> V:
    """`read()`, remembered under `key` in `kept`, which is emptied when full: texts come
    from clients, so what is kept is bounded."""
    if (value := kept.get(key)) is None:
        if len(kept) >= TURNS_KEPT:
            kept.clear()
        value = kept[key] = read()
    return value


def _combinations(keys: Sequence[set[str]]) -> Iterable[tuple[str, ...]]:
    """Every sequence of candidate keys; almost always one, as slips are rare."""
    sequences: list[tuple[str, ...]] = [()]
    for options in keys:
        sequences = [(*s, k) for s in sequences for k in options]
        if len(sequences) > 16:
            sequences = sequences[:16]
    return sequences
