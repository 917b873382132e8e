#!/usr/bin/env bash
# Sets everything up, builds XZatoma and runs it. With no arguments it asks the agent,
# running the embedded SmolLM2 model in-process (no server needed), to describe this
# repository; any arguments are passed to `xzatoma` instead:
#
#   bash tools/start.sh
#   bash tools/start.sh chat --provider ollama --model qwen2.5:7b
#   bash tools/start.sh run --prompt "List the packages" --provider ollama
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source tools/toolchain/env.sh
source tools/toolchain/system-packages.sh
pnpm install --reporter=silent </dev/null
XZATOMA_PROVIDER_LOCAL_MODEL_PATH="${XZATOMA_PROVIDER_LOCAL_MODEL_PATH:-$(bash tools/models/fetch-smollm2.sh)}"
export XZATOMA_PROVIDER_LOCAL_MODEL_PATH
nx run @xzatoma/cli:build --output-style=static >/dev/null </dev/null || {
  echo "xzatoma-setup: the build failed; run 'bash tools/test.sh' to see why" >&2
  exit 1
}
if [ "$#" -eq 0 ]; then
  set -- run --provider local --prompt "In two sentences: what is XZatoma? Use @README.md#L1-12."
fi
exec node apps/cli/bin/xzatoma.js "$@"
