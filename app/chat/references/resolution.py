"""What a follow-up was resolved to: the standalone question and what grounds it."""

from __future__ import annotations

from dataclasses import dataclass, field

# The rules that resolve what a follow-up points at among the conversation's recipes.
REFERRING = ("exclusion", "ordinal", "description", "focus", "set", "name")


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
