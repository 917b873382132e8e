#!/usr/bin/env bash
# Sets everything up, builds XZatoma and runs it. With no arguments it asks the agent to
# describe this repository; any arguments are passed to `xzatoma` instead:
#
#   bash tools/start.sh
#   bash tools/start.sh run --prompt "List the packages" --model qwen2.5:7b
#
# The agent talks to Ollama (OLLAMA_HOST, default http://localhost:11434); when none is
# running it says so in one line and exits 1.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source tools/toolchain/env.sh
source tools/toolchain/system-packages.sh
pnpm install --reporter=silent </dev/null
nx run @xzatoma/cli:build --output-style=static >/dev/null </dev/null || {
  echo "xzatoma-setup: the build failed; run 'bash tools/test.sh' to see why" >&2
  exit 1
}
if [ "$#" -eq 0 ]; then
  set -- run --prompt "Read README.md and describe this repository in three sentences."
fi
exec node apps/cli/bin/xzatoma.js "$@"
