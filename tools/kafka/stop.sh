#!/usr/bin/env bash
# Stops the broker tools/kafka/start.sh started for the same KAFKA_PORT / KAFKA_WORK, by the
# pid it recorded, and returns once the process is gone. Its data stays (start resumes it).
#
#   bash tools/kafka/stop.sh           # SIGTERM (a clean shutdown), SIGKILL after KAFKA_STOP_TIMEOUT
#   bash tools/kafka/stop.sh --kill    # SIGKILL at once, as a crash would
#
# KAFKA_STOP_TIMEOUT: seconds to wait for a clean shutdown (default 60). Succeeds when no
# broker runs.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PORT="${KAFKA_PORT:-9092}"
WORK="${KAFKA_WORK:-$ROOT/.cache/kafka/run-$PORT}"
TIMEOUT="${KAFKA_STOP_TIMEOUT:-60}"

log() { printf 'kafka: %s\n' "$*" >&2; }

SIGNAL=TERM
for arg in "$@"; do
  case "$arg" in
    --kill) SIGNAL=KILL ;;
    *) log "unknown argument '$arg' (usage: stop.sh [--kill])"; exit 1 ;;
  esac
done

[ -f "$WORK/broker.pid" ] || exit 0
PID="$(cat "$WORK/broker.pid")"

# Running, or still exiting: a killed JVM's main thread turns zombie while its other threads
# are still tearing down (and holding the ports); it is gone once only that zombie is left.
alive() {
  kill -0 "$PID" 2>/dev/null || return 1
  if [ -r "/proc/$PID/stat" ]; then
    local state threads
    state="$(sed -e 's/^.*) //' "/proc/$PID/stat" | cut -d' ' -f1)"
    threads="$(ls "/proc/$PID/task" 2>/dev/null | wc -l)"
    if [ "$state" = Z ] && [ "$threads" -le 1 ]; then return 1; fi
  fi
  return 0
}

ours() {
  [ -r "/proc/$PID/cmdline" ] || return 0
  tr '\0' ' ' <"/proc/$PID/cmdline" | grep -q 'kafka\.Kafka'
}

if [ -n "$PID" ] && alive && ours; then
  kill "-$SIGNAL" "$PID" 2>/dev/null || true
  waited=0
  while alive; do
    if [ "$SIGNAL" = TERM ] && [ "$waited" -ge $((TIMEOUT * 10)) ]; then
      log "the broker (pid $PID) did not stop within ${TIMEOUT}s; killing it"
      SIGNAL=KILL
      kill -KILL "$PID" 2>/dev/null || true
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
fi
rm -f "$WORK/broker.pid"
