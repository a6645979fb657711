"""How often the local model's answer is usable JSON, and how long it takes.

Run: .venv/bin/python bench/local_answers.py  (uses LOCAL_LLM_MODEL_PATH or the shipped SmolLM2)
Each question goes through the real retrieval and answer code; a reply that does not parse
gets the app's fallback (the matched recipes, no model wording).
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.answerer import answer
from app.services import build_services
from app.settings import Settings

QUESTIONS = [
    "What vegetarian recipes with mushrooms are available?",
    "Which soup is the quickest to cook?",
    "How long does the apple pie take?",
    "Is the coleslaw vegan?",
    "What can I make with chickpeas?",
    "How many people does the lasagna serve?",
    "Which recipes use salmon?",
    "How do I make pizza dough?",
]


async def main() -> None:
    settings = Settings()
    services = await build_services(settings)
    usable = 0
    print("| question | outcome | sources | seconds |")
    print("|---|---|---|---|")
    for question in QUESTIONS:
        started = time.perf_counter()
        reply = await answer(services.llm, services.retriever, question, [], settings)
        seconds = time.perf_counter() - started
        fell_back = reply.answer.startswith("Sorry, I couldn't put an answer together")
        usable += not fell_back
        outcome = "fallback: reply was not the JSON asked for" if fell_back else "answered"
        sources = ", ".join(s.id for s in reply.sources) or "–"
        print(f"| {question} | {outcome} | {sources} | {seconds:.1f} |")
    print(f"\n{usable} of {len(QUESTIONS)} answers were usable JSON.")


if __name__ == "__main__":
    asyncio.run(main())
