"""Resolve what a follow-up refers to, against the catalog: no model, no guesswork.

"From those, which is the quickest?" becomes "Considering the Mushroom sauce, the Shakshouka
and the Spanish Tortilla, which is the quickest?" because those three titles stand in the
assistant's last answer and the catalog knows them. The rules read, in this order:

- a change of topic ("actually", "forget that", "now I want…"): nothing is inherited;
- a request for more ("what else?", "any others?"): other recipes of the kind asked for,
  besides those offered; a refused set ("none of those. something with tofu?"): what follows
  is a new request;
- exclusions within the set last offered ("not the soup; of the others, …");
- ordinals ("the second one", "the last one", "the first two");
- descriptions ("the noodle one", "the French one", "the meaty one", "the quicker one"),
  from title words, tags, cuisine, diet flags and times in the catalog's data; one that the
  data cannot place ("the canadian one") keeps the whole set in view;
- the single recipe in focus ("it", "that one", "this");
- the set last offered ("those", "them", "which one", "either", "the others"): the latest
  list, or the one a follow-up names by its size or kind ("those four", "back to the
  curries"), never a prose answer to a side question;
- a swap of ingredients ("could I use turkey instead?"): the recipe in focus;
- otherwise, a follow-up that asks for recipes ("What about ones with mushrooms?", "And a
  dessert?", "we're more in the mood for fish") inherits the diets, time limit, exclusions,
  cuisine and kind of dish that the user asked for earlier; a fragment ("for 2 people?") is
  about the recipe in focus.

The recipes a conversation offers are those its turns name, as the catalog spells them or in
passing (`offered.py`).

Each rule acts only on what it can ground: a conversation whose recipes are not in the
catalog leaves the message as it is."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from app.catalog.listed_dishes import as_list
from app.catalog.names import RecipeNames
from app.catalog.spelling import TOKEN, key, keys_of, words
from app.chat.references.carried import (
    SAME_BUT,
    around_them,
    asked_for,
    beside,
    carry_over,
    constraints,
    food_pointer,
    for_whom,
    others,
    request_after,
)
from app.chat.references.descriptions import DURATION, by_time, described, matches, told_apart
from app.chat.references.offered import (
    in_passing,
    is_list,
    numbered,
    on_the_list,
    said_of,
    title_keys,
    without_parts,
)
from app.chat.references.phrasing import considering, finish, lower_first, the
from app.chat.references.replay import asked_again, points_only
from app.chat.references.resolution import REFERRING, Resolution
from app.chat.references.vocabulary import (
    ABOUT_IT,
    ADDITIVE,
    AFTER_DESCRIPTION,
    ASKED,
    ASKED_ANEW,
    BARE_NUMBERS,
    BARE_ONE,
    CHOICE,
    CLAUSE_WORDS,
    COUNTS,
    DESCRIBED,
    DETAIL_ASKED,
    DIET,
    DISHES,
    DISLIKE,
    DISLIKED_BEFORE,
    ELLIPSIS_LEAD,
    EXCLUDED,
    EXCLUSIVE,
    HATED,
    HEAD,
    INSTEAD,
    INTO_THE_SET,
    KEPT_HOW,
    LACKED_IT,
    LACKING,
    LEFTOVERS,
    MAINS,
    MEAL,
    NEEDS_NO,
    NEW_APPLIANCE,
    NEW_ONE,
    NOT_MADE,
    NUMBER_WORDS,
    OCCASION,
    ONE_WITH,
    ORDINAL,
    ORDINAL_PAIR,
    ORDINALS,
    OTHERS,
    PART_OF,
    PARTS,
    PASSED_ON,
    POINTER,
    QUICK,
    REFUSED_SET,
    REFUSED_SET_SAID,
    RELATIVE,
    RELATIVE_TAIL,
    REQUEST,
    RULED_OUT,
    SCALING,
    SENTENCE_END,
    SERVING,
    SET_ASKED,
    SET_COUNT,
    SET_KIND,
    SET_LEAD,
    SET_WORDS,
    SETTLED,
    SIDE_ASKED,
    SLOW,
    STEP_ASKED,
    SWAP,
    SWEET,
    TAKEN_OUT,
    TOLD_DESCRIBED,
    WHAT_THERE_IS,
    WHICHEVER,
    focus_pointer,
    last_sentence,
    moves_on,
    people_pointer,
    switch_start,
    switches_topic,
)
from app.http.bodies import Message
from app.recipes import Recipe
from app.search.accompaniments import SERVED_WITH
from app.search.question_reader import TOOLS
from app.search.recipe_facts import facts
from app.search.variants import said_whole

# How many of the latest user turns are read for a recipe they picked by pointing.
POINTED_TURNS = 2
# A dish of the set said by its kind: "the soup", "the lentil soup", "the tart".
THE_DISH = re.compile(r"\bthe\s+(?P<first>[\w'-]+)(?:\s+(?P<second>[\w'-]+))?", re.I)
# One dish, not the set ("the breads you listed") nor a part of one ("the peanut sauce").
DISH_WORDS = frozenset(
    {"soup", "curry", "pasta", "salad", "stew", "bread", "cake", "pie", "pizza", "risotto", "casserole"}
    | {"tart", "chili", "chilli", "dahl", "dal", "burger", "roast", "traybake", "frittata", "omelette"}
    | {"stir-fry", "quiche", "loaf", "crumble", "lasagna", "lasagne", "porridge", "sandwich", "wrap"}
)
ONE_AFTER = re.compile(r"\s+ones?\b", re.I)
# Where a swap's question ends: "… instead of spinach, they hate it": the remark after a comma
# is no part of it.
SWAP_ENDS = re.compile(r"[?!.]+(?=\s|$)|,(?=\s+(?:they|he|she|we|i|my|our)\b)", re.I)
# "something sweet with them" after a food to use up.
USED_UP_POINTER = re.compile(
    r"\b(?:with|using|w)\s+(?P<it>them|those|these|it|the rest(?: of (?:it|them))?)\b", re.I
)
# A set-aside joined to the one before ("skip the chili and the soup"); "the chili and" may
# have been read whole, the next one following the "and".
JOINED = re.compile(r"\b(?:and|or|nor|&)\s*$|^\s*(?:,|and|or|nor|&)\s", re.I)
ALSO_LEFT_OUT = re.compile(
    r"(?:\s*,\s*(?:(?:and|or)\s+)?the\s+|\s+(?:(?:and|or|nor|&)\s+)?(?:the\s+)?)"
    r"(?!(?:which|what|how|of|from|so|then|i|we|you|it|is|are)\b)"
    r"(?P<what>[\w'-]+(?:\s+(?!one\b)[\w'-]+)?)(?:\s+ones?\b)?",
    re.I,
)
# The rules that resolve a pointer to recipes, which may stand for the last question again.
# The dish something goes with, said as a pronoun: "what would go well with it".
SERVED_IT = re.compile(r"\s+(?:it|that|this)(?: one)?\b", re.I)


# Words of a message that pick recipes: where they start and end, the titles they are said as
# ("vegan Lentil Soup"), and the recipes.
Span = tuple[int, int, list[str], list[Recipe]]


# What the user has of a list, before what they lack: "i've got basically all of that except".
HAVE_ALL = re.compile(
    r"\b(?:got|have)\s+(?:\w+\s+){0,2}?(?:all|everything)(?:\s+(?:of\s+)?(?:that|it|them|those))?[\s,]*$",
    re.I,
)


# "what could I serve it with": the dish something goes with, said around "it".
SERVE_IT_WITH = re.compile(r"\b(?:serve|eat|have|pair)\s+$", re.I)
WITH_NEXT = re.compile(r"\s+with\b", re.I)


def replaced_spans(message: str, spans: Sequence[Span], rule: str) -> Resolution:
    """The message with each span's words replaced by the titles of the recipes it picks,
    which are all resolved, in the order said."""
    ordered = sorted(spans, key=lambda span: span[0])
    replaced = message
    for start, end, titles, _ in reversed(ordered):
        replaced = replaced[:start] + the(titles) + replaced[end:]
    ids = list(dict.fromkeys(r.id for *_, picked in ordered for r in picked))
    return Resolution(finish(replaced, message), ids, rule=rule)


def without_others(text: str) -> str:
    """The words "the others" taken out, the set being named before them; "how long do the
    others take?" keeps its subject: "how long do they take?"."""
    return OTHERS.sub(
        lambda m: (
            "they"
            if re.search(r"\b(?:do|does|did|are|can|could|would|will|should)\s+$", text[: m.start()])
            else ""
        ),
        text,
    )


