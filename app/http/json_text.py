"""JSON as the standard defines it, read with reasons a caller can act on.

Python's reader takes NaN, Infinity and numbers past a double's range (as inf), which no
browser reads back, and its errors name its internals ("maximum recursion depth exceeded",
"use sys.set_int_max_str_digits()"). This reader refuses the first and words the second.
"""

from __future__ import annotations

import json
import math
from typing import Any

# Python's own limit on reading a long integer (sys.get_int_max_str_digits()).
MAX_INT_DIGITS = 4300


class NotJson(ValueError):
    """A body the app will not read as JSON, with a message for the caller."""


def finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise NotJson(f"it holds the number {text[:20]}, which is too large for JSON's numbers")
    return number


def not_a_number(text: str) -> Any:
    raise NotJson(f"it holds {text}, which is not a number in JSON")


def bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise NotJson(f"it holds a number of more than {MAX_INT_DIGITS} digits")
    return int(text)


def parse_json(text: str) -> Any:
    """JSON as the standard defines it: no NaN or Infinity (which no browser parses back), no
    number too large for a double; the reason a body is refused, in words for the caller.
    Raises NotJson."""
    try:
        return json.loads(text, parse_float=finite, parse_int=bounded_int, parse_constant=not_a_number)
    except NotJson:
        raise
    except json.JSONDecodeError as error:
        raise NotJson(f"{error.msg} at line {error.lineno}, column {error.colno}") from None
    except RecursionError:
        raise NotJson("it is nested too deeply") from None
    except ValueError:
        raise NotJson("it could not be read") from None
