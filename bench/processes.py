"""Start the benchmark's servers as subprocesses, wait for them, and read their memory and the
machine they run on."""

from __future__ import annotations

import os
import platform
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def machine() -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "python": platform.python_version(),
        "os": f"{platform.system()} {platform.release()}",
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def app_env(fake_url: str, db_path: Path, response_format: str) -> dict[str, str]:
    return {
        "OPENAI_BASE_URL": f"{fake_url}/v1",
        "OPENAI_API_KEY": "bench",
        "OPENAI_CHAT_MODEL": "fake-gpt",
        "LLM_RESPONSE_FORMAT": response_format,
        "LOCAL_DB_PATH": str(db_path),
        # Embeddings stay local, with WordLlama: these benches measure the back end around the
        # model (their figures were taken with it), and the fake model's fixed answer holds
        # words the answer guard reads as recipes unless WordLlama's retrieval returns them.
        "LOCAL_EMBEDDER": "wordllama",
        "OPENAI_EMBEDDING_MODEL": "",
        "AZURE_OPENAI_ENDPOINT": "",
        "AZURE_SEARCH_ENDPOINT": "",
        "AZURE_COSMOS_ENDPOINT": "",
        "PYTHONDONTWRITEBYTECODE": "",
    }


def start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    # Logs go to a file, never to a pipe: a pipe nobody reads fills up and stalls the server.
    with log.open("ab") as out:
        return subprocess.Popen([PYTHON, *args], cwd=ROOT, env=os.environ | env, stdout=out, stderr=out)


def wait_listening(port: int, process: subprocess.Popen[bytes], timeout: float = 120.0) -> float:
    """Seconds until `port` accepts connections; fails early if the process died."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args!r} exited with {process.returncode}; see its log")
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
