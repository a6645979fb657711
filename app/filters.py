"""What a search may be narrowed to: diet flags and a time limit.

Each search engine applies these itself (an OData filter on Azure AI Search, a SQL condition
and a NumPy mask locally), before it cuts the top results, never after.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.recipes import Recipe

RetrievalMode = Literal["hybrid", "vectors", "text"]
DIET_FLAGS = ("vegetarian", "vegan", "gluten_free", "dairy_free")


class RecipeFilters(BaseModel):
    """A flag set to true keeps only recipes with it, false only recipes without it; unset
    leaves it free. `max_total_minutes` keeps only recipes known to be that quick: a recipe
    whose time is not given never passes it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    vegetarian: bool | None = None
    vegan: bool | None = None
    gluten_free: bool | None = None
    dairy_free: bool | None = None
    max_total_minutes: int | None = Field(default=None, ge=0)

    def diet(self) -> dict[str, bool]:
        """The diet flags that are set, by field name."""
        return {flag: value for flag in DIET_FLAGS if (value := getattr(self, flag)) is not None}

    def is_empty(self) -> bool:
        return not self.diet() and self.max_total_minutes is None

    def admits(self, recipe: Recipe) -> bool:
        if any(getattr(recipe, flag) != wanted for flag, wanted in self.diet().items()):
            return False
        limit = self.max_total_minutes
        return limit is None or (recipe.total_minutes is not None and recipe.total_minutes <= limit)


NO_FILTERS = RecipeFilters()
