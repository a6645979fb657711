"""The recipe: the one record that the catalog, the store, the index and the prompts share."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

RECIPE_ID_PATTERN = r"^[a-z0-9][a-z0-9-]{0,99}$"
# A year: bounded so that a time fits every store's integers (SQLite's are 64-bit).
MAX_MINUTES = 525_600


# Bounds on each field, far above any real recipe (the sample catalog's longest step is 797
# characters), so that one recipe cannot hold the app: a 20 MB description once took 91 s and
# 15 GB to embed. A recipe at every bound has a search text of about 210,000 characters.
MAX_TITLE_CHARS = 200
MAX_DESCRIPTION_CHARS = 10_000
MAX_LINE_CHARS = 2_000  # one ingredient or one step
MAX_LINES = 100  # ingredients, and steps
MAX_TAGS = 50
MAX_TAG_CHARS = 100
Line = Annotated[str, StringConstraints(max_length=MAX_LINE_CHARS)]
Tag = Annotated[str, StringConstraints(max_length=MAX_TAG_CHARS)]


class Recipe(BaseModel):
    # Frozen: the embedded store hands the same parsed recipe to every request that reads it.
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=RECIPE_ID_PATTERN)
    title: str = Field(min_length=1, max_length=MAX_TITLE_CHARS)
    description: str = Field(default="", max_length=MAX_DESCRIPTION_CHARS)
    ingredients: list[Line] = Field(min_length=1, max_length=MAX_LINES)
    steps: list[Line] = Field(min_length=1, max_length=MAX_LINES)
    tags: list[Tag] = Field(default=[], max_length=MAX_TAGS)
    prep_minutes: int | None = Field(default=None, ge=0, le=MAX_MINUTES)
    cook_minutes: int | None = Field(default=None, ge=0, le=MAX_MINUTES)
    total_minutes: int | None = Field(default=None, ge=0, le=MAX_MINUTES)
    servings: str | None = Field(default=None, max_length=MAX_TITLE_CHARS)
    vegetarian: bool = False
    vegan: bool = False
    gluten_free: bool = False
    dairy_free: bool = False

    @property
    def diet_labels(self) -> list[str]:
        flags = {
            "vegetarian": self.vegetarian,
            "vegan": self.vegan,
            "gluten-free": self.gluten_free,
            "dairy-free": self.dairy_free,
        }
        return [label for label, on in flags.items() if on]

    @property
    def servings_count(self) -> int | None:
        """The largest number in `servings` ("4-6" serves up to 6), or None when not given."""
        numbers = [int(n) for n in re.findall(r"\d+", self.servings or "")]
        return max(numbers) if numbers else None

    def content_hash(self) -> str:
        """Changes when anything in the recipe does: what indexing compares to skip work."""
        return hashlib.sha256(self.model_dump_json().encode()).hexdigest()

    def search_text(self) -> str:
        """The text that keyword and vector search see: what a cook would search by."""
        parts = [self.title, self.description, " ".join(self.tags), " ".join(self.diet_labels)]
        parts.extend(self.ingredients)
        return "\n".join(p for p in parts if p)


def read_catalog(path: Path) -> Iterator[Recipe]:
    """Recipes from a JSON Lines file, one recipe per line."""
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if line.strip():
                try:
                    yield Recipe.model_validate_json(line)
                except ValueError as error:
                    raise ValueError(f"{path}:{number}: {error}") from error


def write_catalog(path: Path, recipes: Iterable[Recipe]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for recipe in recipes:
            out.write(json.dumps(recipe.model_dump(), ensure_ascii=False) + "\n")
