"""The conversations and request bodies both pipelines are sent: the same questions for all."""

from __future__ import annotations

from typing import Any

# A recipe chat as users have it: questions about dishes, answers of a few sentences.
QUESTIONS = [
    "I want something vegetarian for dinner",
    "What can I make with mushrooms?",
    "From those, which is the quickest to cook?",
    "Which soup is the quickest to cook?",
    "How long does the apple pie take?",
    "What can I make with chickpeas?",
    "Is there a pasta dish without meat?",
    "How many people does the lasagna serve?",
    "Which recipes use salmon?",
    "How do I make pizza dough?",
]
ANSWER = (
    "I can recommend the Mushroom Risotto, the Falafel and the Shakshuka. The risotto takes about "
    "forty minutes, the falafel needs the chickpeas soaked overnight, and the shakshuka is done in "
    "twenty-five minutes in one pan."
)


def conversation(turn: int) -> list[dict[str, str]]:
    """The `turn`-th user message with the `turn - 1` exchanges before it, as chat messages."""
    messages: list[dict[str, str]] = []
    for n in range(turn - 1):
        messages.append({"role": "user", "content": QUESTIONS[n % len(QUESTIONS)]})
        messages.append({"role": "assistant", "content": ANSWER})
    messages.append({"role": "user", "content": QUESTIONS[(turn - 1) % len(QUESTIONS)]})
    return messages


def app_body(turn: int) -> dict[str, Any]:
    """The app's own body: `/api/chat/reformulate` and `/api/chat` take the same one."""
    messages = conversation(turn)
    return {"userMessage": messages[-1]["content"], "conversation": messages[:-1]}


def protocol_body(turn: int, *, stream: bool = False) -> dict[str, Any]:
    return {"messages": conversation(turn), "stream": stream}
