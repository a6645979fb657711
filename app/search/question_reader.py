"""Filters read from a standalone question: diets, a time limit, and what to leave out.

"Beef but not stew" must never return a stew: the exclusion becomes a filter inside the
search engine. The phrases that became filters leave the text that is searched: an excluded
word would pull stews up, and a diet or a time limit, which every filtered recipe meets,
would only add noise. A deterministic reader serves every provider; it acts only on
phrasings it is sure of, because a wrong filter hides the right recipe.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Protocol

from pydantic import BaseModel, TypeAdapter, ValidationError

from app.prompts import prompt
from app.providers.protocols import ChatModel
from app.recipes import MAX_MINUTES
from app.search.filters import MAX_EXCLUDED, Excluded, RecipeFilters
from app.search.intents import intent_names, intents, named_intents, read_intents, with_intents
from app.search.text import fold, stem, with_other_names

log = logging.getLogger(__name__)

# The negations people type before what they eat, as they type them: "doesnt", "do not".
NEGATED = r"don't|dont|doesn't|doesnt|do not|does not|can't|cant"
# A diet said as a refusal: "they can't have gluten or dairy", "off dairy", "doesn't eat meat".
REFUSING = (
    rf"(?:(?:{NEGATED}|cannot|can not|won't|no longer|never)"
    r" (?:have|eat|eats|do|tolerate|digest|touch)|off|avoids?|avoiding|nothing with|allergic to)"
    r" (?:any )?(?:[a-z]+(?:,| or| and|/) ?){0,3}"
)
DIETS = {
    "vegan": rf"vegan|veganuary|plant[- ]based|{REFUSING}animal(?: products)?",
    "vegetarian": rf"vegetarian|veggie|meatless|meat[- ]free|without (?:any )?meat|no meat|{REFUSING}meat",
    "gluten_free": rf"gluten[- ]free|without gluten|no gluten|coeliac|celiac|{REFUSING}(?:gluten|wheat)"
    r"|(?:gluten|wheat)[- ](?:intoleran|allerg)\w*",
    "dairy_free": r"dairy[- ]free|without dairy|no dairy|lactose[- ]free|without milk|no milk"
    rf"|{REFUSING}(?:dairy|milk|lactose)|(?:lactose|dairy)[- ]intoleran\w*"
    # "my toddler has a dairy allergy", "cows milk protein allergy".
    r"|(?:dairy|milk|lactose|milk protein)[- ]allerg\w*",
}
# What denies the words before it: "a meal without meat isn't a meal".
DENIED = re.compile(r"\s+(?:isn'?t|is not|ain'?t)\s+(?:an?|real|proper)\b", re.I)
# A need said not to apply: "she's not coeliac so normal pastry is fine"; but "i'm not vegan but
# my partner is" asks for it.
NOT_BEFORE = re.compile(r"\b(?:not|isn'?t|aren'?t|no longer)\s+(?:an?\s+|strictly\s+|really\s+)?$", re.I)
BUT_AFTER = re.compile(r"\s*,?\s*(?:but|though|tho|although)\b", re.I)


def said_not_to_apply(text: str, need: re.Match[str]) -> bool:
    return bool(NOT_BEFORE.search(text, 0, need.start())) and not BUT_AFTER.match(text, need.end())


# One pattern a diet: "can't have gluten or dairy" says two, in words they share.
DIET_PHRASES = {name: re.compile(rf"\b(?:{words})\b", re.I) for name, words in DIETS.items()}

UNIT_MINUTES = {"m": 1, "h": 60}
AMOUNT = r"(?P<amount>\d+(?:\.\d+)?|half an?|an?)"
UNIT = r"(?P<unit>minutes?|mins?|hours?|hrs?|h)\b"
TIME_LIMITS = [
    # "under 30 minutes", "in half an hour", "within 2 hours"
    re.compile(
        rf"\b(?:under|less than|within|in|at most|no more than|max(?:imum)?|below|up to"
        rf"|(?:can't|cannot|can not|don't want to|won't) (?:spend|take|cook(?: for)?) (?:more than|over))\s+"
        rf"(?:an?\s+)?{AMOUNT}?\s*{UNIT}",
        re.I,
    ),
    # "an hour max", "40 minutes or less", "20 mins tops"
    re.compile(rf"\b{AMOUNT}\s*{UNIT}\s*(?:max(?:imum)?|or less|tops|at most|at the most)\b", re.I),
    # "I only have 40 minutes", "got 10 minutes", "I've literally got 10 minutes"
    re.compile(
        rf"\b(?:only (?:have|got)|(?:i've|i have|i) (?:only |just |literally )?got|have only|have just"
        rf"|(?<=\bi )have|(?<=\bwe )have)\s+"
        # "i only have like 20 mins".
        rf"(?:about\s+|like\s+|around\s+|maybe\s+)?{AMOUNT}\s*{UNIT}",
        re.I,
    ),
    # "a 5 minute lunch", "30-minute dinners": the time as what kind of dish it is.
    re.compile(r"\b(?P<amount>\d+)[- ]?(?P<unit>minute|min|hour)(?=\s+[a-z])", re.I),
]
# Saying one is in a hurry sets the limit that "quick" means on most recipe sites.
HURRY = re.compile(
    r"\b(?:short on time|in a hurry|in a rush|no time(?! limit)|quick(?:ly)?|fast"
    r"|(?:not|no|without) (?:much|a lot of|enough) time|pressed for time|tight on time"
    r"|(?:don'?t|do not) have (?:much|a lot of) time)\b",
    re.I,
)
HURRY_MINUTES = 30

# Any letter, not only a-z: "jalapeños" is read whole (and folded to "jalapenos"), and a word
# the filters cannot take is read whole too, so that it is dropped whole, with a note.
LETTER = r"[^\W\d_]"
WORD = rf"{LETTER}(?:{LETTER}|['-])*"
# One thing to leave out: a word, or two ("tomato sauce"), never running into the next clause.
ITEM = (
    rf"{WORD}(?:\s+(?!(?:and|or|nor|but|please|with|for|in|at|either|so|then|tbh|honestly|lol|tho|though"
    rf"|really|anyway|sorry|pls|at all|any|anything|others?|else|ideas?)\b){WORD})?"
)
AVOIDED = (
    r"nuts?|peanuts?|eggs?|soy|soya|sesame|shellfish|fish|seafood|pork|sugar|wheat|corn|coconut"
    r"|garlic|onions?|yeast|mustard|celery"
)
# "or sausage", ", nor tea": more things left out by the same "no" or "isn't".
MORE = rf"(?:\s*,?\s+(?:or|nor)\s+(?:any\s+)?{ITEM})"
# A kitchen without an oven: "our oven died", "only a hob", "no-bake". The recipes whose
# steps use one are left out (their facts say "oven", app/search/recipe_facts.py).
# "non-alcoholic drinks", "alcohol-free", "a mocktail": drinks with no alcohol in them; and a
# drink for children, said in words that are searched ("something to drink for the kids").
NO_ALCOHOL = re.compile(r"\b(?:non[- ]?alcoholic|alcohol[- ]free|booze[- ]free|virgin|mocktails?)\b", re.I)
FOR_CHILDREN = re.compile(
    r"\b(?:drinks?|something to drink) for (?:the )?(?:kids|children|little ones|toddlers)\b", re.I
)
# A day said as the day of the meal ("my mum's birthday is sunday"), not as a dish's name
# ("a sunday roast", the Sunday Morning Milkshake): not searched.
ON_A_DAY = re.compile(
    # "on sunday", and "a picnic sunday": the day; "a sunday roast" is a dish.
    r"(?:\b(?:on|this|next|by|is|it's|its|till|until|for|over)\s+)?\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b"
    r"(?!\s+(?:roast|lunch|dinner|brunch|breakfast|morning|supper|gravy|sauce|dessert|treat|special))",
    re.I,
)
NO_OVEN = re.compile(
    r"\b(?:no |without (?:an? |the |using the )?)oven\b"
    r"|\boven(?:'s|s)? (?:died|broke|(?:is |are )?(?:broken|dead|out|disconnected|busted|kaput|not working"
    r"|being (?:fixed|repaired)))"
    r"|\b(?:only|just) (?:have |has |got |needs? |uses? |a |the |one )*"
    r"(?:hob|stove ?top|stove|hot ?plate)s?\b"
    r"|\bhob[- ]only\b|\bone hot ?plate\b"
    r"|\bno[- ]bake\b"
    # "a dessert that needs no baking at all".
    r"|\b(?:no|without|needs? no|(?:doesn'?t|does not|don'?t|do not) need(?: any)?) baking\b",
    re.I,
)
# The kitchen a request is cooked in, as a rewrite writes it after the question: the first
# that matches. Only the oven is a filter; the others are searched (recipe facts).
KITCHENS = (
    (NO_OVEN, "without an oven"),
    (re.compile(r"\bslow[- ]?cooker|\bcrock[- ]?pot", re.I), "in a slow cooker"),
    (re.compile(r"\bair[- ]?fryer", re.I), "in an air fryer"),
    # "one pot meals pls, i hate washing up": "one-pot" is a recipe fact, searched.
    (re.compile(r"\bone[- ](?:pot|pan)\b|\bsingle pot\b", re.I), "in one pot"),
    (re.compile(r"\b(?:instant pot|pressure cooker)", re.I), "in a pressure cooker"),
    # "what can i eat that doesn't need any cooking", "no-cook".
    (
        re.compile(
            r"\bno[- ]cook\b|\b(?:no|without|(?:doesn'?t|does not|don'?t|do not) need) (?:any )?cooking\b",
            re.I,
        ),
        "without cooking",
    ),
)
# "but not stew", "without mushrooms", "no bacon or sausage", "doesn't involve eggs",
# "a drink that isn't coffee or tea", "anything but beef", "nut-free".
EXCLUSION = re.compile(
    # "she's not big on lentils", "not a fan of olives".
    r"\b(?:not (?:big on|a (?:big |huge )?fan of|keen on|fond of)|but not|not|without|no|except|excluding"
    r"|minus"
    # "a pasta for a weeknight? nothing with seafood".
    r"|nothing (?:with|containing|that (?:has|contains))"
    r"|hold the|anything but|isn't|aren't"
    r"|(?:doesn'?t|does not|don'?t|do not|that isn't) (?:involve|include|have|use|contain|need)"
    # Said of the people eating: "they don't eat pork", "she can't have nuts", "allergic to eggs".
    rf"|(?:{NEGATED}|cannot|won't|wont|never)"
    r" (?:eat|eats|have|touch)"
    # "she also cant do tomatoes".
    r"|(?:can'?t|cannot) do"
    r"|avoids?|avoiding|allergic to|skip (?:any(?:thing)? )?(?:with|containing))"
    r"\s+(?:any\s+|a\s+|an\s+|the\s+)?"
    rf"(?P<what>{ITEM})(?P<more>{MORE}*)"
    rf"|\b(?P<free>{LETTER}+)-free\b"
    # "nut free obviously", "a peanut allergy": said with a space or as an allergy, only of the
    # foods people are allergic to or avoid ("feel free", "stress free" leave nothing out).
    rf"|\b(?P<allergen>{AVOIDED})(?: free\b|\s+allerg(?:y|ies|ic)\b)"
    # "a no-pork household"; "no-bake" is a kitchen, "no-knead" a manner.
    rf"|\bno-(?!(?:bake|knead|cook|fuss|brainer|frills)\b)(?P<nofree>{LETTER}+)\b",
    re.I,
)
# What is asked of a recipe just before a "without": "can it be made without", "make them without".
ASKED_OF_IT = re.compile(
    r"(?:\b(?:make|making|do|cook|bake|try)\s+(?:it|them|that|this)\s+|\bbe made\s+"
    r"|\b(?:it|they|that|this)\s+(?:still\s+)?(?:work|works|taste|tastes)\s+)$",
    re.I,
)
MORE_ITEM = re.compile(rf"(?:or|nor)\s+(?:any\s+|the\s+)?(?P<item>{ITEM})", re.I)
# Words after "no" or "not" that are a diet, a taste or a manner of speaking, not an ingredient.
NOT_EXCLUDABLE = {
    *("meat", "gluten", "dairy", "milk", "lactose", "vegan", "vegetarian", "veggie", "plant", "animal"),
    *("time", "more", "longer", "too", "very", "so", "really", "sure", "problem", "matter", "need"),
    *("spicy", "hot", "sweet", "heavy", "fancy", "complicated", "idea", "ideas", "one", "ones"),
    *("hard", "difficult", "expensive", "boring", "bad", "good", "great", "that", "it", "this"),
    *("sad", "bland", "plain", "basic", "fussy", "healthy", "weird"),
    # "without a long list of ingredients", "nothing with a million steps": how much, not what.
    *("long", "lot", "lots", "load", "loads", "ton", "tons", "heaps", "million", "many", "endless", "huge"),
    # "not feeling any of those", "not keen", "not fussed": a mood, not an ingredient.
    *("feeling", "keen", "into", "fussed", "bothered", "sold", "convinced", "excited", "hungry", "much"),
    "special",
    "help",
    # "breakfast ideas that aren't just toast": not only toast.
    *("just", "only", "simply"),
}
# Kitchen tools, which no ingredient list holds: "without a blender", "without the special pot"
# ask of the kitchen, not of the ingredients.
TOOLS = frozenset(
    {
        *("blender", "mixer", "processor", "pot", "pan", "skillet", "wok", "grill", "microwave", "machine"),
        *("thermometer", "fryer", "cooker", "steamer", "tin", "tray", "whisk", "scale", "scales"),
    }
)


@dataclass(frozen=True)
class ReadQuestion:
    """What to search for, and the filters the question asked for."""

    text: str
    filters: RecipeFilters
    # The everyday intents read from it (intents.json), whose words `text` holds.
    intents: tuple[str, ...] = ()


EXCLUDED = TypeAdapter(Excluded)


def checked_filters(
    diet: dict[str, bool], minutes: int | None, excluded: Sequence[str], notes: Sequence[str] = ()
) -> RecipeFilters:
    """Filters from what was read, keeping each part the filters take and dropping, with a
    note in `not_applied`, each part they refuse: reading a question never fails a request."""
    not_applied = list(notes)
    if minutes is not None and not 0 <= minutes <= MAX_MINUTES:
        not_applied.append(
            f"max_total_minutes: {shown(str(minutes), 12)} minutes is over the limit of {MAX_MINUTES}"
        )
        minutes = None
    kept: list[str] = []
    for phrase in excluded:
        try:
            word = EXCLUDED.validate_python(fold(phrase))
        except ValidationError:
            not_applied.append(
                f"exclude: {shown(phrase)} is not one to three plain words of 40 letters at most"
            )
            continue
        if word not in kept:
            kept.append(word)
    if len(kept) > MAX_EXCLUDED:
        dropped = ", ".join(shown(word) for word in kept[MAX_EXCLUDED:])
        not_applied.append(f"exclude: only {MAX_EXCLUDED} words can be left out; not applied: {dropped}")
        kept = kept[:MAX_EXCLUDED]
    return RecipeFilters(
        **diet, max_total_minutes=minutes, exclude=tuple(kept), not_applied=tuple(not_applied)
    )


def shown(text: str, limit: int = 40) -> str:
    """A piece of the question, short enough to repeat in a note."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


