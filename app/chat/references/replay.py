"""A follow-up that only points elsewhere asks the last question again: after "is the matcha
one dairy free?", "and the others?" asks whether the others are dairy free; "what about the
second one?" asks about the second one what was asked about the first."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.catalog.names import Mention, RecipeNames
from app.catalog.spelling import TOKEN
from app.chat.references.phrasing import considering, finish, the
from app.chat.references.resolution import Resolution
from app.chat.references.vocabulary import FOCUS, ORDINAL, OTHERS

LEAD = re.compile(r"^(?:(?:and|so|ok(?:ay)?|then|well|but)[,\s]+)*(?:(?:what|how) about\s+)?", re.I)
# What a bare pointer may be: "the others", "the second one", "the vegan one", "that one", "them".
POINTER = re.compile(
    r"(?:the\s+)?(?:[\w'-]+\s+){0,2}?(?:one|ones|recipe|dish)|them|those|these|the (?:two|three)", re.I
)
# The question's verb agrees with the recipes it now asks about.
PLURAL_VERBS = {"is": "are", "does": "do", "has": "have", "was": "were"}


def points_only(message: str, resolution: Resolution, names: RecipeNames) -> bool:
    """Whether the message does nothing but point at recipes ("and the others?", "what about
    the Pavlova?"), after a lead that continues the last question."""
    said = message.strip().rstrip("?!. ")
    lead = LEAD.match(said)
    rest = said[lead.end() :] if lead else said
    if not rest or (not (lead and lead.group()) and not OTHERS.fullmatch(rest)):
        return False
    if OTHERS.fullmatch(rest) or ORDINAL.fullmatch(rest) or FOCUS.fullmatch(rest) or POINTER.fullmatch(rest):
        return True
    # Nothing but the names of the recipes it resolved to.
    titled = names.mentions(rest, loose=True)
    return bool(titled) and {m.id for m in titled} <= set(resolution.recipe_ids) and _only_names(rest, titled)


def _only_names(text: str, mentions: Sequence[Mention]) -> bool:
    words = [w for w in TOKEN.findall(text) if w.lower() not in ("the", "and", "or")]
    return len(words) <= sum(m.end - m.start for m in mentions)


def asked_again(
    previous: Resolution,
    previous_titles: Sequence[str],
    titles: Sequence[str],
    names: RecipeNames,
    message: str,
) -> str | None:
    """The previous question, about these recipes instead; None when it named none to swap."""
    question = previous.question
    prefix = f"Considering {the(previous_titles)}, "
    if question.startswith(prefix):
        return considering(titles, question[len(prefix) :], message)
    found = names.mentions(question, loose=True)
    if not found:
        return None
    tokens = list(TOKEN.finditer(question))
    start, end = tokens[found[0].start].start(), tokens[found[-1].end - 1].end()
    # A title's words end before its closing parenthesis: "… (Maple Dumplings)" keeps none.
    if question[start:end].count("(") > question[start:end].count(")"):
        end = question.index(")", end) + 1 if ")" in question[end:] else end
    before = re.sub(r"\bthe\s*$", "", question[:start], flags=re.I)
    if len(titles) > 1:
        # "How long does the Shakshouka take?" → "How long do the A and the B take?"
        verbs = list(re.finditer(rf"\b(?:{'|'.join(PLURAL_VERBS)})\b", before, re.I))
        if verbs:
            verb = verbs[-1]
            plural = PLURAL_VERBS[verb.group().lower()]
            plural = plural.capitalize() if verb.group()[:1].isupper() else plural
            before = before[: verb.start()] + plural + before[verb.end() :]
    return finish(f"{before}{the(titles)}{question[end:]}", message)
