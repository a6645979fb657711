"""The load test's short form (bench/load.py, `make load` for the full one): 50 clients at once
against the local host, served over loopback with a fake upstream model, lose nothing, keep
memory flat and leave no connection open."""

from __future__ import annotations

from pathlib import Path

from bench.load import MEMORY_GROWTH_LIMIT_MB, MIX, run_load


def test_fifty_clients_at_once_lose_no_request_and_leave_no_connection_open(tmp_path: Path):
    result = run_load(requests=600, clients=50, work=tmp_path)

    assert result.failures == []
    assert all(len(result.latencies[kind.name]) == 600 // len(MIX) for kind in MIX)
    assert result.peak_clients == 50  # the clients really were at it together
    assert result.after.clients == 0, result.after.states
    assert result.memory_growth_mb <= MEMORY_GROWTH_LIMIT_MB, result.rss_mb
    assert result.problems() == []
