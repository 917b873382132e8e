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
bash tools/toolchain/system-packages.sh
pnpm install --reporter=silent </dev/null
nx run @xzatoma/cli:build --output-style=static >/dev/null </dev/null || {
  echo "xzatoma-setup: the build failed; run 'bash tools/test.sh' to see why" >&2
  exit 1
}
# The embedded model goes where the local provider looks when provider.local.model_path is
# not set: <data dir>/models/, the data directory as the configuration resolves it (XZATOMA_HOME,
# persistence.data_dir, ~/.xzatoma). Then `xzatoma run --provider local` finds it anywhere.
XZ_DATA_DIR="$(node apps/cli/bin/xzatoma.js config show --json </dev/null |
  node -e 'let t = ""; process.stdin.on("data", (d) => (t += d)).on("end", () => process.stdout.write(JSON.parse(t).config.persistence.data_dir));')"
bash tools/models/fetch-smollm2.sh --install "$XZ_DATA_DIR/models" >/dev/null
if [ "$#" -eq 0 ]; then
  set -- run --provider local --prompt "In two sentences: what is XZatoma? Use @README.md#L1-12."
fi
exec node apps/cli/bin/xzatoma.js "$@"
