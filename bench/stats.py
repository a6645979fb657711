"""Median and p95 of a sample, as the benchmark reports them."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def p95(values: Sequence[float]) -> float:
    """The nearest-rank 95th percentile: a value that was really measured."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