# A request reads the same texts more than once (the message, the resolver's rewrite, the
# rewrite searched), and the page sends its question twice: the reading is a pure function of
# the text, and its result immutable.
@lru_cache(maxsize=1024)
def read_question(question: str) -> ReadQuestion:
    text = question
    diet: dict[str, bool] = {}
    for name, said_as in DIET_PHRASES.items():
        for match in said_as.finditer(question):
            if DENIED.match(question, match.end()):
                continue  # "he thinks a meal without meat isn't a meal": no diet asked for
            text = text.replace(match.group(0), " ")
            if said_not_to_apply(question, match):
                continue  # "she's not coeliac": no diet asked for, nor searched
            diet[name] = True
    excluded: list[str] = []
    found = read_intents(question)
    for match in EXCLUSION.finditer(question):
        # "Bread with no kneading" asks for no-knead bread (an intent), not to leave out
        # recipes that say "knead".
        if any(intent.when.search(fold(match.group(0))) for intent in found):
            continue
        if ASKED_OF_IT.search(question, 0, match.start()) and match.group(0).lower().startswith("without"):
            continue  # "can it be made without the bacon?" asks about the recipe; it filters nothing
        more = list(MORE_ITEM.finditer(match["more"] or ""))
        items = [
            (match["what"] or match["free"] or match["nofree"] or match["allergen"] or "").lower().split(),
            *(m["item"].lower().split() for m in more),
        ]
        kept = [
            " ".join(words)
            for words in items
            if words
            and fold(words[0]) not in NOT_EXCLUDABLE
            and not TOOLS.intersection(words)
            # "she's not coeliac": a need said not to apply, no food left out.
            and not any(diet.fullmatch(" ".join(words)) for diet in DIET_PHRASES.values())
        ]
        if kept:
            excluded += kept
            # Out of the searched text even when the filter refuses it: searching for what the
            # user wants left out would pull it up. ("No dairy or eggs": the diet took "no dairy".)
            for phrase in (match.group(0), *(m.group(0) for m in more)):
                text = text.replace(phrase, " ")
    if NO_OVEN.search(question):
        # "needs no baking" says no oven: "baking" would leave out what lists baking powder.
        excluded = [e for e in excluded if e not in ("bake", "baking")] + ["oven"]
        text = NO_OVEN.sub(" ", text)
    if (NO_ALCOHOL.search(question) or FOR_CHILDREN.search(question)) and "alcohol" not in excluded:
        excluded.append("alcohol")
        text = NO_ALCOHOL.sub(" ", text)
    text = ON_A_DAY.sub(" ", text)
    limit, said = time_limit(question)
    if said:
        # "Short on time - an hour max": the hurry is said by the limit too.
        text = HURRY.sub(" ", text.replace(said, " "))
    return ReadQuestion(
        text=with_intents(with_other_names(" ".join(text.split()) or question), found),
        filters=checked_filters(diet, limit, excluded),
        intents=tuple(intent.name for intent in found),
    )


