"""Answers composed from the retrieved recipes' own data: names, times, servings, diets and
key ingredients.

They are what the embedded default answers with wherever the data answers better than a
135M model (measured by `make eval`: "which is quickest", "which has no cheese", "which
serves most", "is X vegan", "what do I need for X", "how long does X take"; and "how do I
make X", "which is the least spicy", "does it need any special equipment", "can I use chicken
breast instead", "what's step 3", read from its steps and ingredients), and what any
model's reply falls back to when the answer guard refuses it. Every fact in them is read
from a recipe, so they are grounded by construction. Recipes are cited by id in brackets,
`Title [id]`, as the model is asked to: the protocol shows those as links, and the app's own
body turns them into its `sources`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from app.chat.answer_cues import (
    ASKS_OF,
    COURSE_ASKED,
    COURTESY,
    DIET_BREAKERS,
    DIETS,
    EFFORT,
    EQUIPMENT,
    EVERYDAY_KIT,
    FEWEST,
    HAS,
    HEAT,
    HOW_LONG,
    HOW_MANY,
    INGREDIENT_COUNT,
    INGREDIENTS,
    KEEPING,
    KEPT,
    KIT,
    KIT_ASKED,
    METHOD,
    MILDEST,
    MOST,
    NUTRITION,
    OVEN_TEMP,
    PHASE,
    PHASES,
    QUICK,
    SLOW,
    SPECIAL_KIT,
    STEP_TEMP,
    SUGARY,
    SWAP_FOODS,
    SWEETNESS,
    TOOL_WORDS,
    USES_TOOL,
    WITHOUT,
)
from app.chat.data_phrasing import (
    Composed,
    asked_of,
    cite,
    clause_before,
    contains,
    describe,
    facts,
    join,
    minutes,
    named_in,
    own_words,
)
from app.chat.references.vocabulary import ASKED, LACKING, STEP_ASKED, STEP_NUMBERS
from app.recipes import Recipe
from app.search.accompaniments import PAIRED, SERVED_WITH
from app.search.recipe_facts import HOT, MAIN, course
from app.search.servings import people
from app.search.text import content_words, stem
from app.search.variants import BESIDES, VARIANT


def compose(question: str, recipes: Sequence[Recipe]) -> Composed:
    """The answer the retrieved recipes' data gives to `question`."""
    if COURTESY.match(question):
        return Composed(
            "You're welcome! Ask me about another dish, or about these, whenever you like.", "courtesy"
        )
    if not recipes:
        return Composed("I found no recipe that matches. Try other words, or fewer conditions.", "none")
    # Keeping before time: "how long does it keep?" asks how it keeps, not how long it takes.
    for kind in (
        _diet,
        _nutrition,
        _course,
        _oven_temp,
        _keeping,
        _how_long,
        _how_many,
        _ingredients,
        _swap,
        _without,
        _uses_tool,
        _kit,
        _has,
        _step,
        _method,
        _heat,
        _sweetness,
        _effort,
        _ranked,
        _beside,
    ):
        if (composed := kind(question, recipes)) is not None:
            return composed
    asks = ASKED.search(question) is not None
    if (
        asks
        and not (VARIANT.search(question) or BESIDES.search(question))
        and (named := named_in(question, recipes))
    ):
        # "Could I add chicken to the Pasta Alla Norma?": no data answers that, and the answer
        # says so rather than offering the recipe as if it did. "my kid wants pancakes" asks
        # nothing: the recipes are the answer.
        listed = "\n".join(f"- {describe(r)}" for r in named)
        said = (
            "the recipe as written, and it says"
            if len(named) == 1
            else "the recipes as written, and they say"
        )
        return Composed(f"I answer only from {said} nothing more on that:\n{listed}", "named")
    listed = "\n".join(f"- {describe(r)}" for r in recipes)
    lead = "This recipe matches:" if len(recipes) == 1 else f"These {len(recipes)} recipes match best:"
    return Composed(f"{lead}\n{listed}", "list")


