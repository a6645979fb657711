"""Start the benchmark's servers as subprocesses, wait for them, and read their memory."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    # Logs go to a file, never to a pipe: a pipe nobody reads fills up and stalls the server.
    with log.open("ab") as out:
        return subprocess.Popen([PYTHON, *args], cwd=ROOT, env=os.environ | env, stdout=out, stderr=out)


def wait_listening(port: int, process: subprocess.Popen[bytes], timeout: float = 120.0) -> float:
    """Seconds until `port` accepts connections; fails early if the process died."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args} exited with {process.returncode}; see its log")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return time.perf_counter() - start
        except OSError:
            time.sleep(0.01)
    raise TimeoutError(f"nothing listened on port {port} after {timeout} s")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def memory_mb(pid: int) -> tuple[float, float]:
    """Resident memory now and at its peak (VmRSS, VmHWM), in MB, from /proc."""
    fields: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) / 1024
    return fields.get("VmRSS", 0.0), fields.get("VmHWM", 0.0)


def fake_records(client: httpx.Client, fake_url: str) -> list[dict[str, object]]:
    """The upstream's records since the last call, which empties them."""
    return client.get(f"{fake_url}/_bench/records", params={"clear": 1}).json()


def configure_fake(client: httpx.Client, fake_url: str, **latency: float) -> None:
    client.post(f"{fake_url}/_bench/config", json=latency).raise_for_status()