def time_limit(question: str) -> tuple[int | None, str]:
    """The time limit in minutes and the phrase that said it; an explicit one wins over a hurry.
    A limit may be out of the filters' range (checked_filters drops it then)."""
    for pattern in TIME_LIMITS:
        if match := pattern.search(question):
            amount = (match["amount"] or "a").lower()
            unit = UNIT_MINUTES[match["unit"][0].lower()]
            if amount.startswith("half"):
                return round(0.5 * unit), match.group(0)
            if amount in ("a", "an"):
                return unit, match.group(0)
            # Decimal, not float: a 400-digit amount is an ordinary (refused) number, where a
            # float would be infinite and round() would raise.
            return round(Decimal(amount) * unit), match.group(0)
    if match := HURRY.search(question):
        return HURRY_MINUTES, match.group(0)
    return None, ""


class QuestionReader(Protocol):
    async def read(self, question: str) -> ReadQuestion: ...


class RuleReader:
    """The deterministic reader: every provider, no model call."""

    async def read(self, question: str) -> ReadQuestion:
        return read_question(question)


class ModelReading(BaseModel):
    """What the model is asked to reply with."""

    search_text: str
    vegetarian: bool | None = None
    vegan: bool | None = None
    gluten_free: bool | None = None
    dairy_free: bool | None = None
    max_total_minutes: int | None = None
    exclude: list[str] = []
    intents: list[str] = []


