"""The constraints a follow-up inherits from earlier turns: diets, cuisine, kind of dish, time
limit, exclusions, each as the question reader reads them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from app.catalog.names import RecipeNames
from app.chat.references.phrasing import finish, lower_first, the
from app.chat.references.resolution import REFERRING, Resolution
from app.chat.references.vocabulary import (
    ADDITIVE,
    ASKS_ABOUT,
    CUISINES,
    DIET_WORDS,
    DISHES,
    DRINK,
    ELLIPSIS_LEAD,
    ELLIPTICAL,
    FOOD_IN_THEM,
    FOOD_POINTER,
    FULL_QUESTION,
    HEAD,
    MAINS,
    MEAL,
    MEAL_BEFORE,
    MEATS,
    MILD,
    MORE,
    MORE_THAT,
    NEEDS,
    ORDINAL,
    REQUEST,
    SAVOURY,
    SET_WORDS,
    SETTLING,
    SHORTHAND,
    SPICY,
    SUITS_SOMEONE,
    SWEET,
    SWITCH,
    WANTING,
    focus_pointer,
    last_sentence,
    moves_on,
    not_needed,
    people_pointer,
)
from app.http.bodies import Message
from app.search.accompaniments import SERVED_WITH
from app.search.filters import DIET_FLAGS
from app.search.intents import occasion_said, read_intents
from app.search.question_reader import KITCHENS, read_question, said_not_to_apply
from app.search.servings import people
from app.search.text import stem


@dataclass
class Constraints:
    diets: list[str] = field(default_factory=list)
    cuisine: str | None = None
    dish: str | None = None
    main: str | None = None  # the main ingredient asked for: "fish", "chicken"
    minutes: int | None = None
    exclude: list[str] = field(default_factory=list)
    kitchen: str | None = None  # "without an oven", "in a slow cooker"
    people: int | None = None  # "8 people over": how many it cooks for
    using: str | None = None  # a food to use up: "way too many apples"
    taste: str | None = None  # "spicy"
    occasion: str | None = None  # what the food is for: "for a kids birthday party"

    def tail(self) -> list[str]:
        """How the exclusions, the kitchen, the time limit and the guests are written after a
        question."""
        said = [f"without {e}" for e in self.exclude] + ([self.kitchen] if self.kitchen else [])
        said += [f"ready in under {duration(self.minutes)}"] if self.minutes is not None else []
        return (
            said
            + ([f"for {self.people} people"] if self.people else [])
            + ([f"using {self.using}"] if self.using else [])
            + ([self.occasion] if self.occasion else [])
        )

    def carried(self) -> list[str]:
        """Each request, as the rewrite reports what it carried."""
        return [*self.diets, *filter(None, [self.taste, self.cuisine, self.dish, self.main]), *self.tail()]

    def empty(self) -> bool:
        return not (
            self.diets
            or self.cuisine
            or self.dish
            or self.main
            or self.minutes is not None
            or self.exclude
            or self.kitchen
            or self.people
            or self.using
            or self.taste
            or self.occasion
        )


def duration(minutes: int) -> str:
    """A time limit as people say it: "30 minutes", "an hour", "2 hours"."""
    if minutes % 60:
        return f"{minutes} minutes"
    return "an hour" if minutes == 60 else f"{minutes // 60} hours"


def constraints(texts: Sequence[str], names: RecipeNames | None = None) -> Constraints:
    """What these user turns asked for; a later turn's cuisine or dish replaces an earlier one.
    `names` tells a food to use up ("way too many apples") from anything else ("loads of kids")."""
    found = Constraints()
    for text in texts:
        gluts = [*GLUT.finditer(text), *GLUT_AFTER.finditer(text)]
        glut = [
            f"{m['food']} {m['then']}" if m.re is GLUT and m["then"] and names.knows(m["then"]) else m["food"]
            for m in gluts
            if names is not None and names.knows(m["food"])
        ]
        found.using = next(iter(glut), found.using)
        filters = read_question(text).filters
        diets = [DIET_WORDS[f] for f in DIET_FLAGS if getattr(filters, f)]
        # "she's not keto" says no need, as "she's not vegan" says no diet.
        diets += [
            need
            for need, said in NEEDS.items()
            if any(not said_not_to_apply(text, m) for m in said.finditer(text))
        ]
        found.diets += [d for d in dict.fromkeys(diets) if d not in found.diets]
        if filters.max_total_minutes is not None:
            found.minutes = filters.max_total_minutes
        found.kitchen = next((said for kind, said in KITCHENS if kind.search(text)), found.kitchen)
        found.people = people(text) or found.people
        found.occasion = occasion_said(text) or found.occasion
        # "no oven" is said by the kitchen, not as an ingredient left out.
        kitchen = found.kitchen or ""
        bare = [(e, re.sub(r"^(?:the|an?) ", "", e)) for e in filters.exclude]
        # … and "non-alcoholic" or "nut-free" by the need, not again as "without alcohol" or
        # "without nuts"; nor "doesnt need baking" again beside "without an oven".
        said_by = f"{kitchen} {' '.join(found.diets)}"
        left_out = [
            e
            for e, thing in bare
            if not (
                thing in said_by
                or f"non-{thing}" in said_by
                or f"{thing.removesuffix('s')}-free" in said_by
                or (thing == "baking" and "oven" in kitchen)
            )
        ]
        for e in left_out:
            # "egg free … allergic to eggs" leaves eggs out once.
            if stem(e) not in {stem(x) for x in found.exclude}:
                found.exclude.append(e)
        said = [re.sub(r"-ish$", "", w) for w in re.findall(r"[\w-]+", text.lower())]  # "mexican-ish"
        found.cuisine = next((w.capitalize() for w in said if w in CUISINES), found.cuisine)
        # "something sweet for after" asks for a dessert, not a sweet curry.
        sweet = "dessert" if SWEET.search(text) else None
        # "vegan mains, and nothing with tofu", "no bread though": left out, not asked for.
        unwanted = {w for e in filters.exclude for w in e.split()}
        found.dish = next((w for w in said if w in DISHES and w not in unwanted), sweet or found.dish)
        found.main = next((w for w in said if w in MAINS and w not in unwanted), found.main)
        found.taste = None if MILD.search(text) else "spicy" if SPICY.search(text) else found.taste
    return found


def food_pointer(message: str, names: RecipeNames) -> bool:
    """Whether "those" or "them" points at a food the message itself names, or at the dishes it
    asks for ("what about ones with fruit in them?")."""
    foods = ("food", "liked", "loved", "made", "making", "spoiling", "hated")
    return bool(FOOD_IN_THEM.search(message)) or any(
        m["count"] or names.knows(next(m[said] for said in foods if m[said]))
        for m in FOOD_POINTER.finditer(message)
    )


DIGIT = re.compile(r"\d")
# A food the user has to use up: "way too many apples", "a huge tub of mushrooms".
GLUT = re.compile(
    r"\b(?:too many|too much|loads of|lots of|a glut of|tons of|heaps of|use up|using up|leftover|left over"
    r"|(?:huge|big|massive|whole) (?:bag|box|tub|bunch|pile|crate|tray|punnet|load|sack|jar)s? of)"
    # "leftover roast chicken": the second word is the food, when it is one.
    r"\s+(?P<food>[a-z]+)\b(?:\s+(?P<then>[a-z]+)\b)?",
    re.I,
)
# … and said after it: "8 zucchini to use up", "mushrooms that need using up".
GLUT_AFTER = re.compile(
    r"\b(?P<food>[a-z]+) (?:to use up|to get through|that need(?:s)? using up|going (?:off|bad))\b", re.I
)
EMOJI_STOP = re.compile(r"\s*[\U0001F300-\U0001FAFF\u2600-\u27BF]+\s+(?=\S)")
SAME_BUT = re.compile(
    r"^(?:the )?same(?: (?:deal|thing|again|idea|question|for|here"
    r"|(?:kind|sort|type|kinda|sorta) of thing|(?:kinda|sorta) thing))?,? but\s+",
    re.I,
)
# A statement of one's own: "I need a cold soup, ideally one made with kefir".
DECLARATIVE = re.compile(r"^(?:i|i'm|im|i'd|my|we|let's)\b", re.I)
# "a kombucha recipe" asks for one dish by its name; "a quick vegan recipe" for a kind of dish.
ONE_DISH = re.compile(
    r"\b(?:a|an)\s+(?P<what>(?:[\w'-]+\s+){1,3})recipe\b"
    # "do you have a recipe for danish risengrød?"
    r"|\ba recipe for (?P<named>[\w'-]+(?:\s+(?!for\b|with\b|that\b)[\w'-]+){0,2})",
    re.I,
)
GENERIC = frozenset({"good", "nice", "quick", "easy", "simple", "new", "different", "healthy", "cheap"})
# Words after "something" that say no quality of it: "something with", "anything where".
NOT_A_QUALITY = (
    "with|without|for|to|that|like|else|in|i|where|which|who|we|you|along|of|from|on|at|by"
    # "something a clueless dad can pull off": whoever makes it, no quality of the dish.
    "|a|an|the|my|our|someone|somebody"
)
# The question, and what follows it ("any with chicken? she loves chicken").
REMARK = re.compile(r"^(?P<question>.+?[?!])\s+(?P<remark>\S.*)$", re.S)


# A kind of dish asked for in a word or two: "what soups?", "which desserts?".
SHORT_ASK = re.compile(r"(?:what|which)\s+(?:[\w-]+\s+)?[\w-]+s\s*\?+$", re.I)


# A request said with a verdict on it: "something with squash would be ideal".
JUDGED = re.compile(
    r"\b(?:would be|'d be|will be|is|sounds|seems)\s+"
    r"(?:ideal|perfect|great|good|nice|best|amazing|lovely|fine)\b",
    re.I,
)
# Another course than the main: a starter or a side does not take the main's meat along.
COURSE = re.compile(r"\b(?:starters?|sides?|side dish(?:es)?|appetizers?|apps)\b", re.I)


def request_after(remark: str, joint: str, request: str, names: RecipeNames) -> str:
    """The request said after a remark, with the remark before it, unless the remark only
    speaks of the recipes offered ("shakshouka on saturday then.", "none of these r really
    filling tbh."): searched, it would find those recipes again. A remark that says a need
    ("my friend doesnt eat eggs.") stays."""
    said = constraints([remark], names)
    named = names.named(remark)
    needs = (
        said.diets or said.exclude or said.minutes or said.kitchen or said.people or said.using or said.taste
    )
    # A dish's title says a main or a cuisine; "they're demanding beef tho" asks for it.
    needs = needs or (not named and (said.main or said.dish or said.cuisine))
    if (named or SET_WORDS.search(remark)) and not needs:
        return request[:1].upper() + request[1:]
    return f"{remark}{joint}{request}"


CHOSEN = re.compile(r"\b(?:the )?[\w'-]+ one (?:sounds|looks|seems|it is)\b", re.I)


# Words that ask for a kind of dish, not a dish by its name: "a quick vegan recipe", "a
# recipe for something italian".
KINDS = (
    DISHES
    | CUISINES
    | GENERIC
    | {w for d in DIET_WORDS.values() for w in (d, d.replace("-", " "))}
    | {"something", "anything", "a", "an", "some", "breakfast", "brunch", "lunch", "dinner", "supper"}
)


def one_dish(message: str) -> bool:
    match = ONE_DISH.search(message)
    return match is not None and any(
        w not in KINDS for w in (match["what"] or match["named"]).lower().split()
    )


YES_NO = re.compile(r"^\W*(?:do|does|did|can|could|will|would|should)\b", re.I)


def lasting_switch(text: str) -> bool:
    """A change of topic the talk does not come back from; a side question is one aside."""
    switch = SWITCH.search(text)
    return switch is not None and not switch.group().lower().startswith("side ")


def topic_start(users: Sequence[str], names: RecipeNames) -> int:
    """Which of the user turns the last change of topic ("actually, forget that") is, or 0."""

    def about_one(text: str) -> bool:
        # "do arepas keep if i make a batch sunday?" asks about a dish said; it starts no topic.
        return bool(names.named(text, loose=True) or ASKS_ABOUT.search(text) or YES_NO.match(text))

    return max(
        (
            n
            for n, text in enumerate(users)
            if lasting_switch(text) or moves_on(text, users[:n], about_one) is not None
        ),
        default=0,
    )


def requests_since(since: int, history: Sequence[Message], names: RecipeNames) -> list[str]:
    """The user turns from the `since`-th on that asked for recipes, not about one."""
    users = [m.content for m in history if m.role == "user"]
    # The conversation's first message has nothing before it to ask about: "what can i chuck
    # in it" is about the slow cooker it has just named.
    return [
        text
        for n, text in enumerate(users[since:], since)
        if not names.named(text) and ((n == 0 and history[0].role == "user") or not ASKS_ABOUT.search(text))
    ]


def asked_for(history: Sequence[Message], names: RecipeNames) -> Constraints:
    """What the user asked for since the last change of topic ("actually, forget that"), not
    what they asked about: "Is it vegetarian?" or "Is the Shakshouka vegan?" asks about one
    recipe and sets no diet for what follows."""
    users = [m.content for m in history if m.role == "user"]
    since = topic_start(users, names)
    asked = requests_since(since, history, names)
    # "turkish one sounds nice": a recipe chosen, not a cuisine asked for.
    found = constraints([CHOSEN.sub(" ", text) for text in asked], names)
    # "quick breakfast, 20 min max" reads as the Quick Breakfast Spaghetti, but asks no question
    # about it: its needs are asked for all the same (its dish words may be the title's).
    for text in users[since:]:
        if names.named(text) and not (ASKS_ABOUT.search(text) or YES_NO.match(text) or "?" in text):
            needs = constraints([text], names)
            found.diets += [d for d in needs.diets if d not in found.diets]
            found.exclude += [e for e in needs.exclude if e not in found.exclude]
            found.minutes = found.minutes if found.minutes is not None else needs.minutes
            found.kitchen = found.kitchen or needs.kitchen
            found.people = found.people or needs.people
            # "need a quick breakfast for 4" asks for a breakfast, whatever title it also says.
            found.dish = found.dish or (needs.dish if needs.dish and MEAL.search(needs.dish) else None)
    return found


def refinement(
    message: str,
    body: str,
    mine: Constraints,
    earlier: Constraints,
    history: Sequence[Message],
    names: RecipeNames,
) -> Resolution | None:
    """ "no bread though, I'm off carbs" after "need a quick lunch, something with eggs": a food
    left out of the request before, which asked for a food or a meal that the carried words do
    not say; the request is asked again with it. (A diet may rule out the food asked for: "vegan
    please" after eggs is carried as before.)"""
    if not mine.exclude or head_of(body) or MEAL.search(message):
        return None
    if any([mine.dish, mine.main, mine.cuisine, mine.taste, mine.using, mine.occasion]) or earlier.dish:
        return None
    users = [m.content for m in history if m.role == "user"]
    asked = requests_since(topic_start(users, names), history, names)
    request = asked[-1] if asked else None
    if request is None or not (earlier.main or MEAL.search(request)):
        return None
    question = finish(f"{request.strip().rstrip('?!. ')}, {lower_first(message.strip())}", message)
    kept = [c for c in earlier.carried() if c not in mine.carried()]
    return Resolution(question, names.named(question), kept, rule="carry-over")


# A "for" of the message's own: "for when it's warmer out", "for the grown-ups".
# When the food is eaten: "tonight", "tmrw", "on saturday", "this weekend".
WHEN = re.compile(
    r"\b(?:tonight|tonite|tomorrow|tmrw|tmr|today|(?:this |next )?weekend|next week"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b",
    re.I,
)
OWN_FOR = re.compile(
    r"\bfor (?:when|a|an|the|my|our|his|her|their)\b(?! (?:couple|few|bit|while|change)\b)", re.I
)


def singular(noun: str) -> str:
    """ "soups": "soup", "curries": "curry", "sandwiches": "sandwich"."""
    return re.sub(
        r"(?:(?<=ch|sh)es|(?<=x)es|ies|(?<![su])s)$", lambda m: "y" if m.group() == "ies" else "", noun
    )


def carry_over(
    message: str, history: Sequence[Message], names: RecipeNames, *, said_with: str = ""
) -> Resolution | None:
    """A follow-up that asks for recipes inherits what the user asked for earlier: an
    elliptical one ("and a dessert?") in its own words, a request said as a want ("we're more
    in the mood for fish") with the constraints after it. `said_with` is the remark the request
    was said in ("for the starter tho … maybe a chilled soup?")."""
    remarked = REMARK.match(message.strip())
    # "amazing thank you!! ok …" thanks; it asks nothing.
    if (
        remarked is not None
        and ELLIPSIS_LEAD.sub("", remarked["question"]).strip(" ?!.,")
        and "?" in remarked["question"]
    ):
        resolved = carry_over(remarked["question"], history, names, said_with=message)
        if resolved is not None:
            return replace(resolved, question=f"{resolved.question} {remarked['remark']}")
        # "she's vegetarian now?? so none of that works. what can she have": the request follows.
        if not REQUEST.search(remarked["remark"]):
            return None
    # An emoji ends a sentence as a stop does: "he's moving out 😂 shrimp maybe?".
    before, last = last_sentence(EMOJI_STOP.sub(". ", message.strip()))
    said_before = ELLIPSIS_LEAD.sub("", before).strip(" ?!.,")  # "perfect. and …" says nothing
    if said_before and ELLIPSIS_LEAD.sub("", last).strip(" ?!.,"):
        # "my friend doesnt eat eggs. what about dessert?", "these are great!! what about
        # desserts tho": the request is the last sentence.
        resolved = carry_over(last, history, names, said_with=message)
        if resolved is None:
            return None
        return replace(resolved, question=request_after(before, " ", resolved.question, names))
    before, _, last = message.strip().rpartition(", ")
    said_before = ELLIPSIS_LEAD.sub("", before).strip(" ?!.,")  # "cool, any veggie options?"
    # "… in a risotto mood now, got any?", "… a huge pot of soup going tho, what soups?".
    asked = ELLIPSIS_LEAD.sub("", last)
    asks = (ELLIPTICAL.match(asked) or SHORT_ASK.match(asked) or SAME_BUT.match(asked)) and (
        last.rstrip().endswith("?") or ADDITIVE.match(last)
    )
    if re.fullmatch(r"any\s*\?+", asked):
        last = "any ones?"  # "got any?": of the kind just said
    if said_before and asks and (resolved := carry_over(last, history, names, said_with=message)):
        # "my sister is coeliac, any gluten free ones?": the request after the remark.
        return replace(resolved, question=request_after(before, ", ", lower_first(resolved.question), names))
    # "w lentils", "w/ rice", "smth sweet": the shorthand, written out.
    message = re.sub(r"\bw/?(?=\s+[a-z])", "with", message, flags=re.I)
    message = re.sub(
        r"\bw/o?|[a-z]+", lambda w: SHORTHAND.get(w.group().lower(), w.group()), message, flags=re.I
    )
    if one_dish(message):
        return None  # a dish by its name ("do you have a kombucha recipe"): nothing to inherit
    definite = re.search(r"\bthe\s+(?:[\w'-]+\s+){0,2}ones?\b", message, re.I)
    pointing = SET_WORDS.search(message) and not food_pointer(message, names) and not people_pointer(message)
    if ORDINAL.search(message) or focus_pointer(message) or pointing or definite:
        return None  # a reference to recipes the catalog does not know: nothing to ground
    lead = ELLIPSIS_LEAD.match(message.strip())
    # "same deal but for breakfast?": what was asked, for breakfast.
    same = SAME_BUT.match(ELLIPSIS_LEAD.sub("", message.strip()))
    body = SAME_BUT.sub("", ELLIPSIS_LEAD.sub("", message.strip()))
    if not body.strip(" ?!.,"):
        return None  # "thanks!", "ok": nothing asked
    # "I need a cold soup, ideally one made with kefir" is a sentence of its own.
    one_anaphora = not DECLARATIVE.match(body) and re.search(
        # "a full meal in one go" counts, it points at no dish.
        r"\b(?<!which )(?<!this )(?<!that )(?<!no )ones?\b(?! (?:go|pot|pan|bowl|tray|sitting|person)\b)",
        body,
        re.I,
    )
    # "and breakfast in bed the morning after?" asks for more of the same, said short; but
    # "3 DAYS??" asks for nothing: a fragment says a food, a dish or a need.
    short = len(body.split()) <= (6 if lead and re.search(r"\band\b", lead.group()) else 4)
    says = not constraints([body], names).empty() or names.knows(body)
    short_fragment = (
        short and says and not (FULL_QUESTION.match(body) and not SHORT_ASK.match(body))
    ) or bool(same)
    # "the kids want pasta" is a sentence, however short.
    elliptical = (
        bool(ELLIPTICAL.match(body) or one_anaphora or short_fragment)
        and not WANTING.search(body)
        # "something vegetarian with squash would be ideal since it's autumn" is a sentence.
        and not JUDGED.search(body)
    )
    # "is there a risotto?" asks for a kind of dish, not for the Mushroom risotto.
    kind_asked = re.sub(r"\b(?:a|an|any|some)\s+[\w-]+\s*[?.!]*$", "", message, flags=re.I)
    requests = (
        REQUEST.search(body)
        or re.match(r"(?:is|are) there (?:a|an|any) [\w-]+\s*\?*$", body.strip(), re.I)
        # "… we always do some kind of potato thing too tho, is there a potato one that works".
        or re.search(r"\b(?:is|are) there (?:a|an|any) (?:[\w-]+ )?ones?\b", body, re.I)
    )
    if not elliptical and not (requests and not names.named(kind_asked, loose=True)):
        return None
    earlier = asked_for(history, names)
    mine = constraints([message], names)
    if other_occasion(mine.occasion, earlier.occasion):
        return None  # "also need a quick side for weeknights" after a christmas dessert: a new topic
    if (refined := refinement(message, body, mine, earlier, history, names)) is not None:
        return refined
    # "and a dessert?", "ok and any soups?": adds to what was asked.
    additive = bool(ADDITIVE.match(body.strip()) or same) or bool(
        lead and re.search(r"\b(?:and|also)\b", lead.group())
    )
    if mine.dish and not additive and SETTLING.search(message):
        # "ok, a pizza dough recipe then" settles for something else; "and a dessert?" or
        # "something for breakfast" adds to what was asked.
        return None
    users = " ".join(turn.content for turn in history if turn.role == "user")
    # "… so it's just me tonight. something easy for one person?": said in the remark too.
    another_day = any(
        not re.search(rf"\b{m.group()}\b", users, re.I) for m in WHEN.finditer(f"{said_with} {message}")
    )
    inherited = Constraints(
        # "she's not coeliac so normal pastry is fine": a diet said not to be needed is not kept.
        diets=[
            d for d in earlier.diets if d not in mine.diets and not not_needed(d, f"{said_with} {message}")
        ],
        cuisine=None if mine.cuisine else earlier.cuisine,
        # "and something for dinner?" after desserts asks for no dessert, nor does "what can I
        # do with lentils?": a main food makes no dessert (eggs can).
        dish=None
        if mine.dish
        # "ok and for lunch, something i can take to uni?": the meal may be said before the request,
        # in its sentence ("had pasta for lunch. anything with eggs?" asks for no other meal).
        or MEAL.search(re.split(r"[.!?]\s", said_with)[-1])
        or MEAL.search(message)
        or (earlier.dish == "dessert" and mine.main not in (None, "eggs"))
        else earlier.dish,
        # "fish tonight" … "any soups?" asks for fish soups; a dessert or a diet without meat
        # does not take the fish along.
        # "ones with rice" after chicken dinners: chicken dinners with rice; a starter or a side
        # is another dish.
        main=earlier.main
        if not COURSE.search(f"{said_with} {message}")
        and (
            mine.dish in SAVOURY
            or (mine.dish is None and (mine.cuisine or one_anaphora) and not MEAL.search(message))
        )
        and not mine.main
        and not {"vegetarian", "vegan"} & {*mine.diets}
        else None,
        # "and a quick side salad?" after "I've got 30 mins max": quick, and still 30 minutes.
        minutes=earlier.minutes
        if mine.minutes is None
        or (earlier.minutes is not None and earlier.minutes <= mine.minutes and not DIGIT.search(message))
        else None,
        exclude=[e for e in earlier.exclude if e not in mine.exclude],
        kitchen=None if mine.kitchen else earlier.kitchen,
        # "something quick for dinner tonight" after a bbq for 8 on saturday: other guests.
        people=None if mine.people or another_day else earlier.people,
        # "anything for breakfast too?" after too many apples: breakfasts with apples.
        # … but sides go with their dish, and "sweet with courgettes" says the food already.
        using=None
        if mine.using
        or SERVED_WITH.search(message)
        or (earlier.using and re.search(rf"\b{re.escape(earlier.using)}", message, re.I))
        else earlier.using,
        # "and something sweet?" after food for a kids birthday party: for that party still;
        # but "drinks for the grown-ups" says whom they are for, and sides go with their dish.
        occasion=None
        if mine.occasion or OWN_FOR.search(message) or SERVED_WITH.search(message) or another_day
        else earlier.occasion,
        # "any veggie ones?" after "make me sweat": still spicy; but no spicy dessert or drink.
        taste=earlier.taste
        if not mine.taste
        and not MILD.search(message)
        and mine.dish != "dessert"
        and not SWEET.search(message)
        and not DRINK.search(message)
        else None,
    )
    if mine.main in MEATS:
        # "what about chicken?" after vegetarian recipes asks for chicken: the user's word wins.
        inherited.diets = [d for d in inherited.diets if d not in ("vegetarian", "vegan")]
    if inherited.empty():
        return None
    if inherited == Constraints(occasion=inherited.occasion) and not (requests or head_of(body) or mine.dish):
        return None  # what the food is for goes with a request for food, not "and how long?"
    if not elliptical:
        # A sentence of its own: kept whole, with what it inherits after it.
        said = [
            *inherited.diets,
            *filter(None, [inherited.taste, inherited.cuisine, inherited.main, inherited.dish]),
            *inherited.tail(),
        ]
        question = finish(f"{message.strip().rstrip('?!. ')} ({', '.join(said)})", message)
        return Resolution(question, names.named(question), inherited.carried(), rule="carry-over")
    adjectives = " ".join(filter(None, [inherited.taste, *inherited.diets, inherited.cuisine]))
    body = re.sub(r"^(?:what|how) about\s+", "", body, flags=re.I)
    head_match = head_of(body)
    dish_said = asked_dish(body)
    vague = head_match is not None and head_match.group().lower() in ("something", "anything")
    if vague and dish_said and head_match and dish_said.start() < head_match.start():
        head_match = None  # "and a cake, something a clueless dad can pull off": the cake is asked for
    if head_match:
        plural = head_match.group().lower() not in ("one", "recipe", "dish", "idea")
        noun = inherited.dish or ("recipes" if plural else "recipe")
        if not plural:
            noun = singular(noun)  # "a lentil one" after soups: "a … lentil soup"
        elif MEAL.fullmatch(noun):
            noun = f"{noun} recipes"  # "any sweet ones?" after a breakfast: "sweet breakfast recipes"
        end = head_match.end()
        if drink := re.match(r"\s+to drink\b", body[end:], re.I):
            noun, end = "drinks", end + drink.end()  # "something to drink": drinks
        # "something sweet": the quality goes before the noun ("sweet vegetarian recipes").
        # "anything more seafood-y": the quality after "more".
        quality = re.match(
            rf"\s+(?:(?:a bit |a little )?more\s+)?(?!(?:{NOT_A_QUALITY})\b)([a-z-]+)", body[end:], re.I
        )
        if head_match.group().lower() in ("something", "anything") and (
            other := re.match(r"\s+else\b", body[end:], re.I)
        ):
            adjectives, end = f"other {adjectives}".strip(), end + other.end()
        elif head_match.group().lower() in ("something", "anything") and quality:
            adjectives, end = f"{quality.group(1)} {adjectives}".strip(), end + quality.end()
        start = head_match.start()
        if meal := MEAL_BEFORE.search(body[:start]):
            # "breakfast ideas", "for lunch, something …": "vegan breakfast recipes".
            noun, start = f"{meal['meal']} {noun}", meal.start()
        # "something mexican-ish?" after ground beef: "mexican-ish beef recipes".
        main = re.sub(r"(?<=[^s])s$", "", inherited.main or "")
        # "a lentil one": "a vegetarian lentil soup", the request's own words nearest the noun.
        own = re.search(r"\b(?:an?|any|some)\s+((?:[\w'-]+\s+){1,2})$", body[:start], re.I)
        if own and adjectives and head_match.group().lower() in ONES and not MEAL_BEFORE.search(body[:start]):
            article = "an" if adjectives[0].lower() in "aeiou" else "a"
            kept = own.group().lower().startswith(("a ", "an "))
            before = body[: own.start()] + f"{article} " if kept else body[: own.start(1)]
            body = f"{before}{adjectives} {own.group(1)}{' '.join(filter(None, [main, noun]))}{body[end:]}"
        else:
            head = " ".join(filter(None, [adjectives, main, noun]))
            body = body[:start] + head + body[end:]
    elif dish_said is not None:
        dish = dish_said.group().lower()
        # "lentils" before a dish is "lentil": "a lentil curry".
        main = re.sub(r"(?<=[^s])s$", "", inherited.main or "")
        qualified = " ".join(filter(None, [adjectives, main, dish]))
        # "a dessert" with "Indian" before it is "an Indian dessert".
        an = "an" if qualified[0].lower() in "aeiou" else "a"
        before = re.sub(r"\b(?:an?)\s+$", f"{an} ", body[: dish_said.start()], flags=re.I)
        body = before + qualified + body[dish_said.end() :]
        body = re.sub(r"^for\s+", "", body, flags=re.I)  # "and for dessert?": vegan dessert
    else:
        head = " ".join(filter(None, [adjectives, inherited.dish or "recipes"]))
        body = re.sub(r"^(?:any|some)\s+(?=with(?:out)?\b)", "", body, flags=re.I)
        joined = "" if re.match(r"^(?:with|without|for|in|under|from)\b", body, re.I) else "with "
        body = f"{head} {joined}{body}"
    if not re.match(r"^(?:what|how|is|are|any|do|does|can)\b", body, re.I):
        # A cuisine put first keeps its capital: "What about Mexican recipes with …".
        first = body.split(" ", 1)[0].lower()
        body = f"What about {body if first in CUISINES else lower_first(body)}"
    tail = inherited.tail()
    question = body.rstrip(" ?.!") + (", " + ", ".join(tail) if tail else "")
    return Resolution(
        finish(question + "?", message), names.named(question), inherited.carried(), rule="carry-over"
    )


def other_occasion(said: str | None, before: str | None) -> bool:
    """Whether the food is for another occasion than the one asked before: "for weeknights"
    after "for christmas", but not "for the party" after "for my son's birthday party", nor
    "for packed lunch" after "for a lunchbox" (the lexicon's same intent)."""
    if not (said and before):
        return False
    filler = {"for", "a", "an", "the", "my", "our", "this", "next"}
    same_intent = {i.name for i in read_intents(said)} & {i.name for i in read_intents(before)}
    return not (set(said.split()) - filler) & (set(before.split()) - filler) and not same_intent


def asked_dish(body: str) -> re.Match[str] | None:
    """The kind of dish a request asks for ("and a dessert?"), not one it leaves out ("any
    without pasta?")."""
    return next(
        (
            m
            for m in re.finditer(r"[\w-]+", body)
            if m.group().lower() in DISHES
            and not re.search(r"\b(?:without|no|not)\s+$", body[: m.start()], re.I)
        ),
        None,
    )


# A "one" that stands for no recipe: a number before its noun ("i own like one saucepan") or
# a thing just said ("my blender died, can hummus be made without one").
NUMBER_ONE = re.compile(
    r"\s+(?!(?:with|without|that|which|for|i|we|you|please|pls|maybe|or|and|too|to|in|from|of|is|are"
    r"|then|instead|here|there|tonight|today|tomorrow|this|the|a|an|but|tho|though|lol|like|at|on)\b)[a-z]",
    re.I,
)
THING_ONE = re.compile(r"\bwithout\s+$", re.I)


ONES = ("one", "ones")


def head_of(body: str) -> re.Match[str] | None:
    """The word a request is said with ("something", "recipes", "a lentil one")."""
    return next(
        (
            m
            for m in HEAD.finditer(body)
            if m.group().lower() not in ONES
            or not (THING_ONE.search(body[: m.start()]) or NUMBER_ONE.match(body, m.end()))
        ),
        None,
    )


def beside(
    resolution: Resolution, message: str, history: Sequence[Message], names: RecipeNames
) -> Resolution:
    """A dish asked for beside a recipe ("and a starter to go with it?") keeps the diets,
    exclusions, kitchen and time asked for earlier: the coeliac guest eats the starter too."""
    # The question as resolved: "what would go well on the side?" is beside the recipe in focus.
    if not SERVED_WITH.search(resolution.question):
        return resolution
    asked = asked_for(history, names)
    # The sides go with the dish, whatever the dish is for or uses up.
    kept = replace(asked, cuisine=None, dish=None, main=None, taste=None, occasion=None, using=None)
    # What the question says already is not said twice: "any vegan sides, alongside …".
    unsaid = [c for c in kept.carried() if c.lower() not in resolution.question.lower()]
    return said_after(resolution, unsaid, message)


def for_whom(
    resolution: Resolution, message: str, history: Sequence[Message], names: RecipeNames
) -> Resolution:
    """ "Is the pavlova safe for him?" after "he's coeliac" asks whether it is gluten-free: the
    needs said earlier are what "safe" means."""
    if not SUITS_SOMEONE.search(message):
        return resolution
    needs = [d for d in asked_for(history, names).diets if d not in constraints([message], names).diets]
    return said_after(resolution, needs, message)


def around_them(
    resolution: Resolution, message: str, history: Sequence[Message], names: RecipeNames
) -> Resolution:
    """A question about the dishes offered keeps whom and what they were offered for: "would
    any of them survive a few hours in the car?" at a picnic for 10. Not the diets, exclusions
    or time limit: the dishes were offered under those, and said again they would read as the
    question ("…, vegetarian" asks which of them is vegetarian)."""
    if (
        resolution.rule not in REFERRING
        or not resolution.recipe_ids
        or SERVED_WITH.search(resolution.question)
    ):
        return resolution  # what goes with a dish goes with it whatever it is for (`beside`)
    if not any(people(m.content) or occasion_said(m.content) for m in history if m.role == "user"):
        return resolution  # nobody said whom or what for: the reading of the requests is spared
    asked, mine = asked_for(history, names), constraints([message], names)
    wanted = [f"for {asked.people} people"] if asked.people and not mine.people else []
    wanted += [asked.occasion] if asked.occasion and not mine.occasion else []
    kept = [said for said in wanted if said.lower() not in resolution.question.lower()]
    question, mark, remark = resolution.question.rpartition("?")
    if not (kept and question and remark.strip()):
        return said_after(resolution, kept, message)
    # "what oven temp for the Granola? mine runs hot": said with the question, before the remark.
    question = f"{question}, {', '.join(kept)}{mark}{remark}"
    return replace(resolution, question=question, carried=[*resolution.carried, *kept])


def said_after(resolution: Resolution, carried: list[str], message: str) -> Resolution:
    """The resolved question with these requests said after it ("…, vegan?"), and reported as
    carried; the same question when there are none."""
    if not carried:
        return resolution
    question = finish(f"{resolution.question.rstrip(' ?!.')}, {', '.join(carried)}", message)
    return replace(resolution, question=question, carried=[*resolution.carried, *carried])


def others(
    message: str, history: Sequence[Message], offered: Sequence[str], names: RecipeNames
) -> Resolution | None:
    """ "What else?" after a list: more recipes of what the user asked for, besides those; "…
    no tins no paste no nothing. what else is there that doesnt need tomatoes": with the need
    said, after the remark; "she also cant do tomatoes 🍅🚫 any others?": an emoji ends it too."""
    remark, last = last_sentence(EMOJI_STOP.sub(". ", message.strip()))
    more = MORE_THAT.match(last.strip())
    told = REMARK.match(message.strip())
    after = False  # whether the remark follows the request
    # "oh wait she's allergic to peanuts. give me a couple others pls": the need, then more;
    # "what else u got? she hates almonds": more, then the need.
    if MORE.match(message.strip()):
        remark = ""
    elif not (more or (remark and MORE.match(last.strip()))):
        if told is None or not MORE.match(told["question"]):
            return None
        remark, after = told["remark"], True
    if not offered:
        return None
    asked = asked_for(history, names)
    if more or remark:
        mine = constraints([more["rest"] if more else remark], names)
        asked.diets += [d for d in mine.diets if d not in asked.diets]
        asked.exclude += [e for e in mine.exclude if e not in asked.exclude]
        asked.minutes = mine.minutes if mine.minutes is not None else asked.minutes
        asked.kitchen = mine.kitchen or asked.kitchen
    kind = " ".join(
        # "What other vegetarian curry recipes are there", not "curry are there".
        filter(None, [asked.taste, *asked.diets, asked.cuisine, asked.main, asked.dish, "recipes"])
    )
    question = f"What other {kind} are there besides {the([names.titles[i] for i in offered])}"
    question += "".join(f", {said}" for said in asked.tail()) + "?"
    if after:
        question = f"{question} {remark}"
    elif remark:
        question = request_after(remark, " ", question, names)
    return Resolution(question, [], asked.carried(), rule="more")
