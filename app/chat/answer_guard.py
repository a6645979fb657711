"""The answer guard, sibling of the rewrite guard: a model's reply is checked sentence by
sentence as it streams, and only sentences that pass reach the client.

A sentence is refused when it repeats an earlier one, loops (a run of words said again and
again), names a catalog recipe that was not retrieved for this turn, or states a time, a
serving count or a diet that the recipe it is about contradicts. The first refusal stops the
model (what it would write next comes from the same state). A reply cut at the token limit
loses its unfinished last sentence, and says so (`cut`). What was refused, and why, is
logged and counted, never shown.

Which catalog recipes a text names is injected (`Named`): the catalog-name resolver knows
the whole catalog and tolerates misspellings (`RecipeNames.in_prose`).
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from app.chat.data_phrasing import key_ingredients
from app.recipes import Recipe

log = logging.getLogger(__name__)

# Which catalog recipe ids a text names.
Named = Callable[[str], list[str]]

# A sentence ends at a newline, or at . ! ? followed by a space, unless the word before the
# stop is a number (a list's "1." or "2.").
SENTENCE_END = re.compile(r"\n|(?<![\s\d][0-9])(?<!^[0-9])[.!?](?=\s)")
WORD = re.compile(r"[a-z0-9]+")
MINUTES = re.compile(r"(\d+(?:\.\d+)?)\s*(?:-\s*\d+\s*)?(min(?:ute)?s?|h(?:ou)?rs?|hours?)\b", re.I)
SERVES = re.compile(r"(?:serves|servings?:?|feeds)\s+(\d+)|(\d+)\s+(?:servings|people|portions)", re.I)
DIET_WORDS = {
    "vegan": "vegan",
    "vegetarian": "vegetarian",
    "gluten-free": "gluten_free",
    "gluten free": "gluten_free",
    "dairy-free": "dairy_free",
    "dairy free": "dairy_free",
}
BRACKETS = re.compile(r"\[([^\[\]]{1,400})\]")
CITED_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
NEGATION = re.compile(r"\b(not|isn'?t|aren'?t|no|non)\b[^.]{0,20}$", re.I)


def without_ingredients(text: str, recipes: Sequence[Recipe]) -> str:
    """`text` with the retrieved recipes' ingredients blanked out: "puff pastry" in the answer
    is an ingredient of a retrieved dish, not the catalog's recipe of that name."""
    # The retrieved recipes' own titles first: an ingredient inside one ("flour" in "Wholemeal
    # Wheat Flour Pizza Dough") must not leave a shorter title behind ("Pizza Dough").
    titles = sorted({r.title.lower() for r in recipes}, key=len, reverse=True)
    names = {n.lower() for r in recipes for n in key_ingredients(r, most=100) if len(n) >= 4}
    lowered = text.lower()
    for name in [*titles, *sorted(names, key=len, reverse=True)]:
        lowered = lowered.replace(name, " ")
    return lowered


def names_outside(text: str, recipes: Sequence[Recipe], named: Named) -> list[str]:
    """The catalog recipes `text` names that are not among `recipes` (and not their ingredients)."""
    ids = {r.id for r in recipes}
    # A citation "[apple-pie]" is the citation filter's to judge, not a name in the prose.
    prose = re.sub(r"\[[^\]]*\]", " ", text)
    return [i for i in named(without_ingredients(prose, recipes)) if i not in ids]


def no_names(text: str) -> list[str]:
    return []


@dataclass
class GuardReport:
    """What the guard did to one reply, for the log, the eval and the finish reason."""

    refused: str | None = None  # why the first refused sentence was refused
    cut: bool = False  # the model stopped at its token limit
    named: list[str] = field(default_factory=list)  # retrieved ids the shown text names


def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def loops(sentence: str) -> bool:
    """A run of four words said four times, or one of eight said twice, in one sentence
    ("a quarter of a pound of" three times is an ingredient list, not a loop)."""
    tokens = words(sentence)
    if len(tokens) > 60:
        return True
    # Checked at every streamed piece on the sentence so far: most sentences repeat no run of
    # four words at all (nor, then, of eight), which one set tells without counting.
    fours = runs(tokens, 4)
    if len(set(fours)) == len(fours):
        return False
    return max(Counter(fours).values()) > 3 or max(Counter(runs(tokens, 8)).values(), default=0) > 1


def runs(tokens: list[str], size: int) -> list[tuple[str, ...]]:
    """Every run of `size` consecutive tokens."""
    return list(zip(*(tokens[i:] for i in range(size)), strict=False))


def minutes_of(amount: str, unit: str) -> float:
    value = float(amount)
    return value * 60 if unit.lower().startswith("h") else value


