"""What a search may be narrowed to: diet flags and a time limit.

Each search engine applies these itself (an OData filter on Azure AI Search, a SQL condition
and a NumPy mask locally), before it cuts the top results, never after.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationInfo, field_validator

from app.recipes import MAX_MINUTES, Recipe
from app.search.recipe_facts import facts
from app.search.text import stem

# A word or short phrase to leave out; letters only, so it is safe in any query language.
EXCLUDED_PATTERN = r"^[a-z][a-z' -]{0,39}$"
MAX_EXCLUDED = 10
Excluded = Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True, pattern=EXCLUDED_PATTERN)]

RetrievalMode = Literal["hybrid", "vectors", "text"]
DIET_FLAGS = ("vegetarian", "vegan", "gluten_free", "dairy_free")


class RecipeFilters(BaseModel):
    """A flag set to true keeps only recipes with it, false only recipes without it; unset
    leaves it free. `max_total_minutes` keeps only recipes known to be that quick: a recipe
    whose time is not given never passes it. `exclude` leaves out recipes whose title,
    ingredients or facts (app/search/recipe_facts.py) hold any of these words (plurals folded)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    vegetarian: bool | None = None
    vegan: bool | None = None
    gluten_free: bool | None = None
    dairy_free: bool | None = None
    max_total_minutes: int | None = Field(default=None, ge=0, le=MAX_MINUTES)
    exclude: tuple[Excluded, ...] = Field(default=(), max_length=MAX_EXCLUDED)
    # What the question asked for that the filters refuse, and why: the question reader drops
    # it rather than fail the request, and says so here (in /api/retrieve's answer and the
    # protocol's thoughts). The app's to say: a request that sets it is refused.
    not_applied: tuple[str, ...] = Field(
        default=(),
        description="read from the question but refused as a filter, and why (set by the app only)",
        json_schema_extra={"readOnly": True},
    )

    @field_validator("not_applied")
    @classmethod
    def _the_apps_to_say(cls, value: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        # Requests are validated with a context (the size limits); the reader builds without.
        if value and info.context is not None:
            raise ValueError("is set by the app, not in a request")
        return value

    def diet(self) -> dict[str, bool]:
        """The diet flags that are set, by field name."""
        return {flag: value for flag in DIET_FLAGS if (value := getattr(self, flag)) is not None}

    def is_empty(self) -> bool:
        return not self.diet() and self.max_total_minutes is None and not self.exclude

    def admits(self, recipe: Recipe) -> bool:
        """The filters as a plain check: what the search engines apply, for tests and evals."""
        if any(getattr(recipe, flag) != wanted for flag, wanted in self.diet().items()):
            return False
        limit = self.max_total_minutes
        if limit is not None and (recipe.total_minutes is None or recipe.total_minutes > limit):
            return False
        if not self.exclude:
            return True  # nothing to look for in its words: folding them all would be wasted
        said = " ".join([recipe.title, *recipe.ingredients, *facts(recipe)]).lower()
        words = " ".join(stem(w) for w in re.findall(r"[a-z']+", said))
        return not any(
            re.search(rf"\b{re.escape(' '.join(stem(w) for w in phrase.split()))}\b", words)
            for phrase in self.exclude
        )

    def merged(self, other: RecipeFilters) -> RecipeFilters:
        """These filters, with every field that `other` sets taking its value from `other`."""
        return self.model_copy(update=other.model_dump(exclude_unset=True, exclude_defaults=True))


NO_FILTERS = RecipeFilters()
