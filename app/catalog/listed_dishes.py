"""The dishes a chat turn lists, named as assistants name them in passing.

"choc chip cookies, classic oatmeal cookies, banana & oat cookies", "• lava cakes", "goulash
with potatoes, Belgian stoofvlees … and scouse": each list item or enumerated clause opens
with a dish, written loosely. The dish is the catalog title whose words the opening covers
best, weighed by how few titles share each word, so that "the Romanian ardei umpluti" is
"Ardei umpluti with meat" and "a pork chilli" is no recipe at all."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from app.catalog.spelling import FUZZY_LENGTH, alias_index, key, one_slip, words

# Where a chat turn's list items and clauses begin, and what may open one before the dish.
CLAUSE = re.compile(r"[^\n•;,:.!?()–—]+")
OPENING = re.compile(
    r"^(?:\s|[-*\d.)]|\b(?:and|or|the|a|an|some|try|how about|maybe|also|plus|then|here are|here's|there are"
    r"|there's|there is|we have|i found|i have|you could make|you could try|you could do|you might like"
    # Praise that no title holds: "a big homemade lasagna".
    r"|big|homemade|home-made|proper|lovely|nice|good|little|huge|giant|great|tasty|delicious|yummy"
    r"|cosy|cozy|comforting|impressive|fancy)\b)+",
    re.I,
)
COPULA = re.compile(r"\b(?:is|was|'s)\s+(?:a|an)\b", re.I)
# Inside a clause, "and" and "or" may open the next dish of an enumeration.
JOINER = re.compile(r"\b(?:and|or)\s+", re.I)
LINE = re.compile(r"[^\n]+")
SENTENCE = re.compile(r"[^.!?]+[.!?]*")
# A list item's line opens with a bullet (a dash of any length) or a number.
BULLET = re.compile(r"\s*(?:[-*•–—]|\d+[.)])\s")
# A list item's label: "- **Crust:** …", "- Filling: …".
LABEL = re.compile(r"(?:\*\*|__)?:")
# The share of a title's telling words a label must say to name the dish.
LABEL_WEIGHT = 0.5
# A dish written in bold is named as a list item names it: "Then it has to be a **cheese fondue**!"
BOLD = re.compile(r"\*\*[^*\n]+\*\*|__[^_\n]+__")
# A line that heads a list of ingredients.
INGREDIENT_HEADING = re.compile(r"\b(?:you need|ingredients?|shopping list|to buy)\b[^.!?]*:?\s*$", re.I)
# A parenthesis describes the dish before it ("(red lentils, carrot, cumin)"): its commas
# enumerate ingredients, not dishes.
ASIDE = re.compile(r"\([^()]*\)")
# Title words that say little ("and", "with"): a loose mention need not repeat them.
FILLER = frozenset(
    {"and", "with", "or", "of", "the", "in", "a", "de", "la", "al", "alla", "all", "con", "en"}
)
# An ingredient line opens with a measure ("cups of rice"), not with a dish.
MEASURES = frozenset(
    {
        "cup",
        "tbsp",
        "tsp",
        "tablespon",
        "teaspon",
        "g",
        "cg",
        "ml",
        "l",
        "oz",
        "lb",
        "pound",
        "clove",
        "pinch",
        "can",
        "jar",
        "slice",
        "handful",
        "bunch",
        "dash",
        "piece",
        "stick",
        "sprig",
    }
)
# Words after which the one word opening a clause is a verb: "wrap it in pastry", "dip them".
OBJECTS = frozenset({"it", "them", "this", "that", "everything", "up", "out", "over", "off", "all"})
# The dish opens its clause: at most this many words ("classic", "Belgian") come before it.
QUALIFIERS = 1
OPENING_WORDS = 6
LONG_WORD = 8


TABLE_ROW = re.compile(r"^(?P<indent>[ \t]*)\|(?P<cells>.*)\|(?P<end>[ \t]*)$", re.M)
RULE = re.compile(r"^[ \t]*\|[\s|:-]*$")
NUMBER_CELL = re.compile(r"^(\s*#?\d+) (\s*)$")


def as_list(text: str) -> str:
    """A markdown table's rows written as list items, letter for letter in place (so that
    every offset still points where it did): "| 2 | Corn salsa | radish, lime |" reads as
    "  2)  Corn salsa - radish, lime  ", "| Hummus | chickpeas |" as "- Hummus - chickpeas  ".
    The header row, column names, goes blank."""
    rows = list(TABLE_ROW.finditer(text))
    rules = {n for n, match in enumerate(rows) if RULE.match(match.group())}
    headers = {rows[n - 1].start() for n in rules if n > 0}

    def row(match: re.Match[str]) -> str:
        cells = match["cells"].split("|")
        if RULE.match(match.group()):
            return match.group()
        if match.start() in headers:
            return " " * len(match.group())
        if number := NUMBER_CELL.match(cells[0]):
            # " 1 " is " 1)": the space after the number becomes its bracket.
            item = f" {number[1]}){number[2]} " + "-".join(cells[1:])
        else:
            item = "-" + "-".join(cells)
        return f"{match['indent']}{item} {match['end']}"

    return TABLE_ROW.sub(row, text)


@dataclass(frozen=True)
class Candidate:
    """A title the opening words of a clause may name."""

    recipe_id: str
    weight: float  # the share of the title's telling words the opening holds
    end: int  # the opening words it spans
    whole: bool  # every word of a title of two words or more


class ListedDishes:
    """The catalog's titles, ready to be found opening the items of a chat turn's lists."""

    def __init__(self, titles: Mapping[str, str]) -> None:
        self.titles = dict(titles)
        self._aliases = alias_index(self.titles)
        owners: dict[str, set[str]] = {}
        for alias_keys, recipe_id in self._aliases.items():
            for k in alias_keys:
                owners.setdefault(k, set()).add(recipe_id)
        self._owners = {k: len(ids) for k, ids in owners.items()}
        count = max(len(self.titles), 1)
        self._weight = {k: math.log(1 + count / n) for k, n in self._owners.items()}
        # Words met once are looked up again on every turn: remembered per catalog.
        self._related_memo: dict[str, set[str]] = {}
        self._cut_memo: dict[str, set[str]] = {}
        self._with_key: dict[str, list[tuple[str, ...]]] = {}
        for alias_keys in self._aliases:
            for k in set(alias_keys) - FILLER:
                self._with_key.setdefault(k, []).append(alias_keys)

    def leading(self, text: str) -> list[tuple[int, str]]:
        """The dishes that open the text's list items or its clauses, with where they start.
        A dish read from some of its words counts in a list item, or beside another dish of
        the same sentence: an enumeration."""
        aside_ends = {aside.end() for aside in ASIDE.finditer(text)}
        text = ASIDE.sub(lambda aside: " " * len(aside.group()), text)
        found: list[tuple[int, str]] = []
        ingredients = False
        for line in LINE.finditer(text):
            if not BULLET.match(line.group()):
                # The items under "For the Lasagna you need:" are its ingredients, not dishes.
                ingredients = bool(INGREDIENT_HEADING.search(line.group()))
            elif ingredients:
                continue
            if bullet := BULLET.match(line.group()):
                if line.group()[:2].isspace() and found:
                    # "1. **Mapo Tofu**" then "   - Sichuan classic: …": a sub-item describes
                    # the dish above it.
                    continue
                # What follows an item's dish describes it; but an item whose dish the catalog
                # spells otherwise ("- Züri Gschnätzlets - Zurich-style sliced beef …") is the
                # dish its description opens with.
                clauses = list(CLAUSE.finditer(line.group(), bullet.end()))[:2]
                for n, clause in enumerate(clauses):
                    dashed = line.group()[clauses[0].end() : clause.start()].strip() in ("–", "—")
                    if n and not dashed:
                        break
                    # "- Naan - soft flatbread": a spaced hyphen ends the dish as a dash does.
                    head = clause.group().split(" - ", 1)[0]
                    # "- **Filling:** whisk the yolks …": a label names a part of the dish, unless
                    # it says most of a title ("- **Naan:** soft flatbread").
                    label = LABEL.match(line.group(), clause.end()) is not None
                    named = [
                        (at, best.recipe_id)
                        for at, best in self._clause(
                            text, line.start() + clause.start(), head, aside_ends, item=True
                        )
                        if best is not None and (best.weight >= LABEL_WEIGHT or not label)
                    ][:1]
                    found += named
                    if named:
                        break
                continue
            for bold in BOLD.finditer(line.group()):
                found += [
                    (at, best.recipe_id)
                    for at, best in self._clause(
                        text, line.start() + bold.start() + 2, bold.group()[2:-2], aside_ends, item=True
                    )
                    if best is not None
                ][:1]
            for sentence in SENTENCE.finditer(line.group()):
                entries = []
                # "A Francesinha is a big, rich sandwich": what follows "is a" describes the
                # dish; it enumerates none.
                described_from = len(sentence.group())
                for clause in CLAUSE.finditer(sentence.group()):
                    for entry in self._clause(
                        text, line.start() + sentence.start() + clause.start(), clause.group(), aside_ends
                    ):
                        entries.append((*entry, clause.start() > described_from))
                    if (copula := COPULA.search(clause.group())) is not None:
                        described_from = min(described_from, clause.start() + copula.start())
                for n, (at, best, describing) in enumerate(entries):
                    neighbours = [entries[m][1] for m in (n - 1, n + 1) if 0 <= m < len(entries)]
                    beside = any(other is not None for other in neighbours) and not describing
                    if best is not None and (best.whole or beside):
                        found.append((at, best.recipe_id))
        return found

    def _clause(
        self, text: str, at: int, clause: str, aside_ends: set[int], *, item: bool = False
    ) -> list[tuple[int, Candidate | None]]:
        """The dish opening a clause, and those after its "and" or "or" where the clause
        enumerates: the words before the joiner are a dish ("arrabbiata or carbonara"), or
        a parenthesis just ended ("carbonnade flamande (…) and scouse")."""
        entries: list[tuple[int, Candidate | None]] = []
        start = 0
        for joiner in [None, *JOINER.finditer(clause)]:
            if joiner is not None:
                after_aside = len(text[: at + joiner.start()].rstrip()) in aside_ends
                if not (after_aside or self._is_dish(clause[start : joiner.start()])):
                    continue
                start = joiner.end()
            opening = OPENING.sub("", clause[start:])
            said = [key(w) for w in words(opening)[:OPENING_WORDS]]
            entries.append((at + len(clause) - len(opening), self._best_title(said, item) if said else None))
        return entries

    def _is_dish(self, words_before: str) -> bool:
        """Whether these words are a dish and nothing more: "Pasta arrabbiata" but not
        "Chili con carne with ground beef"."""
        said = [key(w) for w in words(OPENING.sub("", words_before))]
        best = self._best_title(said) if said and len(said) <= OPENING_WORDS else None
        return best is not None and best.end == len(said)

    def _best_title(self, said: Sequence[str], item: bool = False) -> Candidate | None:
        """The title these opening words name best, if one does; none for an ingredient line."""
        if said[0] in MEASURES:
            return None
        options: set[tuple[str, ...]] = set()
        for s in said[: QUALIFIERS + 2]:
            for k in self._related(s) | self._cut_short(s):
                options.update(self._with_key.get(k, ()))
        fits = [fit for alias in options if (fit := self._fit(alias, said, item)) is not None]
        if not fits:
            return None
        best = max(fit.weight for fit in fits)
        winners = {fit.recipe_id: fit for fit in fits if fit.weight == best}
        return next(iter(winners.values())) if len(winners) == 1 else None

    def _related(self, said: str) -> set[str]:
        """The title words a said word may be: itself, or one slip away if it is no title
        word itself ("sauce" is no "saute")."""
        if (found := self._related_memo.get(said)) is None:
            found = {said} if said in self._owners else set()
            if len(said) >= FUZZY_LENGTH and not found:
                found |= {k for k in self._owners if k[0] == said[0] and one_slip(said, k)}
            if len(said) >= LONG_WORD and not found:
                # A long word short of its ending: "kaldereta" of "Kalderetang".
                found |= {k for k in self._owners if k.startswith(said) and len(k) - len(said) <= 2}
            self._related_memo[said] = found
        return found

    def _cut_short(self, said: str) -> set[str]:
        """The title words a said word may cut short: "oat" of "oatmeal", "choc" of
        "chocolate" (but "paprika" is no "paprikash"). Only beside other words of the title:
        alone, "well" would be a "Wellington"."""
        if (found := self._cut_memo.get(said)) is None:
            found = set()
            if len(said) >= 3:
                found = {k for k in self._owners if k.startswith(said) and len(k) >= len(said) + 3}
            self._cut_memo[said] = found
        return found

    def _fit(self, alias: tuple[str, ...], said: Sequence[str], item: bool = False) -> Candidate | None:
        """How well the opening words name this title, if they do: most of its telling words
        after at most one qualifier ("classic oatmeal cookies"), or the one word that is its
        own ("goulash with potatoes": Beef Goulash)."""
        wanted = [k for k in alias if k not in FILLER]
        if not wanted:
            return None
        joined = [a + b for a, b in pairwise(said)]  # "lava cakes": Lavacake
        at: dict[str, int] = {}
        for k in wanted:
            where = next((n for n, s in enumerate(said) if k in self._related(s)), None)
            if where is None and k in joined:
                where = joined.index(k) + 1
            if where is not None:
                at[k] = where
        if not at or min(at.values()) > QUALIFIERS:
            return None
        # In the title's order and together: "basic meatballs and the full spaghetti" names
        # no "Spaghetti and Meatballs".
        order = [at[k] for k in wanted if k in at]
        # A list item may say the whole title in another order: "Paella Valenciana".
        reordered = item and len(at) == len(wanted) > 1 and max(order) < len(wanted)
        if (order != sorted(order) and not reordered) or max(order) - min(order) > len(alias):
            return None
        end = max(at.values()) + 1
        cut = [k for k in wanted if k not in at and any(k in self._cut_short(s) for s in said[:end])]
        matched = [*at, *cut]
        weight = sum(self._weight[k] for k in matched) / sum(self._weight[k] for k in wanted)
        recipe_id = self._aliases[alias]
        if len(wanted) == 1 == len(said) == len(matched):
            # A one-word title, said alone: a dish in a list, or beside another ("a beef
            # Wellington, a big homemade lasagna, or …").
            return Candidate(recipe_id, weight, end, whole=False)
        if len(matched) == len(wanted) and len(wanted) > 1:
            # Only a title written whole from the clause's first word counts outside a list:
            # "a creamy mushroom sauce on the side" may be a side, not a recipe on offer.
            return Candidate(recipe_id, weight, end, whole=min(at.values()) == 0)
        if len(at) > 1 and weight >= 0.6 and any(self._owners[k] <= 3 for k in at):
            return Candidate(recipe_id, weight, end, whole=False)
        if (
            item
            and len(at) > 1
            and min(at.values()) == 0
            and self._owners[wanted[0]] == 1
            and wanted[0] in at
        ):
            # "- Zürich-style sliced beef in …": an item opening with its title's first words,
            # the first no other title's.
            return Candidate(recipe_id, weight, end, whole=False)
        if (
            item
            and len(at) > 1
            and all(
                s in FILLER or any(s in self._related(k) or k in self._related(s) for k in at) for s in said
            )
        ):
            # "3. **Hamburger and macaroni**": a list item's dish, every word of it the title's.
            return Candidate(recipe_id, weight, end, whole=False)
        # One word: the title's own last word, not the start of another dish ("kidney beans").
        (only,) = at if len(at) == 1 else ("",)
        following = said[end] if end < len(said) else ""
        if (
            only
            and self._owners[only] == 1
            and not cut
            # "- **Naan** - soft flatbread", "1. **Flemish carbonade** - …": a list item's dish
            # is its last word, by the first word of its title; and a title's last word goes
            # alone ("goulash with potatoes").
            and ((item and end == len(said) and only == wanted[0]) or only == wanted[-1])
            and (following in FILLER or following not in self._owners)
            # "wrap it in mushroom duxelles": a verb and its object, no Breakfast Wrap.
            and following not in OBJECTS
        ):
            return Candidate(recipe_id, weight, end, whole=False)
        return None
