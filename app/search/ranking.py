"""Reciprocal rank fusion, the way Azure AI Search fuses the rankings of a hybrid query."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

RRF_K = 60


def reciprocal_rank_fusion(
    rankings: Iterable[Sequence[str]], k: int = RRF_K, weights: Sequence[float] = ()
) -> list[tuple[str, float]]:
    """Fuse best-first rankings of ids: each id scores the sum of weight / (k + rank), rank
    from 1, each ranking's weight 1 unless `weights` says otherwise (as Azure AI Search weighs
    a vector query against the text query).

    Ties keep the order in which ids were first seen, so the result is deterministic.
    """
    scores: dict[str, float] = {}
    for n, ranking in enumerate(rankings):
        weight = weights[n] if n < len(weights) else 1.0
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda pair: pair[1], reverse=True)
