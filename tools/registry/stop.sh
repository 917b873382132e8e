#!/usr/bin/env bash
# Stops the registry tools/registry/start.sh started for the same REGISTRY_PORT /
# REGISTRY_WORK, by the pid it recorded, and returns once the process is gone. Its storage
# stays (start serves it again). Succeeds when no server runs.
#
#   bash tools/registry/stop.sh
#
# REGISTRY_STOP_TIMEOUT: seconds to wait after SIGTERM before SIGKILL (default 20).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PORT="${REGISTRY_PORT:-4873}"
WORK="${REGISTRY_WORK:-$ROOT/.cache/registry/run-$PORT}"
TIMEOUT="${REGISTRY_STOP_TIMEOUT:-20}"

[ -f "$WORK/server.pid" ] || exit 0
PID="$(cat "$WORK/server.pid")"

ours() {
  [ -r "/proc/$PID/cmdline" ] || return 0
  tr '\0' ' ' <"/proc/$PID/cmdline" | grep -q 'registry/server\.mjs'
}

if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null && ours; then
  kill -TERM "$PID" 2>/dev/null || true
  waited=0
  while kill -0 "$PID" 2>/dev/null; do
    if [ "$waited" -ge $((TIMEOUT * 10)) ]; then
      printf 'registry: the server (pid %s) did not stop within %ss; killing it\n' "$PID" "$TIMEOUT" >&2
      kill -KILL "$PID" 2>/dev/null || true
      break
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
fi
rm -f "$WORK/server.pid"
