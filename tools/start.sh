#!/usr/bin/env bash
# Sets everything up, builds XZatoma and runs it. Each setup step says what it does and how
# long it took (a step that runs long counts its seconds); its output goes to
# .cache/setup/<step>.log, and the end of that log is shown when it fails. With no
# arguments it then runs tools/start-demo.sh: xzatoma calls a tool for a scripted model
# server, shows the result, and the answer is read from it, in about a second. Any
# arguments are passed to `xzatoma` instead:
#
#   bash tools/start.sh
#   bash tools/start.sh chat --provider ollama --model qwen2.5:7b
#   bash tools/start.sh run --prompt "List the packages" --provider ollama
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
XZ_SETUP_STARTED=$SECONDS
XZ_SETUP_LOGS=.cache/setup
mkdir -p "$XZ_SETUP_LOGS"

xz_say() { printf 'xzatoma-setup: %s\n' "$*" >&2; }

# xz_step LABEL LOG COMMAND...: runs COMMAND with its output in .cache/setup/LOG.log and
# standard input closed. On a terminal the step's line counts the seconds; elsewhere (a
# pipe, CI) a line every 30 seconds says it is still working.
xz_step() {
  local label="$1" log="$XZ_SETUP_LOGS/$2.log" started=$SECONDS pid status=0 shown=-1 next=30
  shift 2
  [ -t 2 ] || xz_say "$label ..."
  "$@" >"$log" 2>&1 </dev/null &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    if [ -t 2 ] && [ "$shown" -ne $((SECONDS - started)) ]; then
      shown=$((SECONDS - started))
      printf '\r\033[2Kxzatoma-setup: %s ... %d s' "$label" "$shown" >&2
    elif [ ! -t 2 ] && [ $((SECONDS - started)) -ge "$next" ]; then
      xz_say "$label: still working ($((SECONDS - started)) s)"
      next=$((next + 30))
    fi
    sleep 0.2
  done
  wait "$pid" || status=$?
  if [ -t 2 ]; then printf '\r\033[2K' >&2; fi
  if [ "$status" -ne 0 ]; then
    xz_say "$label failed after $((SECONDS - started)) s (exit $status); the end of $log:"
    tail -n 25 "$log" >&2
    return "$status"
  fi
  xz_say "$label: done in $((SECONDS - started)) s"
}

xz_say "Node and pnpm (installed into .toolchain/ when your Node is older than 22.19) ..."
source tools/toolchain/env.sh
bash tools/toolchain/system-packages.sh
xz_step "dependencies (pnpm install)" install pnpm install --reporter=append-only
xz_step "building the xzatoma command (minutes the first time, seconds after)" build \
  nx run @xzatoma/cli:build --output-style=static || {
  xz_say "the build failed; 'bash tools/test.sh' shows more"
  exit 1
}
# The embedded model goes where the local provider looks when provider.local.model_path is
# not set: <data dir>/models/, the data directory as the configuration resolves it (XZATOMA_HOME,
# persistence.data_dir, ~/.xzatoma). Then `xzatoma run --provider local` finds it anywhere.
XZ_DATA_DIR="$(node apps/cli/bin/xzatoma.js config show --json </dev/null |
  node -e 'let t = ""; process.stdin.on("data", (d) => (t += d)).on("end", () => process.stdout.write(JSON.parse(t).config.persistence.data_dir));')"
# The default embedded model, Qwen2.5-Coder-1.5B-Instruct (DEFAULT_LOCAL_MODEL_FILE in
# packages/providers/src/local/model-path.ts), is the small model that did the most of the
# agentic tasks measured in docs/reference/local-models.md.
xz_step "the embedded model Qwen2.5-Coder 1.5B (1.1 GB, downloaded once)" model \
  bash tools/models/fetch-model.sh qwen2.5-coder-1.5b --install "$XZ_DATA_DIR/models"
xz_say "ready in $((SECONDS - XZ_SETUP_STARTED)) s"
# Without arguments, the demo: a tool call, its result and an answer read from it.
if [ "$#" -eq 0 ]; then exec bash tools/start-demo.sh; fi
exec node apps/cli/bin/xzatoma.js "$@"