def contradiction(text: str, recipe: Recipe) -> str | None:
    """A time, serving count or diet in `text` (said about `recipe`) that its data contradicts."""
    times = {t for t in (recipe.prep_minutes, recipe.cook_minutes, recipe.total_minutes) if t is not None}
    for match in MINUTES.finditer(text):
        stated = minutes_of(match.group(1), match.group(2))
        if times and not any(abs(stated - t) < 1 for t in times):
            return f"says {match.group(0)!r} of {recipe.id}, whose times are {sorted(times)}"
    servings = {int(n) for n in re.findall(r"\d+", recipe.servings or "")}
    for match in SERVES.finditer(text):
        stated_servings = int(match.group(1) or match.group(2))
        if (
            servings
            and stated_servings not in servings
            and not (min(servings) <= stated_servings <= max(servings))
        ):
            return f"says it serves {stated_servings} of {recipe.id}, which serves {recipe.servings}"
    lowered = text.lower()
    for word, flag in DIET_WORDS.items():
        for match in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", lowered):
            if not getattr(recipe, flag) and not NEGATION.search(lowered[: match.start()]):
                return f"calls {recipe.id} {word}, which it is not marked"
    return None


class AnswerGuard:
    """Feed it the reply as it streams; it hands back the sentences that passed."""

    def __init__(self, recipes: Sequence[Recipe], named: Named) -> None:
        self._recipes = list(recipes)
        self._ids = {r.id for r in recipes}
        self._named = named
        self._held = ""
        self._seen: set[str] = set()
        self.report = GuardReport()

    @property
    def refused(self) -> bool:
        return self.report.refused is not None

    def feed(self, piece: str) -> str:
        """What may be shown of the reply so far: whole sentences that passed. After a
        refusal nothing more is shown."""
        if self.refused:
            return ""
        # What was held ends no sentence, bar a stop as its last character, which waits for
        # the next one: the search starts there, not again at the start of a long sentence.
        start = max(0, len(self._held) - 1)
        self._held += piece
        shown: list[str] = []
        while (end := SENTENCE_END.search(self._held, start)) is not None:
            sentence, self._held = self._held[: end.end()], self._held[end.end() :]
            start = 0
            if not self._check(sentence):
                return "".join(shown)
            shown.append(sentence)
        if loops(self._held):
            # A loop may never end a sentence: it is refused before the token limit.
            self._refuse(self._held, "loops")
        return "".join(shown)

    def finish(self, *, cut: bool) -> str:
        """The end of the reply: its last sentence if it passes and the reply was not cut."""
        held, self._held = self._held, ""
        self.report.cut = cut
        if self.refused or not held.strip():
            return ""
        if cut:
            log.info("answer guard: dropped the unfinished sentence of a reply cut at the token limit")
            return ""
        return held if self._check(held) else ""

    def _refuse(self, sentence: str, why: str) -> None:
        self.report.refused = why
        log.info("answer guard refused a sentence (%s): %r", why, sentence[:200])

    def _check(self, sentence: str) -> bool:
        text = sentence.strip()
        if not text:
            return True
        key = " ".join(words(text))
        if len(key) >= 12 and key in self._seen:
            self._refuse(sentence, "repeats an earlier line")
            return False
        self._seen.add(key)
        if loops(text):
            self._refuse(sentence, "loops")
            return False
        named = self._named(text)
        if invented := names_outside(text, self._recipes, self._named):
            self._refuse(sentence, f"names recipes that were not retrieved: {invented}")
            return False
        for recipe, said in self._about(text, named):
            if why := contradiction(said, recipe):
                self._refuse(sentence, why)
                return False
        self.report.named.extend(i for i in self._mentioned(text, named) if i not in self.report.named)
        return True

    def _mentioned(self, text: str, named: Sequence[str]) -> list[str]:
        """The retrieved recipes the sentence names or cites (`[a]`, `[a, b]`)."""
        lowered = text.lower()
        in_brackets = {i for group in BRACKETS.findall(lowered) for i in CITED_ID.findall(group)}
        cited = [r.id for r in self._recipes if r.id in in_brackets or r.title.lower() in lowered]
        return list(dict.fromkeys([*(i for i in named if i in self._ids), *cited]))

    def _about(self, text: str, named: Sequence[str]) -> list[tuple[Recipe, str]]:
        """Each retrieved recipe the sentence names, with the part of it that is about that
        recipe: from where it is named to where the next one is."""
        lowered = text.lower()
        marks: list[tuple[int, Recipe]] = []
        for recipe in self._recipes:
            at = [lowered.find(s) for s in (recipe.title.lower(), f"[{recipe.id}]")]
            at = [a for a in at if a >= 0]
            if at:
                marks.append((min(at), recipe))
            elif recipe.id in named:
                marks.append((0, recipe))
        marks.sort(key=lambda m: m[0])
        parts = []
        for n, (start, recipe) in enumerate(marks):
            end = marks[n + 1][0] if n + 1 < len(marks) else len(text)
            if end > start:
                parts.append((recipe, text[start:end]))
        return parts


def guard_text(
    text: str, recipes: Sequence[Recipe], named: Named, *, cut: bool = False
) -> tuple[str, GuardReport]:
    """A whole reply through the guard."""
    guard = AnswerGuard(recipes, named)
    shown = guard.feed(text) + guard.finish(cut=cut)
    return shown, guard.report


__all__ = [
    "AnswerGuard",
    "GuardReport",
    "Named",
    "guard_text",
    "names_outside",
    "no_names",
]