def _beside(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "What would go well with the Kung Pao chicken on the side?": what was found to go with
    it, the dish itself said apart."""
    paired = " ".join(m.group(0) for m in PAIRED.finditer(question))
    dishes = named_in(paired, recipes) if paired else []
    others = [r for r in recipes if r not in dishes]
    if not dishes or not others:
        return None
    listed = "\n".join(f"- {describe(r)}" for r in others)
    return Composed(f"To go with {join([cite(r) for r in dishes])}:\n{listed}", "beside")


def _ranked(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    timed = [r for r in recipes if r.total_minutes is not None]
    asked = own_words(question, recipes)
    if QUICK.search(asked) or SLOW.search(asked):
        slow = bool(SLOW.search(asked)) and not QUICK.search(asked)
        if not timed:
            return Composed(f"None of {join([cite(r) for r in recipes])} gives its time.", "time")
        ordered = sorted(timed, key=lambda r: r.total_minutes or 0, reverse=slow)
        best = ordered[0]
        which = "longest" if slow else "quickest"
        tied = [r for r in ordered if r.total_minutes == best.total_minutes]
        if len(tied) > 1:
            # "A and B both take 40 min", not "the quickest is A, 40 min. B takes 40 min".
            both = "both" if len(tied) == 2 else "all"
            text = f"{join([cite(r) for r in tied])} {both} take {minutes(best.total_minutes or 0)} in all."
        else:
            text = f"The {which} is {cite(best)}, {minutes(best.total_minutes or 0)} in all."
        others = [f"{cite(r)} takes {minutes(r.total_minutes or 0)}" for r in ordered[len(tied) :]]
        if others:
            text += " " + join(others)[0].upper() + join(others)[1:] + "."
        untimed = [r for r in recipes if r.total_minutes is None]
        if untimed:
            verb = "does not give its time" if len(untimed) == 1 else "do not give their times"
            text += f" {join([cite(r) for r in untimed])} {verb}."
        return Composed(text, "time")
    most, fewest = MOST.search(asked), FEWEST.search(asked)
    if most or fewest:
        counted = [r for r in recipes if r.servings_count is not None]
        if not counted:
            return Composed(
                f"None of {join([cite(r) for r in recipes])} says how many it serves.", "servings"
            )
        ordered = sorted(counted, key=lambda r: r.servings_count or 0, reverse=bool(most))
        best = ordered[0]
        text = f"{cite(best)} serves the {'most' if most else 'fewest'}: {best.servings}."
        others = [f"{cite(r)} serves {r.servings}" for r in ordered[1:]]
        if others:
            text += " " + join(others)[0].upper() + join(others)[1:] + "."
        return Composed(text, "servings")
    return None


def _swap(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "Can I use chicken breast instead?": what the list of the one recipe asked about says of
    the food swapped out. No recipe rates its swaps; one allows a swap only where a line offers
    it ("boneless chicken breast or thigh")."""
    asked = own_words(question, recipes)
    match, lacking = SWAP_FOODS.search(asked), LACKING.search(asked)
    named = named_in(question, recipes)
    if not (match or lacking) or len(named) != 1:
        return None
    [recipe] = named
    new, old = None, lacking["food"] if lacking else None  # "I don't have garam masala, …"
    if match:
        new = match["new"] or match["new_for"] or match["new_with"]
        old = match["old"] or match["old_for"] or match["old_with"] or match["old_only"]
    said = [w for w in re.findall(r"[a-z]+", (old or new or "").lower()) if w not in FILLER_FOOD]
    swapped = f"{old or ''} {new or ''}"
    # The tool said, by the longest name that reads it: a roasting tin is no oven.
    tools = sorted(
        ((len(read.group()), name) for name, kit in KIT.items() if (read := kit.search(swapped))),
        reverse=True,
    )
    if lacking:
        # "I don't have a roasting tin, is that a problem?": a tool, in the user's words, read
        # by the kit's name for it, or, lacking one, where the steps say it ("a potato masher").
        lacked = re.sub(r"^(?:an?|the)\s+", "", lacking["food"])
        if tools:
            name = tools[0][1]
            return lacked_tool(name, KIT[name], lacked, recipe)
        in_steps = re.compile(rf"\b{re.escape(lacked)}", re.I)
        if not contains(recipe, lacked) and any(in_steps.search(step) for step in recipe.steps):
            return lacked_tool(lacked, in_steps, lacked, recipe)
    if not said or tools:
        return None  # "can I use it instead?", "can I use the air fryer instead?": no food named
    # The food taken out, by the words it is said in: "chicken breast" is swapped for a chicken.
    lines = list(dict.fromkeys(line for word in said for line in contains(recipe, word)))
    offered = [line for line in lines if new and new.lower() in line.lower() and line.lower() != new.lower()]
    if offered:
        return Composed(f'{cite(recipe)} allows it: its list says "{offered[0].strip()}".', "swap")
    if not lines:
        what = old or new or "that"
        return Composed(f"{cite(recipe)} as written does not use {what}.", "swap")
    uses = "; ".join(line.strip() for line in lines)
    if not new and all("optional" in line.lower() for line in lines):
        # "No wine here, can I skip it?" of a "1/2 cup white wine (optional)".
        return Composed(f'{cite(recipe)} can be made without the {old}: its list says "{uses}".', "swap")
    instead = f"about {new} instead" if new else "about what to use instead"
    return Composed(f"{cite(recipe)} as written uses {uses}, and says nothing {instead}.", "swap")


def lacked_tool(tool: str, kit: re.Pattern[str], said: str, recipe: Recipe) -> Composed:
    """The step that names a tool the user lacks (`kit` reads it, `said` as the user said it),
    quoted, or that no step names it."""
    used = [(n, step.strip()) for n, step in enumerate(recipe.steps, 1) if kit.search(step)]
    if not used:
        return Composed(f"The steps of {cite(recipe)} do not name {article(said)}.", "swap")
    n, sentence = tool_said(kit, tool, used)
    more = f" (and {len(used) - 1} more)" if len(used) > 1 else ""
    return Composed(f'{cite(recipe)} uses {article(tool)} in step {n}{more}: "{sentence}"', "swap")


def _without(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    if SERVED_WITH.search(question):
        return None  # "what could I serve with it, without fish?" asks for more dishes
    match = WITHOUT.search(own_words(question, recipes))
    if not match or match.group(1).lower() in {"more", "longer", "than", "time", "recipe", "recipes", "one"}:
        return None
    # Asked of recipes ("which has no cheese?"), not a request ("dinner for two, no meat please").
    if not (ASKS_OF.match(clause_before(question, match.start())) or named_in(question, recipes)):
        return None
    word = TOOL_WORDS.get(match.group(1).lower(), match.group(1).lower())
    if word in EQUIPMENT:
        return _equipment(word, named_in(question, recipes) or list(recipes))
    free = [r for r in recipes if not contains(r, word)]
    having = [r for r in recipes if contains(r, word)]
    if len(free) == 1 and not having and named_in(question, recipes) == free:
        # "could i make it without the coconut milk?" of a recipe that has none.
        text = f"{cite(free[0])} lists no {word}, so it is made without it."
    elif free:
        text = f"Without {word}: {join([cite(r) for r in free])}."
    else:
        text = "" if len(having) == 1 else f"All of them have {word}."
    if having:
        text += " " + " ".join(has(r, word) for r in having)
    return Composed(text.strip(), "without")


def _uses_tool(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "Do any of them need an oven?": the steps that use it, recipe by recipe."""
    match = USES_TOOL.search(own_words(question, recipes))
    if not match or not (
        ASKS_OF.match(clause_before(question, match.start())) or named_in(question, recipes)
    ):
        return None
    tool = TOOL_WORDS.get(match.group(1).lower(), match.group(1).lower())
    return _equipment(tool, named_in(question, recipes) or list(recipes)) if tool in EQUIPMENT else None


def _equipment(tool: str, recipes: Sequence[Recipe]) -> Composed:
    """ "Can I make it without the oven?": the steps that use the tool, recipe by recipe."""
    parts = []
    free = []
    for recipe in recipes:
        used = [(n, step.strip()) for n, step in enumerate(recipe.steps, 1) if EQUIPMENT[tool].search(step)]
        if used:
            n, said = tool_said(EQUIPMENT[tool], tool, used)
            more = f" (and {len(used) - 1} more)" if len(used) > 1 else ""
            parts.append(f'{cite(recipe)} uses the {tool} in step {n}{more}: "{said}"')
        else:
            free.append(recipe)
    if len(recipes) == 1:
        return Composed(
            parts[0] if parts else f"The steps of {cite(recipes[0])} do not mention the {tool}.", "without"
        )
    # The answer first, then the steps that show it.
    whose = "its steps do" if len(free) == 1 else "their steps do"
    lead = (
        f"Without the {tool}: {join([cite(r) for r in free])} ({whose} not mention it)."
        if free
        else f"All of them use the {tool}."
    )
    return Composed(" ".join([lead, *parts]), "without")


def _kit(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "Does it need any special equipment?": the kit each recipe's steps name, with the step
    that first names it; what not every kitchen has comes first."""
    match = KIT_ASKED.search(own_words(question, recipes))
    if not match:
        return None
    named = named_in(question, recipes)
    if not (named or ASKS_OF.match(clause_before(question, match.start()))):
        return None  # "recipes that need no special equipment" is a search
    lines = [kit_line(recipe) for recipe in named or recipes]
    return Composed(lines[0] if len(lines) == 1 else "\n".join(f"- {line}" for line in lines), "kit")


def kit_line(recipe: Recipe) -> str:
    special, everyday = (named_kit(recipe, kit) for kit in (SPECIAL_KIT, EVERYDAY_KIT))
    if any(said.startswith(("a frying pan", "a saucepan")) for said in everyday):
        everyday = [said for said in everyday if not said.startswith("a pan ")]  # that same pan
    # The steps name what they use, not what is needed: "a pasta machine or a rolling pin".
    if special:
        besides = f"; everyday things: {join(everyday)}" if everyday else ""
        return f"The steps of {cite(recipe)} name {join(special)}{besides}."
    if everyday:
        return f"{cite(recipe)} needs nothing special: its steps name {join(everyday)}."
    return f"The steps of {cite(recipe)} name no equipment."


def named_kit(recipe: Recipe, kit: dict[str, re.Pattern[str]]) -> list[str]:
    """ "a rolling pin (step 15)": each piece of `kit` the steps name, in the order of the
    steps, at the step that first names it."""
    first = {
        name: n
        for name, said in kit.items()
        if (n := next((n for n, step in enumerate(recipe.steps, 1) if said.search(step)), None))
    }
    return [f"{article(name)} (step {n})" for name, n in sorted(first.items(), key=lambda item: item[1])]


def article(name: str) -> str:
    if name.endswith("s") or name in ("cheesecloth", "foil", "plastic wrap", "baking paper", "kitchen twine"):
        return name
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def tool_said(kit: re.Pattern[str], tool: str, used: list[tuple[int, str]]) -> tuple[int, str]:
    """The step, and its sentence, that shows the tool (`kit` reads it) best: one that names it
    ("Preheat the oven") before one that only uses it ("on a greased baking sheet")."""
    sentences = [
        (n, sentence)
        for n, step in used
        for sentence in re.split(r"(?<=[.!?])\s+", step)
        if kit.search(sentence)
    ]
    said = re.compile(rf"(?<!dutch )\b{re.escape(tool)}\b", re.I)
    named = [(n, sentence) for n, sentence in sentences if said.search(sentence)]
    return (named or sentences or used)[0]


def has(recipe: Recipe, word: str) -> str:
    """ "Oats [oats] has nuts: peanut butter.": the ingredient lines that hold `word`."""
    return f"{cite(recipe)} has {word}: {'; '.join(line.strip() for line in contains(recipe, word))}."


def _diet(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    lowered = question.lower()
    asked = own_words(lowered, recipes)
    said = next(((word, flag) for word, flag in DIETS.items() if word in asked), None)
    if said is None:
        return None
    word, diet = said
    asks = re.match(r"^\s*(is|are|can|does)\b", lowered)
    targets = named_in(question, recipes)
    # "Considering the A and the B, any of those vegan?", "thanks! is the Eggs gluten free?":
    # asked of the recipes it names; "what vegan dessert goes with the Lasagna?" is not.
    if not asks and not (targets and ASKS_OF.search(lowered[: asked.index(word)])):
        return None
    label = diet.replace("_", "-")
    if not targets and re.match(r"^\s*(is|does) the\b", lowered):
        # About one recipe, which was not retrieved: no other recipe's diet answers it.
        return None
    targets = targets or list(recipes)
    fit = [r for r in targets if getattr(r, diet)]
    lines = [diet_line(r, diet, label) for r in fit + [r for r in targets if r not in fit]]
    if len(targets) == 1:
        lines[0] = f"{'Yes' if fit else 'No'}: {lines[0]}"
    elif len(fit) == len(targets):
        lines = [f"All of them are {label}: {join([cite(r) for r in fit])}."]
    elif not fit:
        # "which of those is vegetarian?" when none is: said first, then why for each.
        lines.insert(0, f"None of them is marked {label}.")
    return Composed(" ".join(lines), "diet")


def diet_line(recipe: Recipe, diet: str, label: str) -> str:
    """ "Rice [rice] is vegan.", or why not, from its ingredients when they say: "Chicken Soup
    [chicken-soup] is not marked vegetarian: it lists "2 chicken breasts"." """
    if getattr(recipe, diet):
        return f"{cite(recipe)} is {label}."
    why = [line.strip().rstrip(".") for kind in DIET_BREAKERS[diet] for line in contains(recipe, kind)]
    listed = " and ".join(f'"{line}"' for line in dict.fromkeys(why[:2]))
    return f"{cite(recipe)} is not marked {label}" + (f": it lists {listed}." if listed else ".")


# A time said in a step: "about 5 or less minutes for soft boiled", "rest for 2 hours".
STEP_TIME = re.compile(
    r"\b(?:\d+\s*(?:-\s*\d+\s*)?|(?:half |quarter of )?an? |one |two |three )(?:min(?:ute)?s?|hours?|hrs?)\b",
    re.I,
)


def _how_long(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    targets = asked_of(HOW_LONG, question, recipes)
    if not targets:
        return None
    if phase := PHASE.search(question):
        return _how_long_for(phase.group().lower(), targets)
    lines = []
    for recipe in targets:
        if recipe.total_minutes is None:
            # "how long do i boil eggs for soft boiled": the step that says, if one does.
            timed = [step.strip() for step in recipe.steps if STEP_TIME.search(step)]
            asked = {stem(w) for w in content_words(question)}
            timed.sort(key=lambda step: -len(asked & {stem(w) for w in content_words(step)}))
            said = f' Its steps say: "{timed[0]}"' if timed else ""
            lines.append(f"{cite(recipe)} does not give its total time.{said}")
            continue
        split = [
            f"{label} {minutes(value)}"
            for label, value in (("prep", recipe.prep_minutes), ("cook", recipe.cook_minutes))
            if value is not None
        ]
        lines.append(
            f"{cite(recipe)} takes {minutes(recipe.total_minutes)} in all"
            + (f" ({', '.join(split)})." if split else ".")
        )
    return Composed(" ".join(lines), "time")


def _how_long_for(phase: str, recipes: Sequence[Recipe]) -> Composed:
    """ "How long does it need in the fridge?": the step that says, not the total time."""
    lines = []
    for recipe in recipes:
        steps = [step.strip() for step in recipe.steps if PHASES[phase].search(step)]
        timed = [step for step in steps if STEP_TIME.search(step)]
        if timed or steps:
            lines.append(f'{cite(recipe)} says: "{(timed or steps)[0]}"')
            if not timed:
                lines[-1] += " It gives no time for that."
        else:
            lines.append(f"The steps of {cite(recipe)} do not say how long it needs {phase}.")
    return Composed(" ".join(lines), "time")


# How many the cook needs, said beside the question: "i need like 24", "we'll be 10".
NEEDED = re.compile(
    r"\b(?:need|(?:we|there)(?:'ll| will) be) (?:like |about |around |at least )?(?P<count>\d{1,3})\b"
    r"(?!\s*(?:min|hour|h\b|°))",
    re.I,
)


def _how_many(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    targets = asked_of(HOW_MANY, question, recipes)
    if not targets:
        return None
    lines = [
        f"{cite(r)} serves {r.servings}." if r.servings else f"{cite(r)} does not say how many it serves."
        for r in targets
    ]
    wanted = people(question) or (int(said["count"]) if (said := NEEDED.search(question)) else None)
    serves = targets[0].servings_count if len(targets) == 1 else None
    # "serves 8 - 10" serves 8 as written, as it does 10; for 4, half of it.
    fewest = min((int(n) for n in re.findall(r"\d+", targets[0].servings or "")), default=serves)
    if wanted and serves and fewest is not None and wanted < serves:
        serves = max(fewest, wanted)
    if wanted and serves and wanted > serves:
        # "how many will it make? i need like 24": how many times the recipe, as written.
        times = -(-wanted // serves)
        lines.append(f"For {wanted}, make it {times} times ({times * serves}).")
    elif wanted and serves and wanted == serves:
        lines.append(f"For {wanted}, make it as written.")
    elif wanted and serves:
        # "scale it down for 2" of a recipe for 6: a third of every amount.
        lines.append(f"For {wanted}, use {Fraction(wanted, serves).limit_denominator(12)} of every amount.")
    return Composed(" ".join(lines), "servings")


def _ingredients(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    targets = asked_of(INGREDIENTS, question, recipes)
    if not targets:
        return None
    if len(targets) > 1 and (ranked := INGREDIENT_COUNT.search(own_words(question, recipes))):
        ordered = sorted(targets, key=lambda r: len(r.ingredients), reverse=not ranked["few"])
        count = len(ordered[0].ingredients)
        tied = [r for r in ordered if len(r.ingredients) == count]
        most = "fewest" if ranked["few"] else "most"
        lead = f"{join([cite(r) for r in tied])} {'has' if len(tied) == 1 else 'have'} the {most} ingredients"
        others = [f"{cite(r)} has {len(r.ingredients)}." for r in ordered[len(tied) :]]
        return Composed(" ".join([f"{lead}: {count}.", *others]), "ingredients")
    # Each recipe the question names, in the order it names them.
    lowered = question.lower()
    targets = sorted(targets, key=lambda r: lowered.find(r.title.lower()))
    parts = []
    for recipe in targets:
        listed = "\n".join(f"- {line}" for line in recipe.ingredients)
        parts.append(f"For {cite(recipe)} you need:\n{listed}")
    return Composed("\n\n".join(parts), "ingredients")


# Words that name no food in a swap: "a bit of cream", "some fresh basil".
FILLER_FOOD = frozenset(
    ["a", "an", "the", "some", "bit", "of", "fresh", "dried", "it", "that", "this", "one"]
)
# Words after "have" that are no ingredient: "do any of them have anything else?".
NOT_INGREDIENTS = frozenset(
    [
        "time",
        "recipe",
        "recipes",
        "one",
        "ones",
        "it",
        "them",
        "a",
        "an",
        "the",
        "to",
        "more",
        "less",
        "anything",
        "something",
        "any",
        "other",
        "else",
    ]
)


# Foods said in the singular before "-free" and counted in the plural: "nut-free" asks about nuts.
COUNTED = frozenset({"nut", "peanut", "egg", "seed", "onion", "mushroom"})


def _has(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "Do any of them have nuts?": the ingredient lines that say so, recipe by recipe."""
    match = HAS.search(own_words(question, recipes))
    if match is None:
        return None
    # Asked of recipes ("do any of them have", "is there … in it", "can she eat it, nut-free?"),
    # not a search ("recipes that have").
    asked = ASKS_OF.match(clause_before(question, match.start()))
    if not (match["there"] or asked or (match["free"] and ASKS_OF.match(question.strip()))):
        return None
    word = (match["what"] or match["there"] or match["free"]).lower()
    # "nut-free" asks about nuts.
    word = f"{word}s" if match["free"] and word in COUNTED else word
    if word in NOT_INGREDIENTS:
        return None
    targets = named_in(question, recipes) or list(recipes)
    having = [r for r in targets if contains(r, word)]
    free = [r for r in targets if r not in having]
    parts = [has(r, word) for r in having]
    if free:
        verb = "lists" if len(free) == 1 else "list"
        whose = "its" if len(free) == 1 else "their"
        parts.append(f"{join([cite(r) for r in free])} {verb} no {word} in {whose} ingredients.")
    if "allerg" in question.lower():
        parts.append("With an allergy, check the labels of bought ingredients too.")
    return Composed(" ".join(parts), "has")


def _nutrition(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "How many calories is that?": no recipe of the catalog gives its nutrition, and the
    answer says so rather than guess."""
    targets = asked_of(NUTRITION, question, recipes)
    if not targets:
        return None
    whose = "Its ingredients are" if len(targets) == 1 else "Their ingredients are each"
    return Composed(
        f"The recipe data gives no calories or nutrition for {join([cite(r) for r in targets])}, so I"
        f" cannot say. {whose} in the recipe.",
        "nutrition",
    )


# How a course is asked, as the catalog's facts name it.
COURSE_NAMES = {"main": MAIN, "side": "side dish", "starter": "starter"}


def _course(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "Would any of those work as a main?": each dish's course, as its data reads."""
    asked = own_words(question, recipes)
    match = COURSE_ASKED.search(asked)
    if match is None or SERVED_WITH.search(question):
        return None
    # Asked of these recipes ("would any of those work as a main?"), not a request ("what can i
    # make for a snack?").
    pointed = re.search(
        r"\b(?:those|these|them|they|it|either|which (?:one|of))\b", asked[: match.start()], re.I
    )
    named = named_in(question, recipes)
    if not (named or pointed):
        return None
    said = (match["as"] or match["is"]).lower()
    wanted = COURSE_NAMES.get(said.split()[0], said)
    targets = named or list(recipes)
    if len(targets) == 1:
        found = course(targets[0])
        text = f"{cite(targets[0])} is {article(found)}" if found else f"{cite(targets[0])} says no course"
        return Composed(text + ("." if found == wanted else f", not {article(wanted)}."), "course")
    fits = [cite(r) for r in targets if course(r) == wanted]
    lead = f"As {article(wanted)}: {join(fits)}." if fits else f"None of them is {article(wanted)}."
    others = [
        f"{cite(r)} is {article(found)}." if (found := course(r)) else f"{cite(r)} says no course."
        for r in targets
        if course(r) != wanted
    ]
    return Composed(" ".join([lead, *others]), "course")


def _oven_temp(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "What temp is the oven?": the step that gives it, recipe by recipe."""
    targets = asked_of(OVEN_TEMP, question, recipes)
    if not targets:
        return None
    parts = []
    for recipe in targets:
        said = next(
            ((n, step.strip()) for n, step in enumerate(recipe.steps, 1) if STEP_TEMP.search(step)), None
        )
        if said:
            parts.append(f'{cite(recipe)}, step {said[0]}: "{said[1]}"')
        else:
            parts.append(f"The steps of {cite(recipe)} give no oven temperature.")
    return Composed(" ".join(parts), "oven")


def _keeping(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "Does it freeze well?": what the recipe itself says about keeping it, if anything."""
    targets = asked_of(KEEPING, question, recipes)
    if not targets:
        return None
    parts, silent = [], []
    for recipe in targets:
        said = [line.strip() for line in [recipe.description, *recipe.steps] if KEPT.search(line)]
        if said:
            parts.append(f"{cite(recipe)} says: " + " ".join(f'"{line}"' for line in said[:3]))
        else:
            silent.append(recipe)
    # Said once for all those that say nothing, not once per recipe.
    if len(silent) == len(targets) > 1:
        parts.append(
            f"None of them says how it keeps, frozen or ahead of time: {join([cite(r) for r in silent])}."
        )
    elif len(silent) > 1:
        parts.append(f"{join([cite(r) for r in silent])} do not say how they keep, frozen or ahead of time.")
    elif silent:
        parts.append(f"{cite(silent[0])} does not say how it keeps, frozen or ahead of time.")
    return Composed(" ".join(parts), "keeping")


def _step(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "What's step 3 of the Creamy Mashed Potatoes?": that step, as the recipe writes it."""
    asked = STEP_ASKED.search(own_words(question, recipes))
    named = named_in(question, recipes)
    if not asked or len(named) != 1:
        return None
    [recipe] = named
    said = (asked["n"] or asked["nth"]).lower()
    n = int(said) if said.isdigit() else STEP_NUMBERS[said]
    n = len(recipe.steps) if n == -1 else n
    if not 1 <= n <= len(recipe.steps):
        return Composed(f"{cite(recipe)} has {len(recipe.steps)} steps.", "step")
    return Composed(f'Step {n} of {cite(recipe)}: "{recipe.steps[n - 1].strip()}"', "step")


def _method(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "How do I make the Shakshouka?": the recipe itself, as its data writes it."""
    targets = asked_of(METHOD, question, recipes)
    if not targets:
        return None
    recipe = targets[0]
    about = facts(recipe)
    needed = "\n".join(f"- {line}" for line in recipe.ingredients)
    steps = "\n".join(f"{n}. {step}" for n, step in enumerate(recipe.steps, start=1))
    lead = f"To make {cite(recipe)}" + (f" ({about})" if about else "")
    return Composed(f"{lead}, you need:\n{needed}\n\nThen:\n{steps}", "method")


NOT_HOT = "no chili or other hot ingredient"


def _heat(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "Which is the least spicy?": read from what each recipe's ingredients hold, since no
    recipe rates its heat."""
    asked = own_words(question, recipes)
    match = HEAT.search(asked)
    # Asked of recipes ("which is the least spicy?"), not a search ("a burger, but spicy").
    clause = clause_before(question, match.start()) if match else ""
    if not match or not (ASKS_OF.match(clause) or (clause or match.group().lower()).startswith("how")):
        return None
    targets = named_in(question, recipes) or list(recipes)
    hot = {r.id: [line.strip() for line in r.ingredients if HOT.search(line)] for r in targets}
    mild = [r for r in targets if not hot[r.id]]

    def lines(recipe: Recipe) -> str:
        # Quoted: a line may be a sentence of its own ("A few dashes each - Nutmeg; Cayenne").
        return "; ".join(f'"{line}"' for line in hot[recipe.id])

    def says(recipe: Recipe) -> str:
        return f"{cite(recipe)} lists {lines(recipe)}."

    if len(targets) == 1:
        [recipe] = targets
        # "is it spicy?" asks for a verdict: some heat, by what its list holds.
        heat = f"By its ingredients, {cite(recipe)} has some heat: it lists {lines(recipe)}."
        return Composed(heat if hot[recipe.id] else f"{cite(recipe)} has {NOT_HOT}.", "heat")
    # Fewest hot lines first; a line the recipe marks optional can be left out.
    ordered = sorted(
        (r for r in targets if hot[r.id]),
        key=lambda r: (sum("optional" not in line.lower() for line in hot[r.id]), len(hot[r.id])),
        reverse=True,
    )
    lead = ""
    if MILDEST.search(asked):
        ordered.reverse()
        if mild:
            verb = "is" if len(mild) == 1 else "are"
            lead = f"By their ingredients, the mildest {verb} {join([cite(r) for r in mild])}: {NOT_HOT}."
        elif ordered:
            mildest = ordered.pop(0)
            lead = f"By their ingredients, the mildest is {cite(mildest)}, with {lines(mildest)}."
    elif ordered:
        hottest = ordered.pop(0)
        lead = f"By their ingredients, the hottest is {cite(hottest)}, with {lines(hottest)}."
    # The mild ones are said too, unless the lead said them.
    calm = [] if MILDEST.search(asked) or not mild else [f"{join([cite(r) for r in mild])}: {NOT_HOT}."]
    text = " ".join([lead, *(says(r) for r in ordered), *calm]).strip()
    return Composed(text or f"None of {join([cite(r) for r in targets])} has a hot ingredient.", "heat")


def _sweetness(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "Is it very sweet?": the lines of each recipe's list that sweeten it, since no recipe
    rates its sweetness."""
    match = SWEETNESS.search(own_words(question, recipes))
    named = named_in(question, recipes)
    if not match or not (named or ASKS_OF.match(clause_before(question, match.start()))):
        return None  # "something sweet for after" asks for desserts
    targets = named or list(recipes)
    sweet = {r.id: [line.strip() for line in r.ingredients if SUGARY.search(line)] for r in targets}
    # The least sweet first when that is asked ("which is the least sweet?"), else the sweetest.
    least = bool(re.search(r"\b(?:least|less|not (?:too |very )?)\s*sweet", question, re.I))
    ordered = sorted(targets, key=lambda r: len(sweet[r.id]), reverse=not least)
    lines = [
        f"{cite(r)} has {'; '.join(sweet[r.id]) or 'no sugar, honey, syrup or chocolate'}." for r in ordered
    ]
    lead = "By its ingredients:" if len(targets) == 1 else "By their ingredients:"
    return Composed(" ".join([lead, *lines]), "sweetness")


def _effort(question: str, recipes: Sequence[Recipe]) -> Composed | None:
    """ "Which is the least work?": read from how long each recipe's lists are, since no recipe
    rates its own effort."""
    match = EFFORT.search(own_words(question, recipes))
    if not match or not (
        ASKS_OF.match(clause_before(question, match.start())) or named_in(question, recipes)
    ):
        return None
    targets = named_in(question, recipes) or list(recipes)
    ordered = sorted(targets, key=lambda r: len(r.ingredients) + len(r.steps))

    def lists(recipe: Recipe) -> str:
        counted = ((len(recipe.ingredients), "ingredient"), (len(recipe.steps), "step"))
        return " and ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in counted)

    if len(ordered) == 1:
        # "Is it hard?": no recipe rates itself; its lists say how much there is to do.
        return Composed(
            f"{cite(ordered[0])} has {lists(ordered[0])}; the recipe does not rate its difficulty.", "effort"
        )
    first, *rest = ordered
    text = f"By their lists, the simplest is {cite(first)}: {lists(first)}."
    if rest:
        text += " " + " ".join(f"{cite(r)} has {lists(r)}." for r in rest)
    return Composed(text, "effort")
