#!/usr/bin/env bash
# Runs every benchmark against the built CLI and prints the numbers.
#   bash bench/run.sh [cold-start|first-request|loop-overhead|install-size ...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source tools/toolchain/env.sh
bash tools/toolchain/system-packages.sh ripgrep
pnpm install --reporter=silent </dev/null
nx run-many -t build --output-style=static >/dev/null </dev/null
benches=("$@")
[ "${#benches[@]}" -gt 0 ] || benches=(cold-start first-request chat-start loop-overhead history-cli install-size command-policy file-search conversation providers local-model history command-run sandbox redaction subagents telemetry)
for bench in "${benches[@]}"; do
  node "bench/$bench.ts"
  echo
done