def as_read(history: Sequence[Message]) -> list[Message]:
    """The conversation as the resolver reads it: a table's rows as a list's items ("| 2 |
    Corn salsa | … |" is item 2). Reading it twice changes nothing."""
    read = [(turn, as_list(turn.content)) for turn in history]
    # Most turns hold no table: those stay the objects they are, uncopied.
    return [
        turn if text == turn.content else turn.model_copy(update={"content": text}) for turn, text in read
    ]


class Resolver:
    """Resolves a follow-up against the recipes a conversation named."""

    def __init__(self, names: RecipeNames, recipes: Mapping[str, Recipe]) -> None:
        self.names = names
        # The recipes named in the conversation, by id: their data answers "the vegan one".
        self.recipes = recipes
        self._history: Sequence[Message] = ()
        self._focus: Recipe | None = None
        self._named: list[str] = []
        self._said: dict[str, str] = {}
        self._items: dict[int, str] = {}
        self._earlier: list[list[Recipe]] = []

    def resolve(self, message: str, history: Sequence[Message]) -> Resolution:
        own = self.names.named(message, kinds=True)
        history = as_read(history)
        if not history or (switches_topic(message) and not self._names_said(message, history)):
            # The remark before the change of topic ("goulash it is then. separately, …")
            # is no part of the new question.
            return self._new_topic(message[switch_start(message) :] if history else message, message)
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
        # What each turn names by name, before what it names in passing or loosely.
        firm = [set(ids) for ids in found]
        found = without_parts(self.recipes, history, in_passing(self.names, self.recipes, history, found))
        self._named = list(dict.fromkeys(i for ids in found for i in ids))
        # A turn may name in passing only what was offered by then: "a fish dinner" asked
        # before the list names no Fish Curry of it.
        turns: list[list[str]] = []
        so_far: list[str] = []
        for turn, ids in zip(history, found, strict=True):
            so_far += [i for i in ids if i not in so_far]
            turns.append(self.named_in(turn.content, ids, so_far))
        self._pointed_turns(history, turns)
        # The set a follow-up refers to is the latest list of recipes; a later turn about one
        # of them ("the pavlova is a great fit") puts that one in focus, not in place of the list.
        latest = next((ids for ids in reversed(turns) if ids), [])
        lists = [n for n in range(len(turns) - 1, -1, -1) if len(turns[n]) > 1]
        # An answer to a side question ("whats tonkatsu sauce?") that names dishes only in
        # passing ("a Japanese brown sauce, great on okonomiyaki") offers no new set.
        at = next((n for n in lists if len(firm[n] & set(turns[n])) > 1), lists[0] if lists else None)
        at = self._list_asked_for(message, lists, turns, self._past_side_answer(history, lists, at))
        listed = turns[at] if at is not None else latest
        self._said, self._items = {}, {}
        # What the assistant said of each recipe, in the lists before too ("the one cooked in a
        # cauldron" after a side answer about two others); the list in view has the last word.
        for n in [*reversed(lists), *([at] if at is not None else [])]:
            text = history[n].content
            places = {i: found[n].get(i, self.names.position(text, i)) for i in turns[n]}
            if n == at:
                listed = on_the_list(text, listed, places)
                self._items = numbered(text, found[n])
            self._said |= said_of(text, places)
        offered = [self.recipes[i] for i in listed]
        # The lists offered before: "for the mains skip the pork ones" after the dips.
        self._earlier = [[self.recipes[i] for i in turns[n]] for n in lists if n != at]
        self._focus = self.focus(turns, history)
        earlier = [turn.content for turn in history if turn.role == "user"]
        if (start := moves_on(message, earlier, lambda rest: self._names_offered(rest, offered))) is not None:
            # "k thanks, going with the salmon. my daughter turns 6 next week, …": a new topic,
            # which inherits nothing.
            return replace(self._new_topic(message[start:], message), mentioned=self._named)
        resolution = self._side_of(
            self._served_with_it(self._resolve(message, history, offered, own)), message
        )
        resolution = beside(resolution, message, history, self.names)
        resolution = for_whom(resolution, message, history, self.names)
        if resolution.rule in REFERRING and points_only(message, resolution, self.names):
            resolution = self._asked_again(resolution, message, history) or resolution
        resolution = around_them(resolution, message, history, self.names)
        if resolution.question == message and own:
            resolution = replace(resolution, question=self.names.spelled(message))
        return replace(resolution, mentioned=self._named)

    def _names_said(self, message: str, history: Sequence[Message]) -> bool:
        """Whether what follows a change of topic names a recipe of the conversation: "ok random
        but my cat knocked the paprika over … does the strogonof still work without it?" asks
        about that recipe."""
        context = " ".join(turn.content for turn in history)
        talked_of = {i for turn in history for i in self.names.in_conversation(turn.content, context)}
        return any(
            i in talked_of for i in self.names.in_conversation(message[switch_start(message) :], context)
        )

    def _served_with_it(self, resolution: Resolution) -> Resolution:
        """ "the second one please. what would go well with it on the side?": the "it" of what goes
        with a dish is the one recipe the message picked, named so that the search finds what
        goes beside it."""
        served = SERVED_WITH.search(resolution.question)
        if served is None or len(resolution.recipe_ids) != 1 or resolution.rule not in REFERRING:
            return resolution
        pronoun = SERVED_IT.match(resolution.question, served.end())
        if pronoun is None:
            return resolution
        title = the([self.recipes[resolution.recipe_ids[0]].title])
        question = f"{resolution.question[: served.end()]} {title}{resolution.question[pronoun.end() :]}"
        return replace(resolution, question=question)

    def _side_of(self, resolution: Resolution, message: str) -> Resolution:
        """ "what would go well on the side?" after a turn about the Drunken beans, or after "the
        second one sounds good": a side dish beside the one recipe meant."""
        side, said = SIDE_ASKED.search(resolution.question), SIDE_ASKED.search(message)
        meant = resolution.recipe_ids or ([self._focus.id] if self._focus else [])
        if side is None or said is None or len(meant) != 1 or SERVED_WITH.search(resolution.question):
            return resolution
        if resolution.rule not in (None, "carry-over", *REFERRING):
            return resolution
        rest = message[: said.start()] + message[said.end() :]
        before = re.search(r"([\w'-]+)\s+$", message[: said.start()])
        if not constraints([rest], self.names).empty() or (before and self.names.knows(before[1])):
            # "on the side - bread or some kind of dip", "rice on the side": a dish of its own.
            return resolution
        question = resolution.question
        title = the([self.recipes[meant[0]].title])
        beside_it = f"{question[: side.end()]}, alongside {title}{question[side.end() :]}"
        return replace(
            resolution, question=finish(beside_it, message), recipe_ids=meant, rule=resolution.rule or "focus"
        )

    def _new_topic(self, asked: str, message: str) -> Resolution:
        """A question on a new topic, without the remark said before it."""
        return Resolution(
            self.names.spelled(asked),
            self.names.named(asked, kinds=True),
            rule="switch" if asked != message else None,
        )

    @staticmethod
    def _past_side_answer(history: Sequence[Message], lists: list[int], at: int | None) -> int | None:
        """The list before an answer in prose to a side question ("is anglerfish the same as
        monkfish?" … "Yes; the sand tarts and the matcha cookies contain nuts"): the dishes
        that answer names are not the set the user chooses from."""
        if at is None or is_list(history[at].content):
            return at
        asked = history[at - 1].content if at > 0 and history[at - 1].role == "user" else ""
        # "no noodles pls, and no tofu" narrows the set: its answer is the set now.
        if not ASKED.search(asked) or REQUEST.search(asked) or WHAT_THERE_IS.search(asked):
            return at
        return next((n for n in lists if n < at and is_list(history[n].content)), at)

    def _list_asked_for(
        self, message: str, lists: list[int], turns: list[list[str]], at: int | None
    ) -> int | None:
        """The list a follow-up names by its size ("which of those four", "the 4 pasta things
        you listed") or by its kind ("back to the curries"), when it is not the latest one:
        the latest list that fits, after a side question whose answer listed others."""
        if at is None or len(lists) < 2:
            return at
        if (count := SET_COUNT.search(message)) is not None:
            size = NUMBER_WORDS.get(count["count"].lower()) or int(count["count"])
            # "the 5 P's" counts no list: the kind may still say which.
            sized = next((n for n in lists if len(turns[n]) == size), None)
            if len(turns[at]) != size and sized is not None:
                return sized
        if (kind := SET_KIND.search(message)) is not None:
            what = re.sub(r"ies$", "y", kind["what"] or kind["kind"] or kind["noun"])  # "the curries"
            # "those bakes" are the baked ones.
            forms = [what, re.sub(r"es$", "ed", what)] if kind["noun"] else [what]

            def fits(n: int) -> bool:
                # "back to the weeknight list": the list the user asked for with that word.
                asked = n > 0 and self._history[n - 1].role == "user" and self._history[n - 1].content
                if asked and re.search(rf"\b{re.escape(what)}", asked, re.I):
                    return True
                fitting = [i for i in turns[n] if any(matches(w, self.recipes[i]) for w in forms)]
                # A bare "those bakes" is looser than "the pasta ones": most of the list must fit.
                return len(fitting) * 2 > len(turns[n]) if kind["noun"] else len(fitting) * 2 >= len(turns[n])

            if not fits(at):
                return next((n for n in lists if fits(n)), at)
        return at

    def _pointed_turns(self, history: Sequence[Message], turns: list[list[str]]) -> None:
        """A recent user turn that picked one recipe by pointing ("tell me more about the
        indonesian one") names that recipe: what follows it is about it."""
        users = [n for n, turn in enumerate(history) if turn.role == "user" and n > 0][-POINTED_TURNS:]
        for n in users:
            said = history[n].content
            # "the portuguese pie one sounds good": a description of two words points too.
            if not turns[n] and (
                INTO_THE_SET.search(said) or re.search(r"\bthe (?:[\w'-]+ ){2}one\b", said, re.I)
            ):
                picked = Resolver(self.names, self.recipes).resolve(said, history[:n])
                if picked.rule in ("ordinal", "description") and len(picked.recipe_ids) == 1:
                    turns[n] = list(picked.recipe_ids)

    def _asked_again(
        self, resolution: Resolution, message: str, history: Sequence[Message]
    ) -> Resolution | None:
        """The user's last question, about the recipes this message points at instead."""
        last = next((n for n in range(len(history) - 1, -1, -1) if history[n].role == "user"), None)
        if last is None:
            return None
        previous = Resolver(self.names, self.recipes).resolve(history[last].content, history[:last])
        before = [i for i in previous.recipe_ids if i in self.recipes]
        if not before or before == resolution.recipe_ids:
            return None
        question = asked_again(
            previous,
            [self.recipes[i].title for i in before],
            [self.recipes[i].title for i in resolution.recipe_ids],
            self.names,
            message,
        )
        return replace(resolution, question=question) if question else None

    def _resolve(
        self, message: str, history: Sequence[Message], offered: list[Recipe], own: list[str]
    ) -> Resolution:
        if (more := others(message, history, [r.id for r in offered], self.names)) is not None:
            return more
        refused = REFUSED_SET.match(message) or REFUSED_SET_SAID.search(message)
        if offered and refused and message[refused.end() :].strip():
            # The set is refused: what follows is a new request, with nothing offered to point at.
            return self._resolve(message[refused.end() :], history, [], own)
        if offered and (course := self._next_course(message, offered)) is not None:
            # "beef one for sure. then for afters I need something cold": the choice is made,
            # and what follows asks for another course, with nothing offered to point at.
            return self._resolve(course, history, [], self.names.named(course))
        if not own and self._focus is not None and (step := STEP_ASKED.search(message)):
            # "what's step 3 again?" after a turn about the Creamy Mashed Potatoes.
            question = f"{message[: step.end()]} of {the([self._focus.title])}{message[step.end() :]}"
            return Resolution(finish(question, message), [self._focus.id], rule="focus")
        for rule in (
            self._food_used_up,
            self._exclusion,
            self._asked_anew,
            self._ordinal,
            self._the_dish,
            self._description,
            self._focus_rule,
            self._set,
        ):
            if offered and (resolution := rule(message, offered)) is not None:
                return resolution
        if (swapped := self._swap(message, own)) is not None:
            return swapped
        if own and points_only(message, named := Resolution(message, own, rule="name"), self.names):
            return named  # "and the Shakshouka?": a recipe by its name, nothing to carry
        if not own and (detail := self._detail_asked(message, offered)) is not None:
            return detail
        if (carried := carry_over(message, history, self.names)) is not None:
            return carried
        if not own and self._focus is not None and (part := PART_OF.search(message)) is not None:
            # "for the meringue bit do i need a mixer?" after a turn about the Tarte Merengada:
            # a part of the recipe in focus, by a word of its ingredients or steps.
            recipe = self._focus
            if key(part["what"]) in keys_of(
                (*recipe.ingredients, *recipe.steps, *recipe.tags, recipe.description or "")
            ):
                question = f"{message[: part.end()]} of {the([recipe.title])}{message[part.end() :]}"
                return Resolution(finish(question, message), [recipe.id], rule="focus")
        fragment = ABOUT_IT.match(message) and not CLAUSE_WORDS.search(message) and len(message.split()) <= 6
        meant = self._meant(offered)
        if not own and meant and (left := LEFTOVERS.search(message)) and KEPT_HOW.search(message):
            # "can I freeze leftovers?": of the dish in view.
            question = f"{message[: left.end()]} of {the([r.title for r in meant])}{message[left.end() :]}"
            return Resolution(finish(question, message), [r.id for r in meant], rule="focus")
        if not own and self._focus is not None and SCALING.search(message):
            # "so I just double everything?" after a turn about the Tiramisù scales the Tiramisù.
            question = finish(f"{message.strip().rstrip('?!. ')} for {the([self._focus.title])}", message)
            return Resolution(question, [self._focus.id], rule="focus")
        if not own and self._focus is not None and fragment:
            # "for 2 people?" after a turn about the Lasagna asks about the Lasagna.
            question = finish(f"{the([self._focus.title])} {message.strip()}", message)
            return Resolution(question, [self._focus.id], rule="focus")
        return Resolution(message, own)

    def _names_offered(self, text: str, offered: list[Recipe]) -> bool:
        """Whether `text` names a recipe offered, by its name or by a word of one title only
        ("the risotto" beside a soup and a chicken). An occasion names none: "the actual party
        saturday" is no Party Mimosa."""
        text = OCCASION.sub(" ", text)
        if self.names.among(text, [r.id for r in offered]):
            return True
        titles = [{key(w) for w in words(r.title)} for r in offered]
        said = {key(w) for w in re.findall(r"\bthe\s+([\w'-]+)", text, re.I)}
        return any(sum(w in title for title in titles) == 1 for w in said)

    def _next_course(self, message: str, offered: list[Recipe]) -> str | None:
        """The request for another course or meal after a first sentence that settles on one
        recipe offered; not a question about the recipe chosen ("ill go with the quicker one.
        can i skip the wine?"), which names no course."""
        first, _, rest = message.strip().partition(". ")
        if not rest or "?" in first or not SETTLED.search(first):
            return None
        said = [r.id for r in offered if r.id in self.names.among(first, [o.id for o in offered])]
        described_one = [
            r.id
            for m in [*DESCRIBED.finditer(first), *BARE_ONE.finditer(first)]
            for r in described(m["what"], offered, self._said)
        ]
        # "ok doubling it then": the one in focus, chosen.
        if len(set(said or described_one)) != 1 and (said or described_one or not focus_pointer(first)):
            return None
        asks = REQUEST.search(rest) or re.search(
            r"\b(?:(?:got|have) (?:a|any) recipes?|what can (?:i|we) (?:do|make)|what'?s (?:\w+ )?good)\b",
            rest,
            re.I,
        )
        course = (
            MEAL.search(rest)
            or SWEET.search(rest)
            or re.search(r"\b(?:dessert|pudding|drinks?|boozy|cocktails?|punch)\b", rest, re.I)
            # "do you have a recipe for naan bread?": another dish, by its name.
            or {i for i, _ in said_whole(rest, self.names)} - {r.id for r in offered}
            # "oh also I finally bought an air fryer, what's actually good in it?"
            or NEW_APPLIANCE.search(rest)
        )
        pointing = (
            SET_WORDS.search(rest)
            or focus_pointer(rest)
            or ORDINAL.search(rest)
            or re.search(r"\bthe (?:[\w'-]+ )?ones?\b", rest, re.I)
            or self.names.among(rest, [r.id for r in offered])
        )
        return rest if asks and course and not pointing else None

    def _swap(self, message: str, own: list[str]) -> Resolution | None:
        """ "could I use turkey instead?" or "ham instead of the pork chops?" after a turn about
        one recipe asks about that recipe: what the message names is its ingredient."""
        focus = self._focus
        if focus is None or focus.id in own:
            return None
        ingredients = keys_of(tuple(focus.ingredients))
        lacking = LACKING.search(message)
        # "i don't have garam masala, is that a problem?": a swap to find, of an ingredient of
        # the recipe in focus (the food's every word is in its list); "i don't have a roasting
        # tin", "… kitchen twine": a tool, for its steps (said by its last word: "butchers twine").
        lacked = [key(w) for w in words(lacking["food"])] if lacking is not None else []
        lacks = (
            lacking is not None
            and ASKED.search(message[lacking.end() :]) is not None
            and (
                set(lacked) <= ingredients
                or (bool(lacked) and lacked[-1] in keys_of(tuple(focus.steps)))
                or bool(TOOLS.intersection(lacking["food"].lower().split()))
            )
        )
        if not (SWAP.search(message) or lacks):
            return None
        if any(i not in self.recipes or not title_keys(self.recipes[i]) <= ingredients for i in own):
            return None  # another recipe, by its name: not a swap within this one
        # Said at the end of the sentence that asks it, before any remark after it.
        swap = SWAP.search(message) or lacking
        assert swap is not None
        stop = SWAP_ENDS.search(message, swap.end())
        at = stop.start() if stop else len(message.rstrip(" ?!."))
        question = finish(f"{message[:at].rstrip()} in {the([focus.title])}{message[at:]}", message)
        return Resolution(question, [focus.id], rule="focus")

    def named_in(self, text: str, found: dict[str, int], offered: Sequence[str]) -> list[str]:
        """The conversation's recipes that `text` names: `found` (with where), as the catalog
        reads it, and those it names in passing among the recipes `offered` so far."""
        places = dict(found)
        # "flour, egg, water" about the Okonomiyaki names no "Egg Roll in a Bowl": a word the
        # named recipes' ingredients use is theirs.
        used = set().union(*(keys_of(tuple(self.recipes[i].ingredients)) for i in found))
        said = {key(w) for w in words(text)}
        for i in self.names.among(text, offered, found):
            # "Brown the duck pieces" about the Bebek Mropol names no "… with Smoked Duck": a
            # word another recipe of the conversation cooks with is no name.
            theirs = set().union(
                *(keys_of(tuple(self.recipes[o].ingredients)) for o in self._named if o != i)
            )
            if {k for k in title_keys(self.recipes[i]) if len(k) > 2} & said - used - theirs:
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
        # The lists that answered a request naming no recipe nor pointing at one ("something
        # similar but vegetarian"): a recipe asked about before one, and not in it, is behind it.
        # Sides ("what goes on the side") are offered beside it, not instead.
        lists: list[tuple[str, list[str]]] = []  # each request, and the list that answered it
        answer: list[str] = []
        for turn, ids in zip(reversed(history), reversed(turns), strict=True):
            if turn.role == "assistant":
                answer = ids
            elif ids:
                behind = any(ids[0] not in listed and not self._about_focus(asked) for asked, listed in lists)
                return None if len(ids) > 1 or behind else self.recipes[ids[0]]
            elif len(answer) > 1:
                lists.append((turn.content, answer))
        return None

    @staticmethod
    def _about_focus(message: str) -> bool:
        """Whether a message points at the recipe in focus, or asks for what goes beside it."""
        return bool(focus_pointer(message) or SIDE_ASKED.search(message) or SERVED_WITH.search(message))

    def _meant(self, offered: list[Recipe]) -> list[Recipe]:
        """What "it" means when nothing else says: the recipe in focus or, with no one recipe in
        focus ("do any of the others have nuts?" … "what do I need for it?"), the set in view,
        never a fresh search that finds other dishes."""
        return [self._focus] if self._focus else offered

    def _the_dish(self, message: str, offered: list[Recipe]) -> Resolution | None:
        """ "how long does the soup take?", "is the lentil soup vegan?" after a list with one
        soup: the one of the set whose title says that dish, though other catalog recipes do."""
        # "any of those cakes or the pie" asks of the set.
        if len(offered) < 2 or self.names.named(message) or SET_WORDS.search(message):
            return None
        for match in THE_DISH.finditer(message):
            # "the lentil soup", else "the soup".
            for said in ([match["first"], match["second"]], [match["first"]]):
                end = match.end("second") if len(said) == 2 else match.end("first")
                # "the soup one" is the description rule's.
                if None in said or said[-1].lower() not in DISH_WORDS or ONE_AFTER.match(message, end):
                    continue
                fitting = [r for r in offered if {key(w) for w in said} <= title_keys(r)]
                if len(fitting) == 1:
                    question = message[: match.start()] + the([fitting[0].title]) + message[end:]
                    return Resolution(finish(question, message), [fitting[0].id], rule="description")
        return None

    def _food_used_up(self, message: str, offered: list[Recipe]) -> Resolution | None:
        """ "what about something sweet with them?" after "way too many courgettes": the food
        to use up, not the dishes offered for it; but "what goes with them" goes with those."""
        pointer = USED_UP_POINTER.search(message)
        if pointer is None or SERVED_WITH.search(message):
            return None
        using = asked_for(self._history, self.names).using
        if using is None:
            return None
        said = message[: pointer.start("it")] + using + message[pointer.end("it") :]
        return carry_over(said, self._history, self.names) or Resolution(said, self.names.named(said))

    def _detail_asked(self, message: str, offered: list[Recipe]) -> Resolution | None:
        """ "do I need any special equipment?" after a turn about the Granola asks it of the
        Granola; "anything that needs no special equipment?" asks for other dishes."""
        meant = self._meant(offered)
        asked = DETAIL_ASKED.search(message)
        if not meant or asked is None or NEW_ONE.search(message) or HEAD.search(message):
            return None
        if self.names.anywhere(message):
            return None  # "how long does kropsua need, at what temperature?": the one named
        question = (
            f"{message[: asked.end()].rstrip()} for {the([r.title for r in meant])}{message[asked.end() :]}"
        )
        return Resolution(finish(question, message), [r.id for r in meant], rule="focus")

    def in_focus(self, offered: list[Recipe]) -> Recipe | None:
        if len(offered) == 1:
            return offered[0]
        return self._focus if self._focus in offered else None

    def _exclusion(self, message: str, offered: list[Recipe]) -> Resolution | None:
        for candidates in (offered, *self._earlier):
            if (resolution := self._excluded_from(message, candidates)) is not None:
                return resolution
        return None

    def _excluded_from(self, message: str, offered: list[Recipe]) -> Resolution | None:
        if len(offered) < 2:
            return None
        disliked = ""
        # In the order said: "the spinach one's a no … the kids are not into heat".
        for match in sorted(
            [
                *EXCLUDED.finditer(message),
                *RULED_OUT.finditer(message),
                *TAKEN_OUT.finditer(message),
                *PASSED_ON.finditer(message),
            ],
            key=lambda m: m.start(),
        ):
            what = match["what"]
            if re.match(r"one of\b", what, re.I):
                continue  # "i don't have one of those": a thing the user lacks, no recipe
            if match["clause"].lower().split()[0] in ("no", "without") and NEEDS_NO.search(
                message[: match.start("clause")]
            ):
                continue  # "which ones have no dairy", "a strict no nuts policy": a need, said in a request
            if DURATION.match(what) and not re.search(r"\b(?:the|that|ones?)\b", match["clause"], re.I):
                continue  # "i dont have 3 hours": the user's time, not "the 8 hour one"
            if HAVE_ALL.search(message, 0, match.start()):
                continue  # "i've got all of that except the shaoxing wine": a food lacked
            dislike = bool(re.match(rf"^(?:{DISLIKE}|(?:i'?m )?not a fan)", match["clause"], re.I))
            pointed = None
            hated = HATED.search(message[: match.start()])
            if re.sub(r"\s+one$", "", what.lower()) in POINTER and (disliked or hated):
                # "not a fan of aubergine so skip that one", "she hates anchovies so not that one"
                what, dislike = disliked or (hated["food"] if hated else ""), True
            elif re.sub(r"\s+one$", "", what.lower()) in POINTER and (
                said := self.names.among(message[: match.start()], [r.id for r in offered])
            ):
                # "lasagna takes forever so i'm passing on that one": the one just named.
                pointed = self.recipes[said[-1]]
            elif re.sub(r"\s+one$", "", what.lower()) in POINTER and self._focus in offered:
                pointed = self._focus  # "apart from that one": the recipe in focus
            elif re.sub(r"\s+one$", "", what.lower()) in POINTER and (
                told := self._told_before(message[: match.start()], offered)
            ):
                # "i'm not organised enough for a 3 hour marinade so scratch that": the one the
                # words before it describe, by its title, tags or what the assistant said of it.
                pointed = told
            elif dislike:
                disliked = what
            plural = what.lower().endswith(" ones") or re.match(r"\s+ones\b", message[match.end("what") :])
            # "skip the pork ones" sets recipes aside by itself; "can i skip the wine?" is a
            # question about an ingredient.
            skipped = bool(plural) and match["clause"].lower().startswith("skip")
            # "grits are a hard pass … outta the pasta ones" too, but not beside an ordinal that
            # picks: "first 2 sound great (tartare is a no)".
            skipped = skipped or bool(
                match.groupdict().get("firmly")
                and not ORDINAL.search(message)
                # "tofu's a hard no. anything chicken?" asks anew; "… which pasta one" picks.
                and re.search(r"\bwhich\b|\bthe (?:[\w'-]+ )?ones?\b", message, re.I)
            )
            # "leaving the brazilian one aside … which of them": the set asked about after it.
            # "leave the milk out … would that ruin them" takes out an ingredient.
            skipped = skipped or bool(
                match.re is TAKEN_OUT
                and match["clause"].lower().endswith("aside")
                and SET_WORDS.search(message, match.end())
            )
            if not OTHERS.search(message) and not EXCLUSIVE.match(match["clause"]) and not skipped:
                continue
            end = match.end()
            one_with = ONE_WITH.match(message, match.start("what") - len("the "))
            relative = RELATIVE.match(message, match.start("what") - len("the "))
            by_clause = (
                (by_time(relative["clause"], offered) or told_apart(relative["clause"], offered, self._said))
                if relative
                else []
            )
            if pointed is not None:
                left_out = [pointed]
            elif 0 < len(by_clause) < len(offered) and relative is not None:
                # "def not the one that has to sit in the fridge for hours": by its data.
                left_out, end = by_clause, relative.end()
            elif one_with is not None:
                # "anything but the one with pork in it": every recipe of the set with pork.
                having = [r for r in offered if matches(one_with["what"], r)]
                without = one_with["how"].lower() in ("without", "w/o")
                left_out = [r for r in offered if r not in having] if without else having
                in_it = re.compile(r"\s+in (?:it|them)\b").match(message, one_with.end())
                end = in_it.end() if in_it else one_with.end()
            else:
                # "skip the pork ones": every one with pork, as a dislike leaves them all out.
                every = dislike or bool(plural)
                # Two words that name nothing may name something one at a time: "hot soup",
                # "spinach-heavy one".
                parts = [p for p in re.split(r"[\s-]+", what) if p.lower() not in ("one", "ones")]
                left_out = next(
                    (
                        found
                        for w in [what, *parts[:1], *parts[-1:]]
                        if (found := self._left_out(w, offered, every))
                    ),
                    [],
                )
            # "skip the chili and the soup": each one said.
            left_out, end = self._also_left_out(message, end, offered, left_out)
            if left_out and len(left_out) < len(offered):
                kept = [r for r in offered if r not in left_out]
                # The clause goes, with the words said after it ("pls", "last night").
                before = message[: match.start("clause")]
                if not ELLIPSIS_LEAD.sub("", before.strip(" ,;.:…—–-") + " ").strip():
                    before = ""  # "yeah so def not the 8 hour one": nothing said before it
                elif self.names.among(before, [r.id for r in left_out]):
                    # "lasagna takes forever so i'm passing on that one": why it goes, with
                    # its name, would search for it again.
                    before = ""
                rest = without_others(before + " " + message[end:])
                rest = re.sub(
                    r"^[\s,;.:…—–-]*(?:(?:of|from|among|so|and|then|everything|anything|lol|haha|lmao)\b)?"
                    r"[\s,;.:…—–-]*",
                    "",
                    rest,
                    flags=re.I,
                )
                rest = re.sub(r"\b(?:of|from|among)\s*(?=[,?]|$)", "", rest)
                # "my wife's pregnant so [the raw one is a hard no]. which …": no "so" left hanging.
                rest = re.sub(r"\s+(?:so|and|but|because|cos)\s*(?=[.,;!?])", "", rest, flags=re.I)
                rest = re.sub(r"\s*,\s*(?=[.;!?])", "", rest)
                question = considering([r.title for r in kept], rest, message)
                return Resolution(question, [r.id for r in kept], rule="exclusion")
        return self._others_than(message, offered)

    def _others_than(self, message: str, offered: list[Recipe]) -> Resolution | None:
        """ "the cabbage one is a bit late to start. are any of the rest ok?": the rest are
        the set without the one a sentence before them points at, however it is put aside."""
        rest = OTHERS.search(message)
        ends = [m.end() for m in PARTS.finditer(message) if rest and m.end() <= rest.start()]
        if rest is None or not ends:
            return None
        said = message[: ends[-1]]
        # "the egg drop thing sounds a bit too plain … of the rest": a thing, too.
        things = re.finditer(r"\bthe\s+(?P<what>(?:[\w'-]+\s+){0,2}[\w'-]+)\s+thing\b", said, re.I)
        pointed = [
            picked
            for m in [
                *(m for m in DESCRIBED.finditer(said) if re.search(r"\bones?$", m.group(0), re.I)),
                *things,
            ]
            if len(picked := described(m["what"], offered, self._said)) == 1
        ]
        named = self.names.among(said, [r.id for r in offered])
        left_out = pointed[0] if len(pointed) == 1 else [self.recipes[named[0]]] if len(named) == 1 else []
        if not left_out:
            return None
        kept = [r for r in offered if r not in left_out]
        # Its name would search for it again: the sentence that names it goes.
        text = message[ends[-1] :] if named else message
        question = considering([r.title for r in kept], without_others(text).strip(), message)
        return Resolution(question, [r.id for r in kept], rule="exclusion")

    def _ordinal(self, message: str, offered: list[Recipe]) -> Resolution | None:
        if len(offered) == 1 and (only := ORDINAL.search(message)) is not None:
            # "how long does the first one take?" after one recipe offered: that one.
            said_one = re.search(r"\b(?:one|recipe|option|dish)$", only.group(0), re.I)
            if (
                said_one
                and only["which"]
                and ORDINALS[only["which"].lower()] in (0, -1)
                and not only["count"]
            ):
                replaced = message[: only.start()] + the([offered[0].title]) + message[only.end() :]
                return Resolution(finish(replaced, message), [offered[0].id], rule="ordinal")
        if len(offered) < 2:
            return None
        if (pair := ORDINAL_PAIR.search(message)) is not None and len(offered) > 2:
            at = [ORDINALS[pair[n].lower()] for n in ("first", "second")]
            if all(-len(offered) <= n < len(offered) for n in at):
                picked = [offered[n] for n in sorted({n % len(offered) for n in at})]
                replaced = message[: pair.start()] + the([r.title for r in picked]) + message[pair.end() :]
                return Resolution(finish(replaced, message), [r.id for r in picked], rule="ordinal")
        if (bare := BARE_NUMBERS.match(message)) is not None and self._items:
            numbers = [int(n) for n in (bare["first"], bare["second"]) if n]
            items = [self._items.get(n) for n in numbers]
            if all(items):
                picked = [self.recipes[i] for i in items if i]
                replaced = (
                    the([r.title for r in picked])
                    + message[bare.end("second" if bare["second"] else "first") :]
                )
                return Resolution(finish(replaced, message), [r.id for r in picked], rule="ordinal")
        # Every ordinal of the message: "the last one calls for mince … or the first one instead".
        spans: list[Span] = []
        for match in ORDINAL.finditer(message):
            # "that last one" goes whole: "the Pickled Red Onions".
            # "the one second from the bottom" goes whole too.
            pointer = re.search(
                r"\b(?:that|this|the (?:one|recipe|dish))\s+$", message[: match.start()], re.I
            )
            # "2nd one can i…" points as "the second one" does.
            said_one = re.search(r"\b(?:one|recipe|option|dish|suggestion)s?$", match.group(0), re.I)
            # "should've said this first" without "one": "first" is a word of the sentence.
            pointed = (
                match.group(0).lower().startswith("the")
                or said_one is not None
                or (pointer is not None and pointer.group().lower().startswith("the"))
            )
            if not (match["number"] or match["letter"]) and not pointed and not match["count"]:
                # A bare "first" or "last" is a word of the sentence ("what do I do first?").
                continue
            if match["which"] and not said_one and self._food_follows(message[match.end() :], offered):
                continue  # "we used the last eggs": the last of a food, not of the list
            # "going back to ur list - number 3" after a side answer that named two: the list
            # that has a third.
            lists = [(offered, self._items), *((earlier, {}) for earlier in self._earlier)]
            picked = next(
                (p for candidates, items in lists if (p := self._picked(match, candidates, items))), []
            )
            if picked:
                start = pointer.start() if pointer else match.start()
                spans.append((start, match.end(), [r.title for r in picked], picked))
        return replaced_spans(message, spans, "ordinal") if spans else None

    def _told_before(self, before: str, offered: list[Recipe]) -> Recipe | None:
        """The one recipe of the set that the sentence before a pointer describes: "not
        organised enough for a 3 hour marinade so scratch that". What the user lacks ("i dont
        have a smoker") describes the dish that needs it."""
        sentence = re.split(r"[.!?]\s+", before)[-1]
        picked = told_apart(sentence, offered, self._said, negations=False, closely=True)
        return picked[0] if len(picked) == 1 < len(offered) else None

    @staticmethod
    def _food_follows(rest: str, offered: list[Recipe]) -> bool:
        following = re.match(r"\s+([\w'-]+)", rest)
        return following is not None and any(
            key(following[1]) in keys_of(tuple(r.ingredients)) for r in offered
        )

    def _also_left_out(
        self, message: str, end: int, offered: list[Recipe], left_out: list[Recipe]
    ) -> tuple[list[Recipe], int]:
        """The recipes set aside after the first, joined to it ("skip the chili and the soup"),
        and where the last of them ends."""
        while left_out and (JOINED.search(message[:end]) or JOINED.search(message[end:])):
            also = ALSO_LEFT_OUT.match(message, end)
            said = [also["what"], *also["what"].split()] if also else []
            more = next((found for w in said if (found := self._left_out(w, offered, False))), [])
            if also is None or not more:
                break
            left_out, end = [*left_out, *(r for r in more if r not in left_out)], also.end()
        return left_out, end

    def _left_out(self, what: str, offered: list[Recipe], every: bool) -> list[Recipe]:
        """The recipes of the set that `what` sets aside: `every` one it fits (a dislike, "the
        pork ones"), or the one it fits best."""
        if re.search(r"\boven\b", what, re.I):
            return [r for r in offered if "oven" in facts(r)]  # "anything that goes in an oven"
        if every:
            # "I don't eat pork" leaves out every recipe with any pork in it; "not the cold
            # ones", every one the catalog or the assistant says is cold.
            wanted = {key(w) for w in words(what)} - {key("ones"), key("one")}
            said = {i: {key(w) for w in words(self._said.get(i, ""))} for i in self._said}
            return [r for r in offered if matches(what, r) or (wanted and wanted <= said.get(r.id, set()))]
        if ordinal := (
            ORDINAL.fullmatch(what)
            or ORDINAL.fullmatch(f"the {what} one")
            or ORDINAL.fullmatch(f"number {what}")
        ):
            return self._picked(ordinal, offered)  # "everything except the 2nd one"
        # By its name, by a word of its own among the set ("the pancakes"), by its data.
        named = self.names.named(f"the {what}")
        among = self.names.among(what, [r.id for r in offered])
        return (
            [r for r in offered if r.id in named]
            or [r for r in offered if r.id in among]
            or described(what, offered, self._said)
        )

    def _picked(
        self, match: re.Match[str], offered: list[Recipe], items: Mapping[int, str] | None = None
    ) -> list[Recipe]:
        """The recipes an ordinal picks from the set: "the second one", "the first two",
        "number 4" (in a list, the items so numbered: `items`, by default the set's)."""
        items = self._items if items is None else items
        if match["number"] or match["letter"]:
            # "option B" is the second.
            number = match["number"] or str(ord(match["letter"].lower()) - ord("a") + 1)
            start, count = NUMBER_WORDS.get(number.lower(), 0) or int(number), 1
            start -= 1
        else:
            start, count = ORDINALS[match["which"].lower()], COUNTS.get((match["count"] or "").lower(), 1)
        by_number = [items.get(n) for n in range(start + 1, start + 1 + count)]
        if start >= 0 and all(i is not None for i in by_number):
            # An item that names no catalog recipe picks none: never the next one along.
            return [r for i in by_number for r in offered if r.id == i] if all(by_number) else []
        if start == -1:
            return offered[-count:]
        return offered[start : start + count] if start < len(offered) else []

    def _description(self, message: str, offered: list[Recipe]) -> Resolution | None:
        other = re.search(r"\bthe other (?:one|recipe|dish)\b", message, re.I)
        if other and len(offered) == 2 and (focus := self.in_focus(offered)) is not None:
            [the_other] = [r for r in offered if r is not focus]
            replaced = message[: other.start()] + the([the_other.title]) + message[other.end() :]
            return Resolution(finish(replaced, message), [the_other.id], rule="description")
        # "whichevers quicker of the two - can i use frozen shrimp for that one"
        if (whichever := WHICHEVER.search(message)) and (
            resolution := self._picked_by(
                message, whichever, by_time(whichever.group(), offered) or [], offered
            )
        ):
            return resolution
        # "the one …" picks from the set in view, or else from a list before it: "the one with
        # the coconut milk" after a side answer about two of the dishes.
        for candidates in (offered, *self._earlier):
            if len(candidates) > 1 and (resolution := self._the_one(message, candidates)) is not None:
                return resolution
        unread = False
        # Every description of the message: "the spanish one!! … or the italian one instead".
        spans: list[Span] = []
        for match in sorted(
            [*TOLD_DESCRIBED.finditer(message), *DESCRIBED.finditer(message), *BARE_ONE.finditer(message)],
            key=lambda m: (m.start(), m.re is not TOLD_DESCRIBED),
        ):
            said_one = re.search(r"\b(?:one|recipe|dish)s?$", match.group(0), re.I)
            if spans and (not said_one or any(s < match.end() and match.start() < e for s, e, *_ in spans)):
                continue  # after a first, only "the … one": "sub chicken for the beef" is food
            what = match["what"]
            after = re.match(rf"\s+(?!(?:{AFTER_DESCRIPTION})(?![\w'-]))[\w'-]", message[match.end() :], re.I)
            if not said_one and after:
                continue  # "a trip to the asian store": "the asian" describes the store
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
            if re.search(r"\b(?:like|similar to|than)\s+$", message[: match.start()], re.I):
                continue  # "something like the swedish ones" compares; it picks none
            # "ok back to the side dish thing", "which of the sauces you mentioned", "out of the
            # chicken ones you listed": the list, by what it is; "back to the main" is one.
            back = re.search(r"\bback to\s+$", message[: match.start()], re.I)
            if (back and len(described(what, offered, self._said)) > 1) or (
                (what.lower().endswith("s") or re.search(r"\bones$", match.group(0), re.I))
                and re.match(
                    r"\s+(?:that\s+)?(?:you|u)(?:'ve)?\s+(?:listed|mentioned|gave|said|suggested|named|recommended)\b",
                    message[match.end() :],
                    re.I,
                )
            ):
                return Resolution(
                    considering([r.title for r in offered], message, message),
                    [r.id for r in offered],
                    rule="set",
                )
            if re.search(r"\b(?:without|instead of|no|sub|swap|replace)\s+$", message[: match.start()], re.I):
                continue  # "can i make it without the pork": an ingredient, not a dish
            if set(words(what)) & (QUICK | SLOW) and not re.search(
                r"\b(?:one|recipe|dish)s?$", match.group(0), re.I
            ):
                # "Which is the quickest to cook?" ranks the set; "the quicker one" names one.
                continue
            if not re.search(r"\bones?$", match.group(0), re.I) and self._names_within(message, match):
                continue  # a title, in full or begun here ("the Lithuanian Cold Borscht")
            if (
                not said_one
                and self._focus is not None
                and {key(w) for w in words(what)} <= keys_of(tuple(self._focus.ingredients))
            ):
                continue  # "when do i put the cream on" of the Pavlova in focus: its ingredient
            dishes = {w for w in words(what) if w in DISHES or f"{w}s" in DISHES or w in MAINS}
            if any(not described(w, offered, self._said) for w in dishes):
                continue  # "whats the quickest pancake recipe u got": no pancake was offered
            picked = described(what, offered, self._said)
            if not picked or (len(picked) == len(offered) and len(offered) > 1):
                unread = unread or bool(said_one)
                continue
            # "the brazilian stew you mentioned": by what the assistant said of it.
            told = match.re is TOLD_DESCRIBED
            if (
                not re.search(r"\b(?:one|recipe|dish)s?$", match.group(0), re.I)
                and not told
                and matches(what, picked[0]) < 2
            ):
                continue  # "the liver spread in it" is an ingredient; "the soup" is a dish
            if not spans and re.match(r"^\s*which\b", SET_LEAD.sub("", message.strip()), re.I):
                # "Which is the vegan one?" asks to choose among the set: keep them all.
                return Resolution(
                    considering([r.title for r in offered], message, message),
                    [r.id for r in offered],
                    rule="description",
                )
            # "the vegan one - what should i stuff them with": the diet asked for stays said.
            kept = f"{what} " if DIET.fullmatch(what) else ""
            spans.append((match.start(), match.end(), [f"{kept}{r.title}" for r in picked], picked))
        first = min((start for start, _, _, _ in spans), default=0)
        if spans and (asked := SET_WORDS.search(message[:first])) and "?" in message[asked.end() : first]:
            # "which of these could she drink?? also is the irish coffee one strong": the set,
            # asked about first, holds the one described after.
            return None
        then = message[max((end for _, end, _, _ in spans), default=0) :]
        if spans and (stop := SENTENCE_END.search(then)) and SET_ASKED.search(then[stop.end() :]):
            # "the plov one sounds like a whole project. do any of them use leftover rice?":
            # the question after the remark asks about the set.
            return None
        if spans:
            return replaced_spans(message, spans, "description")
        if (relative := RELATIVE.search(message)) is not None and len(offered) > 1:
            # The set in view first, then the lists before it: "the one that doesn't need any
            # eggs" after a side question about two of the cookies.
            for candidates in (offered, *self._earlier):
                picked = by_time(relative["clause"], candidates) or told_apart(
                    relative["clause"], candidates, self._said
                )
                # "the one" goes; its clause stays said: "the Dulce de Leche where you throw
                # marbles in the pan".
                if (
                    resolution := self._picked_by(message, relative, picked, candidates, whole=False)
                ) is not None:
                    return resolution
            unread = True
        if unread and len(offered) > 1:
            # "the canadian one" points into the set even when the data can't tell which: the
            # search stays on the set, where the answer can, rather than drift to other dishes.
            return Resolution(
                considering([r.title for r in offered], message, message),
                [r.id for r in offered],
                rule="description",
            )
        return None

    def _the_one(self, message: str, offered: list[Recipe]) -> Resolution | None:
        """ "the one that doesnt need baking", "the one that makes 12", "the one with (no) X":
        the recipes of `offered` that fit, if some do and some don't."""
        if (not_made := NOT_MADE.search(message)) is not None:
            if not_made["raw"] or not_made["nocook"]:
                picked = [r for r in offered if "no-cook" in facts(r)]
            else:
                how = (not_made["how"] or not_made["no"] or not_made["without"]).lower()
                lacking = "fried" if "fr" in how else "oven"
                picked = [r for r in offered if lacking not in facts(r)]
            if (resolution := self._picked_by(message, not_made, picked, offered)) is not None:
                return resolution
        if (serving := SERVING.search(message)) is not None:
            picked = [r for r in offered if r.servings_count == int(serving["count"])]
            if (resolution := self._picked_by(message, serving, picked, offered)) is not None:
                return resolution
        if (with_match := ONE_WITH.search(message)) is not None:
            having = [r for r in offered if matches(with_match["what"], r)]
            how = with_match["how"].lower()
            without = how in ("without", "w/o", "with no", "that has no") or "have" in how
            picked = [r for r in offered if r not in having] if without else having
            if len(picked) > 1 and not without:
                # "the one with the white beans and greens": the words after the first tell
                # apart the recipes it fits.
                clause = RELATIVE_TAIL.match(message, with_match.start("what"))
                picked = told_apart(clause.group() if clause else "", picked, self._said)
            if picked and len(picked) < len(offered):
                # "the one with the anchovies, can i leave them out": what it has stays said.
                said_with = with_match.group(0)[len("the one ") :]
                replaced = (
                    message[: with_match.start()]
                    + f"{the([r.title for r in picked])} {said_with}"
                    + message[with_match.end() :]
                )
                return Resolution(finish(replaced, message), [r.id for r in picked], rule="description")
        return None

    def _names_within(self, message: str, match: re.Match[str]) -> bool:
        """Whether a recipe the message names by its title overlaps `match`."""
        first = len(TOKEN.findall(message[: match.start()]))
        last = first + len(TOKEN.findall(match.group(0)))
        return any(m.start < last and m.end > first for m in self.names.mentions(message))

    def _focus_rule(self, message: str, offered: list[Recipe]) -> Resolution | None:
        match = focus_pointer(message)
        if match is None:
            return None
        lacking = LACKING.search(message, 0, match.start())
        if lacking is not None and (
            match.group().lower() == "that" or LACKED_IT.search(message, 0, match.start())
        ):
            # "i don't have panko, is that a problem?", "there's no wine, can i just leave it out?":
            # "that" or "it" is the lack, a swap.
            return None
        set_words = SET_WORDS.search(message)
        named_set = set_words is not None and set_words.group().lower() not in ("they", "them")
        # "ok sold, gonna try it. … do all four of these freeze alright": the set, asked about
        # in the last sentence, after the remark that says "it".
        after = message[set_words.start() :] if set_words is not None else ""
        asked_later = (
            named_set
            and set_words is not None
            and re.search(r"[.!?]\s", message[match.end() : set_words.start()]) is not None
            and ("?" in after or not re.search(r"[.!]\s", after))
        )
        # "(and very dramatic about it) - which of those …": the "it" of an aside in brackets.
        in_aside = message.rfind("(", 0, match.start()) > message.rfind(")", 0, match.start())
        if set_words is not None and (
            self._focus is None
            or (named_set and in_aside)
            # "which of the four … if it's just swapping one thing": the set, asked about first;
            # but "they had it at aldi": "they" may be anyone.
            or (named_set and set_words.start() < match.start())
            or asked_later
        ):
            return None  # "all of those … or is it only the carnitas": the set, said as one
        if self.names.anywhere(message[: match.start()]):
            return None  # "the recipe for limoncello, and how long does it infuse": the one named
        if self._focus is not None and DISLIKED_BEFORE.search(message, 0, match.start()):
            ingredients = keys_of(tuple(self._focus.ingredients))
            if any(key(w) in ingredients for w in words(message[: match.start()])):
                return None  # "what can I use instead of spinach, they hate it": the food
        meant = self._meant(offered)
        if (swapped := self._swapped_in(message)) is not None:
            meant = [swapped]
        # "how long till its ready": "its" is written for "it's" as often as for the possessive.
        owned = "'s" if (match["pronoun"] or "").lower() == "its" else ""
        replaced = message[: match.start()] + the([r.title for r in meant]) + owned + message[match.end() :]
        if SERVE_IT_WITH.search(message, 0, match.start()) and (
            served := WITH_NEXT.match(message, match.end())
        ):
            # "what could I serve it with": "… serve with the Shakshouka", as the search reads
            # what goes with a dish.
            replaced = (
                f"{message[: match.start()]}with {the([r.title for r in meant])}{message[served.end() :]}"
            )
        return Resolution(finish(replaced, message), [r.id for r in meant], rule="focus")

    def _asked_anew(self, message: str, offered: list[Recipe]) -> Resolution | None:
        """A request of its own beside words about the recipes offered, which inherits what
        was asked: "these look nice but … anything with tofu instead?", or a remark and then
        a request in the last sentence, "bookmarking the dahl for tmrw. what about something
        sweet?"."""
        before, last = last_sentence(message.strip())
        joint = " "
        if " — " in last:
            # "those are all savoury — got a spanish sweet one?": a dash ends the remark too.
            said, joint, last = last.rpartition(" — ")
            before = f"{before} {said}".strip()
        body = ELLIPSIS_LEAD.sub("", last)
        # "… this giant bag of lentils, got anything with those": the request closes the message.
        closing = body.rpartition(", ")[2]
        if not before and closing != body and ASKED_ANEW.match(ELLIPSIS_LEAD.sub("", closing)):
            # "the pavlova looks pretty but this crowd is all about chocolate, got anything
            # chocolatey?": the remark is what comes before it.
            before, last = message.strip()[: -len(closing)].rstrip(" ,"), closing
            body, joint = ELLIPSIS_LEAD.sub("", closing), ", "
        additive = (
            ADDITIVE.match(body)
            or ADDITIVE.match(last.strip())
            or ASKED_ANEW.match(body)
            or ASKED_ANEW.match(last.strip())
            or ASKED_ANEW.match(closing)
            or re.match(
                r"(?:what|how) about\b|what (?:could|can|should) (?:i|we) (?:do|make|cook|bake)\b"
                # "those are all kinda sides tho, what could be the actual main?"
                r"|what (?:could|would|should|can) be (?:the|a) (?:actual |real |proper )?"
                r"(?:main|meal|dinner)\b",
                closing,
                re.I,
            )
            # "we literally had those yesterday lol. eggs? she'll eat eggs": a word or two asked.
            or re.match(r"\s*(?:[\w'-]+\s+)?[\w'-]+\s*\?", body)
            # "these are great. soups too?", "they wont touch seafood lol. beef?": a short request.
            or re.match(r"[\w' -]{1,30}\b(?:too|as well)\?", body, re.I)
            or (len(body.split()) <= 2 and body.rstrip().endswith("?"))
            or WHAT_THERE_IS.search(closing)
            or SAME_BUT.match(body)
        )
        # "the vegan one?" picks from the set; "got a spanish sweet one?" asks for another.
        # "… and do any need special equipment?" asks of the set too.
        picking = re.search(
            r"\b(?:the|that|this|which|each)\s+(?:[\w'-]+\s+){0,2}ones?\b|\bones? of\b"
            r"|^\W*(?:and\s+)?(?:do|does|are|is|can|will|would) any\b",
            body,
            re.I,
        )
        # "what could go with it, something sweet maybe": asks what goes with the dish in view.
        beside_it = SERVED_WITH.search(before) and focus_pointer(before)
        after_remark = before and additive and not picking and not beside_it
        if not (INSTEAD.search(message) or after_remark):
            return None
        carried = carry_over(message, self._history, self.names)
        # "something with rice so it's a full meal — any like that?" asks before the dash.
        pointing_back = re.search(r"\blike (?:that|this)\b", last, re.I)
        if (
            carried is None
            and after_remark
            and not pointing_back
            and (request := carry_over(last, self._history, self.names, said_with=message))
        ):
            # "i have a dozen eggs that need using before they expire tho — anything with eggs
            # in that same time frame?": the request after the remark inherits.
            asked = lower_first(request.question) if joint == ", " else request.question
            carried = replace(request, question=request_after(before, joint, asked, self.names))
        if carried is None and after_remark and self._remarked_on(before, last, offered):
            # "those are all savoury — got a spanish sweet one?" says again what it asks for
            # and inherits nothing; but it asks for another dish, not one of those.
            return Resolution(message, self.names.named(message))
        return carried

    def _remarked_on(self, before: str, last: str, offered: list[Recipe]) -> bool:
        """Whether only the remark points at the recipes offered, and the request after it asks
        for another dish ("a sweet one", "something with potato") and points at none."""
        return bool(
            SET_WORDS.search(before)
            and NEW_ONE.search(last)
            and not (SET_WORDS.search(last) or ORDINAL.search(last) or focus_pointer(last))
            and not {r.id for r in offered} & {*self.names.named(last)}
        )

    def _picked_by(
        self,
        message: str,
        pointer: re.Match[str],
        picked: list[Recipe],
        offered: list[Recipe],
        *,
        whole: bool = True,
    ) -> Resolution | None:
        """The pointer's words (or, not `whole`, its "the one") replaced by the recipes it
        picks, if it picks some, not all."""
        if not 0 < len(picked) < len(offered):
            return None
        end = pointer.end() if whole else pointer.start() + len(" ".join(pointer.group().split()[:2]))
        replaced = message[: pointer.start()] + the([r.title for r in picked]) + message[end:]
        return Resolution(finish(replaced, message), [r.id for r in picked], rule="description")

    def _swapped_in(self, message: str) -> Recipe | None:
        """ "can i make it with chicken instead of lamb?" after a turn about the raitha served
        with a Lamb Biriyani: the one recipe of the conversation that has lamb, if the recipe
        in focus has none."""
        said = re.search(r"\binstead of (?:the )?(?P<what>[\w'-]+)", message, re.I)
        if said is None or (self._focus is not None and matches(said["what"], self._focus)):
            return None
        having = [self.recipes[i] for i in self._named if matches(said["what"], self.recipes[i])]
        return having[0] if len(having) == 1 else None

    def _set(self, message: str, offered: list[Recipe]) -> Resolution | None:
        if (
            not SET_WORDS.search(message)
            or food_pointer(message, self.names)
            or people_pointer(message)
            or (len(offered) == 1 and not re.search(r"\b(them|they|those|these)\b", message, re.I))
        ):
            return None
        rest = SET_LEAD.sub("", message.strip())
        if OTHERS.search(message) and self._focus in offered and len(offered) > 1:
            # "and the others?" after a turn about one of them: the rest of the set.
            offered = [r for r in offered if r is not self._focus]
        return Resolution(
            considering([r.title for r in offered], rest, message), [r.id for r in offered], rule="set"
        )
