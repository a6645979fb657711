"""The constraints a follow-up inherits from earlier turns: diets (said outright or as refusals),
cuisine, kind of dish, time limit, exclusions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# "can't have gluten or dairy", "doesn't eat any animal products": diets said as refusals.
REFUSAL = re.compile(
    r"\b(?:can't|cannot|can not|don't|doesn't|do not|does not|won't|no longer|never)\s+"
    r"(?:have|eat|eats|do|tolerate|digest|touch)\s+(?P<what>[a-z ,/-]{2,60})",
    re.I,
)
REFUSED = {"gluten": "gluten-free", "wheat": "gluten-free", "dairy": "dairy-free", "lactose": "dairy-free"}
REFUSED |= {"milk": "dairy-free", "meat": "vegetarian", "animal": "vegan"}


def refused_diets(text: str) -> list[str]:
    found = []
    for match in REFUSAL.finditer(text):
        said = re.split(r"[.;!?]| but ", match["what"].lower())[0]
        found += [diet for word, diet in REFUSED.items() if re.search(rf"\b{word}", said)]
    return list(dict.fromkeys(found))


@dataclass
class Constraints:
    diets: list[str] = field(default_factory=list)
    cuisine: str | None = None
    dish: str | None = None
    minutes: int | None = None
    exclude: list[str] = field(default_factory=list)

    def empty(self) -> bool:
        return not (self.diets or self.cuisine or self.dish or self.minutes is not None or self.exclude)
