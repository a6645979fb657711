"""How a resolved follow-up is written out: "Considering the A and the B, which is quicker?"."""

from __future__ import annotations

import re
from collections.abc import Sequence


def spoken(title: str) -> str:
    """The catalog's title, less a parenthesis in a script the search can't match ("Mapo Tofu (麻婆豆腐)")."""
    return re.sub(r"\s*\((?![^)]*[A-Za-z])[^)]*\)", "", title).strip() or title


def the(titles: Sequence[str]) -> str:
    """ "the A", "the A and the B", "the A, the B and the C"."""
    named = [f"the {spoken(t)}" for t in titles]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def finish(text: str, original: str) -> str:
    # "for the mains . which is best": what was taken out leaves no space before a stop.
    text = re.sub(r"\s+([.,;:!?])(?=\s|$)", r"\1", " ".join(text.split())).strip(" ,;:")
    # "lunchbox. Of the rest, which …" less "Of the rest": the stop stays, the comma goes.
    text = re.sub(r"([.!?])[,;:]+(?=\s|$)", r"\1", text)
    text = text[:1].upper() + text[1:]
    if original.rstrip().endswith("?") and not text.endswith("?"):
        text = text.rstrip(".!") + "?"
    return text


def lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    if first in ("I", "I'm", "I'd", "I've", "I'll") or (len(first) > 1 and first[1:2].isupper()):
        return text
    return text[:1].lower() + text[1:]


def considering(titles: Sequence[str], rest: str, original: str) -> str:
    return finish(f"Considering {the(titles)}, {lower_first(rest.strip(' ,;:'))}", original)
