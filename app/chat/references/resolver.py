"""Resolve what a follow-up refers to, against the catalog: no model, no guesswork.

"From those, which is the quickest?" becomes "Considering the Mushroom sauce, the Shakshouka
and the Spanish Tortilla, which is the quickest?" because those three titles stand in the
assistant's last answer and the catalog knows them. The rules read, in this order:

- a change of topic ("actually", "forget that", "now I want…"): nothing is inherited;
- exclusions within the set last offered ("not the soup; of the others, …");
- ordinals ("the second one", "the last one", "the first two");
- descriptions ("the noodle one", "the French one", "the meaty one", "the quicker one"),
  from title words, tags, cuisine, diet flags and times in the catalog's data;
- the single recipe in focus ("it", "that one", "this");
- the set last offered ("those", "them", "which one", "either", "the others");
- otherwise, an elliptical follow-up ("What about ones with mushrooms?", "And a dessert?")
  inherits the diets, time limit, exclusions, cuisine and kind of dish that the user asked
  for earlier.

Each rule acts only on what it can ground: a conversation whose recipes are not in the
catalog leaves the message as it is."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from app.chat.name_spelling import words
from app.chat.recipe_names import RecipeNames
from app.chat.references.carried import Constraints, refused_diets
from app.chat.references.descriptions import described, matches
from app.chat.references.phrasing import considering, finish, lower_first, the
from app.chat.references.vocabulary import (
    ADDITIVE,
    CHOICE,
    COUNTS,
    CUISINES,
    DESCRIBED,
    DIET_WORDS,
    DISHES,
    ELLIPSIS_LEAD,
    ELLIPTICAL,
    EXCLUDED,
    EXCLUSIVE,
    FOCUS,
    FULL_QUESTION,
    HEAD,
    ONE_WITH,
    ORDINAL,
    ORDINALS,
    OTHERS,
    QUICK,
    SET_LEAD,
    SET_WORDS,
    SETTLING,
    SLOW,
    SWITCH,
)
from app.http.bodies import Message
from app.recipes import Recipe
from app.search.filters import DIET_FLAGS
from app.search.question_reader import read_question


@dataclass(frozen=True)
class Resolution:
    """The standalone question, and what it was grounded in."""

    question: str
    # The catalog recipes the question names, in order.
    recipe_ids: list[str] = field(default_factory=list)
    # The earlier constraints the question inherited ("vegetarian", "Italian").
    carried: list[str] = field(default_factory=list)
    # Which rule rewrote it; None when the message was left as it is.
    rule: str | None = None
    # Every catalog recipe the conversation named: what a model's rewrite may name.
    mentioned: list[str] = field(default_factory=list)


class Resolver:
    """Resolves a follow-up against the recipes a conversation named."""

    def __init__(self, names: RecipeNames, recipes: Mapping[str, Recipe]) -> None:
        self.names = names
        # The recipes named in the conversation, by id: their data answers "the vegan one".
        self.recipes = recipes
        self._history: Sequence[Message] = ()
        self._focus: Recipe | None = None
        self._named: list[str] = []

    def resolve(self, message: str, history: Sequence[Message]) -> Resolution:
        own = self.names.named(message)
        if not history or SWITCH.search(message):
            return Resolution(message, own)
        self._history = history
        context = " ".join(turn.content for turn in history)
        # Each turn read once: what it names, then what it names in passing among those.
        found = [
            {
                i: at
                for i, at in self.names.in_conversation(turn.content, context).items()
                if i in self.recipes
            }
            for turn in history
        ]
        self._named = list(dict.fromkeys(i for ids in found for i in ids))
        turns = [self.named_in(turn.content, ids) for turn, ids in zip(history, found, strict=True)]
        # The set a follow-up refers to is the latest list of recipes; a later turn about one
        # of them ("the pavlova is a great fit") puts that one in focus, not in place of the list.
        latest = next((ids for ids in reversed(turns) if ids), [])
        listed = next((ids for ids in reversed(turns) if len(ids) > 1), latest)
        offered = [self.recipes[i] for i in listed]
        self._focus = self.focus(turns, history)
        return replace(self._resolve(message, history, offered, own), mentioned=self._named)

    def _resolve(
        self, message: str, history: Sequence[Message], offered: list[Recipe], own: list[str]
    ) -> Resolution:
        for rule in (self._exclusion, self._ordinal, self._description, self._focus_rule, self._set):
            if offered and (resolution := rule(message, offered)) is not None:
                return resolution
        if (carried := self._carry(message, history)) is not None:
            return carried
        return Resolution(message, own)

    def named_in(self, text: str, found: dict[str, int]) -> list[str]:
        """The conversation's recipes that `text` names: `found` (with where), as the catalog
        reads it, and those it names in passing among the conversation's recipes."""
        places = dict(found)
        for i in self.names.among(text, self._named, found):
            places.setdefault(i, self.names.position(text, i))
        # In the order the text names them, which ordinals count by.
        return sorted(places, key=places.__getitem__)

    def focus(self, turns: Sequence[list[str]], history: Sequence[Message]) -> Recipe | None:
        """The one recipe "it" means: the only one the latest turn that named any named; the
        one an answer to "which …?" named first ("The quickest is the Mushroom Stroganov, …");
        or else the one the user last asked about."""
        for n in range(len(turns) - 1, -1, -1):
            ids = turns[n]
            if not ids:
                continue
            if len(ids) == 1:
                return self.recipes[ids[0]]
            asked = next((t.content for t in reversed(history[:n]) if t.role == "user"), "")
            if history[n].role == "assistant" and CHOICE.search(asked):
                return self.recipes[ids[0]]
            break
        for turn, ids in zip(reversed(history), reversed(turns), strict=True):
            if turn.role == "user" and ids:
                return self.recipes[ids[0]] if len(ids) == 1 else None
        return None

    def in_focus(self, offered: list[Recipe]) -> Recipe | None:
        if len(offered) == 1:
            return offered[0]
        return self._focus if self._focus in offered else None

    def _exclusion(self, message: str, offered: list[Recipe]) -> Resolution | None:
        if len(offered) < 2:
            return None
        for match in EXCLUDED.finditer(message):
            if not OTHERS.search(message) and not EXCLUSIVE.match(match["clause"]):
                continue
            named = self.names.named(f"the {match['what']}")
            if re.match(r"^i\b", match["clause"], re.I):
                # "I don't eat pork" leaves out every recipe with any pork in it.
                left_out = [r for r in offered if matches(match["what"], r)]
            else:
                # By its name, by a word of its own among the set ("the pancakes"), by its data.
                among = self.names.among(match["what"], [r.id for r in offered])
                left_out = (
                    [r for r in offered if r.id in named]
                    or [r for r in offered if r.id in among]
                    or described(match["what"], offered)
                )
            if left_out and len(left_out) < len(offered):
                kept = [r for r in offered if r not in left_out]
                rest = OTHERS.sub("", message.replace(match["clause"], " "))
                rest = re.sub(r"^[\s,;.:]*(?:(?:of|from|among|so|and|then)\b)?[\s,;.:]*", "", rest)
                rest = re.sub(r"\b(?:of|from|among)\s*(?=[,?]|$)", "", rest)
                question = considering([r.title for r in kept], rest, message)
                return Resolution(question, [r.id for r in kept], rule="exclusion")
        return None

    def _ordinal(self, message: str, offered: list[Recipe]) -> Resolution | None:
        if len(offered) < 2:
            return None
        for match in ORDINAL.finditer(message):
            if match["number"]:
                start, count = int(match["number"]) - 1, 1
            else:
                start, count = ORDINALS[match["which"].lower()], COUNTS.get((match["count"] or "").lower(), 1)
            if not match["number"] and not match.group(0).lower().startswith("the") and count == 1:
                # A bare "first" or "last" is a word of the sentence ("what do I do first?").
                continue
            if start == -1:
                picked = offered[-count:]
            elif start < len(offered):
                picked = offered[start : start + count]
            else:
                continue
            replaced = message[: match.start()] + the([r.title for r in picked]) + message[match.end() :]
            return Resolution(finish(replaced, message), [r.id for r in picked], rule="ordinal")
        return None

    def _description(self, message: str, offered: list[Recipe]) -> Resolution | None:
        other = re.search(r"\bthe other (?:one|recipe|dish)\b", message, re.I)
        if other and len(offered) == 2 and (focus := self.in_focus(offered)) is not None:
            [the_other] = [r for r in offered if r is not focus]
            replaced = message[: other.start()] + the([the_other.title]) + message[other.end() :]
            return Resolution(finish(replaced, message), [the_other.id], rule="description")
        if (with_match := ONE_WITH.search(message)) is not None and len(offered) > 1:
            having = [r for r in offered if matches(with_match["what"], r)]
            without = with_match["how"].lower() in ("without", "w/o")
            picked = [r for r in offered if r not in having] if without else having
            if picked and len(picked) < len(offered):
                replaced = (
                    message[: with_match.start()]
                    + the([r.title for r in picked])
                    + message[with_match.end() :]
                )
                return Resolution(finish(replaced, message), [r.id for r in picked], rule="description")
        for match in DESCRIBED.finditer(message):
            what = match["what"]
            if what.lower() in (
                "one",
                "ones",
                "others",
                "other",
                "rest",
                "recipe",
                "recipes",
            ) or ORDINAL.fullmatch(what):
                continue
            if set(words(what)) & (QUICK | SLOW) and not re.search(
                r"\b(?:one|recipe|dish)s?$", match.group(0), re.I
            ):
                # "Which is the quickest to cook?" ranks the set; "the quicker one" names one.
                continue
            if not re.search(r"\bones?$", match.group(0), re.I) and self.names.named(match.group(0)):
                continue  # a title in full: nothing to resolve
            picked = described(what, offered)
            if not picked or (len(picked) == len(offered) and len(offered) > 1):
                continue
            if re.match(r"^\s*which\b", SET_LEAD.sub("", message.strip()), re.I):
                # "Which is the vegan one?" asks to choose among the set: keep them all.
                return Resolution(
                    considering([r.title for r in offered], message, message),
                    [r.id for r in offered],
                    rule="description",
                )
            replaced = message[: match.start()] + the([r.title for r in picked]) + message[match.end() :]
            return Resolution(finish(replaced, message), [r.id for r in picked], rule="description")
        return None

    def _focus_rule(self, message: str, offered: list[Recipe]) -> Resolution | None:
        match = FOCUS.search(message)
        recipe = self._focus or (offered[0] if len(offered) == 1 else None)
        if match is None or recipe is None:
            return None
        replaced = message[: match.start()] + the([recipe.title]) + message[match.end() :]
        return Resolution(finish(replaced, message), [recipe.id], rule="focus")

    def _set(self, message: str, offered: list[Recipe]) -> Resolution | None:
        if not SET_WORDS.search(message) or (
            len(offered) == 1 and not re.search(r"\b(them|they|those|these)\b", message, re.I)
        ):
            return None
        rest = SET_LEAD.sub("", message.strip())
        if OTHERS.search(message) and self._focus in offered and len(offered) > 1:
            # "and the others?" after a turn about one of them: the rest of the set.
            offered = [r for r in offered if r is not self._focus]
        return Resolution(
            considering([r.title for r in offered], rest, message), [r.id for r in offered], rule="set"
        )

    def _carry(self, message: str, history: Sequence[Message]) -> Resolution | None:
        """An elliptical follow-up inherits what the user asked for earlier."""
        definite = re.search(r"\bthe\s+(?:[\w'-]+\s+){0,2}ones?\b", message, re.I)
        if ORDINAL.search(message) or FOCUS.search(message) or SET_WORDS.search(message) or definite:
            return None  # a reference to recipes the catalog does not know: nothing to ground
        lead = ELLIPSIS_LEAD.match(message.strip())
        body = ELLIPSIS_LEAD.sub("", message.strip())
        one_anaphora = re.search(r"\b(?<!which )(?<!this )(?<!that )(?<!no )ones?\b", body, re.I)
        short_fragment = len(body.split()) <= 4 and not FULL_QUESTION.match(body)
        if not (ELLIPTICAL.match(body) or one_anaphora or short_fragment):
            return None
        # What the user asked for, not what they asked about: "Is it vegetarian?" or "Is the
        # Shakshouka vegan?" asks about one recipe and sets no diet for what follows.
        asked_for = [
            m.content
            for m in history
            if m.role == "user" and not FOCUS.search(m.content) and not self.names.named(m.content)
        ]
        earlier = self.constraints(asked_for)
        mine = self.constraints([message])
        additive = bool(ADDITIVE.match(message.strip())) or bool(lead and ADDITIVE.match(lead.group()))
        if mine.dish and not additive and SETTLING.search(message):
            # "ok, a pizza dough recipe then" settles for something else; "and a dessert?" or
            # "something for breakfast" adds to what was asked.
            return None
        inherited = Constraints(
            diets=[d for d in earlier.diets if d not in mine.diets],
            cuisine=None if mine.cuisine else earlier.cuisine,
            dish=None if mine.dish else earlier.dish,
            minutes=None if mine.minutes is not None else earlier.minutes,
            exclude=[e for e in earlier.exclude if e not in mine.exclude],
        )
        if inherited.empty():
            return None
        adjectives = " ".join([*inherited.diets, *([inherited.cuisine] if inherited.cuisine else [])])
        body = re.sub(r"^(?:what|how) about\s+", "", body, flags=re.I)
        head_match = HEAD.search(body)
        if head_match:
            plural = head_match.group().lower() not in ("one", "recipe", "dish", "idea")
            noun = inherited.dish or ("recipes" if plural else "recipe")
            end = head_match.end()
            # "something sweet": the quality goes before the noun ("sweet vegetarian recipes").
            quality = re.match(
                r"\s+(?!(?:with|without|for|to|that|like|else|in|i)\b)([a-z-]+)", body[end:], re.I
            )
            if head_match.group().lower() in ("something", "anything") and (
                other := re.match(r"\s+else\b", body[end:], re.I)
            ):
                adjectives, end = f"other {adjectives}".strip(), end + other.end()
            elif head_match.group().lower() in ("something", "anything") and quality:
                adjectives, end = f"{quality.group(1)} {adjectives}".strip(), end + quality.end()
            head = " ".join(filter(None, [adjectives, noun]))
            body = body[: head_match.start()] + head + body[end:]
        elif (
            dish := next((w for w in re.findall(r"[\w-]+", body.lower()) if w in DISHES), None)
        ) is not None:
            body = re.sub(
                rf"\b{re.escape(dish)}\b", f"{adjectives} {dish}".strip(), body, count=1, flags=re.I
            )
        else:
            head = " ".join(filter(None, [adjectives, inherited.dish or "recipes"]))
            joined = "" if re.match(r"^(?:with|without)\b", body, re.I) else "with "
            body = f"{head} {joined}{body}"
        if not re.match(r"^(?:what|how|is|are|any|do|does|can)\b", body, re.I):
            body = f"What about {lower_first(body)}"
        tail = [f"without {e}" for e in inherited.exclude]
        if inherited.minutes is not None:
            tail.append(f"ready in under {inherited.minutes} minutes")
        question = body.rstrip(" ?.!") + (", " + ", ".join(tail) if tail else "")
        carried = [*inherited.diets, *filter(None, [inherited.cuisine, inherited.dish]), *tail]
        return Resolution(
            finish(question + "?", message), self.names.named(question), carried, rule="carry-over"
        )

    def constraints(self, texts: Sequence[str]) -> Constraints:
        """What these user turns asked for; a later turn's cuisine or dish replaces an earlier one."""
        found = Constraints()
        for text in texts:
            filters = read_question(text).filters
            diets = [DIET_WORDS[f] for f in DIET_FLAGS if getattr(filters, f)] + refused_diets(text)
            found.diets += [d for d in dict.fromkeys(diets) if d not in found.diets]
            if filters.max_total_minutes is not None:
                found.minutes = filters.max_total_minutes
            found.exclude += [e for e in filters.exclude if e not in found.exclude]
            said = re.findall(r"[\w-]+", text.lower())
            found.cuisine = next((w.capitalize() for w in said if w in CUISINES), found.cuisine)
            found.dish = next((w for w in said if w in DISHES), found.dish)
        return found
