#!/usr/bin/env bash
# Runs the whole test suite (tools/test.sh, with CI's settings: every task runs, none is
# replayed from Nx's cache) while one busy process per CPU competes with it, to show that no
# test depends on timing an idle machine gives. Stops the busy processes it started however
# the suite ends, and exits with the suite's status.
#
#   bash tools/test-under-load.sh            # one busy process per CPU
#   XZATOMA_LOAD_PROCESSES=4 bash tools/test-under-load.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
count="${XZATOMA_LOAD_PROCESSES:-$(nproc 2>/dev/null || echo 2)}"
[[ "$count" =~ ^[0-9]+$ ]] || {
  echo "test-under-load: XZATOMA_LOAD_PROCESSES must be a whole number, got '$count'" >&2
  exit 2
}
pids=()
stop_load() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap stop_load EXIT
for _ in $(seq 1 "$count"); do
  (exec yes >/dev/null) &
  pids+=("$!")
done
echo "test-under-load: $count busy processes started (${pids[*]})" >&2
status=0
CI="${CI:-true}" bash tools/test.sh || status=$?
exit "$status"
