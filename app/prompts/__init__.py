"""Prompts live in files beside this module, so they can be read and reviewed as text."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent


@cache
def prompt(name: str) -> str:
    return (HERE / f"{name}.txt").read_text(encoding="utf-8").strip()


@cache
def examples(name: str) -> list[dict[str, Any]]:
    return json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