# Written out rather than generated: OpenAI's strict structured output wants every field
# required (nullable instead of optional) and no others allowed.
READING_SCHEMA = {
    "type": "object",
    "properties": {
        "search_text": {"type": "string"},
        **{flag: {"type": ["boolean", "null"]} for flag in DIETS},
        "max_total_minutes": {"type": ["integer", "null"]},
        "exclude": {"type": "array", "items": {"type": "string"}},
        "intents": {"type": "array", "items": {"type": "string", "enum": intent_names()}},
    },
    "required": ["search_text", *DIETS, "max_total_minutes", "exclude", "intents"],
    "additionalProperties": False,
}


class ModelReader:
    """Asks a model that supports structured output for the filters; what it reads is checked
    against the question, and anything unusable falls back to the rules."""

    def __init__(self, llm: ChatModel) -> None:
        self._llm = llm

    async def read(self, question: str) -> ReadQuestion:
        reply = await self._llm.complete(
            [
                {"role": "system", "content": system_prompt()},
                {"role": "user", "content": question},
            ],
            json_schema=READING_SCHEMA,
            max_tokens=200,
            temperature=0.0,
        )
        try:
            reading = ModelReading.model_validate_json(reply)
        except ValidationError as error:
            log.warning(
                "the model's filters were unusable (%d errors); reading them by rules", error.error_count()
            )
            return read_question(question)
        return checked_reading(reading, question)


def checked_reading(reading: ModelReading, question: str) -> ReadQuestion:
    """A model's reading of `question`, held to it: only what the question said may be left
    out, a diet can only be asked for, and only the lexicon's intents count, whose words are
    ours: the model picks them, it does not write them."""
    said = {stem(w) for w in re.findall(r"[a-z']+", fold(question))}
    excluded = [p for p in reading.exclude if {stem(w) for w in fold(p).split()} <= said]
    diet = {flag: True for flag, value in reading.model_dump(include=set(DIETS)).items() if value}
    filters = checked_filters(diet, reading.max_total_minutes, excluded)
    found = named_intents(reading.intents)
    text = with_intents(with_other_names(reading.search_text.strip() or question), found)
    return ReadQuestion(text=text, filters=filters, intents=tuple(intent.name for intent in found))


def system_prompt() -> str:
    """The reader's prompt, with the lexicon's intents listed by name and by what says them."""
    listed = "\n".join(f'- "{i.name}": {", ".join(i.examples[:4])}' for i in intents())
    return prompt("read_filters_system").replace("{intents}", listed)
