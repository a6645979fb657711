#!/usr/bin/env bash
# Start the app on the embedded defaults: the local Functions host on :7071 and the Static Web
# Apps CLI on :4280 in front of it (the page, plus /api proxied to the host).
# Each runs in its own process group, because the SWA CLI leaves its server child running
# when only the CLI itself is killed.
set -euo pipefail
cd "$(dirname "$0")/.."

API_PORT=${API_PORT:-7071}
WEB_PORT=${WEB_PORT:-4280}
pids=()
stop() {
  for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
}
trap stop EXIT INT TERM

setsid .venv/bin/python local_host.py --port "$API_PORT" &
pids+=($!)
setsid node_modules/.bin/swa start web --swa-config-location . \
  --api-devserver-url "http://127.0.0.1:$API_PORT" --host 127.0.0.1 --port "$WEB_PORT" &
pids+=($!)
echo "recipe-chat: http://localhost:$WEB_PORT (API host on :$API_PORT). Ctrl+C stops both."
wait -n
