#!/usr/bin/env bash
# The watcher end to end in one command: starts a Kafka broker on 127.0.0.1, starts
# `xzatoma-watcher run` on a scripted model (or, with --local, on the embedded SmolLM2 model),
# publishes the seed XZepr events (two plans and one system event the filters skip), prints
# the result events and the files the plans wrote, then stops what it started.
#
#   bash tools/watcher-demo.sh            # scripted model: answers at once, uses two tools
#   bash tools/watcher-demo.sh --local    # the embedded model, in-process (slow: minutes)
#   bash tools/watcher-demo.sh --keep     # leave the broker running and the demo directory
#                                         # (else both, and the broker's data, are removed)
#
# Environment: KAFKA_PORT (default 19092, so a Kafka of your own on 9092 is left alone);
# XZATOMA_DEMO_TIMEOUT seconds to wait for the results (default 300, 1200 with --local).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"

MODEL=scripted
KEEP=""
for arg in "$@"; do
  case "$arg" in
    --local) MODEL=local ;;
    --keep) KEEP=1 ;;
    -h | --help)
      sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      printf 'watcher-demo: unknown argument %s (usage: watcher-demo.sh [--local] [--keep])\n' "$arg" >&2
      exit 2
      ;;
  esac
done

say() { printf '\n\033[1m== %s\033[0m\n' "$*" >&2; }
die() {
  printf 'watcher-demo: %s\n' "$*" >&2
  exit 1
}

source tools/toolchain/env.sh
# XZATOMA_DEMO_BUILT=1 skips the setup when the checkout is installed and built already (the
# test suite runs the demo that way, beside other tests that use the built files).
if [ -z "${XZATOMA_DEMO_BUILT:-}" ]; then
  bash tools/toolchain/system-packages.sh
  say "setting up (dependencies, build)"
  pnpm install --reporter=silent </dev/null
  nx run xzatoma-watcher:build --output-style=static >/dev/null </dev/null ||
    die "the build failed; run 'bash tools/test.sh' to see why"
fi

export KAFKA_PORT="${KAFKA_PORT:-19092}"
export KAFKA_WORK="$ROOT/.cache/kafka/demo-$KAFKA_PORT"
DEMO="$(mktemp -d "${TMPDIR:-/tmp}/xzatoma-watcher-demo.XXXXXX")"
RUN="$(date +%s)-$$"
WATCHER_PID=""
MODEL_PID=""
cleanup() {
  local status=$?
  if [ -n "$WATCHER_PID" ] && kill -0 "$WATCHER_PID" 2>/dev/null; then
    kill -TERM "$WATCHER_PID" 2>/dev/null || true
    wait "$WATCHER_PID" 2>/dev/null || true
  fi
  if [ -n "$MODEL_PID" ]; then kill -TERM "$MODEL_PID" 2>/dev/null || true; fi
  if [ -n "$KEEP" ]; then
    printf '\nwatcher-demo: kept the broker (%s; stop it with KAFKA_PORT=%s KAFKA_WORK=%s bash tools/kafka/stop.sh) and %s\n' \
      "${BOOTSTRAP:-}" "$KAFKA_PORT" "$KAFKA_WORK" "$DEMO" >&2
  else
    bash tools/kafka/stop.sh >/dev/null 2>&1 || true
    rm -rf "$DEMO"
    # The broker's data goes too, unless the demo failed: then its log may say why.
    if [ "$status" -eq 0 ]; then
      rm -rf "$KAFKA_WORK"
    else
      printf 'watcher-demo: the broker'"'"'s log is in %s/broker.log\n' "$KAFKA_WORK" >&2
    fi
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "starting a Kafka broker on 127.0.0.1:$KAFKA_PORT (the first run downloads its jars)"
BOOTSTRAP="$(bash tools/kafka/start.sh | tail -n 1)"
printf 'broker: %s\n' "$BOOTSTRAP" >&2

mkdir -p "$DEMO/config" "$DEMO/workspace" "$DEMO/data"
CONFIG="$DEMO/config/watcher.yaml"
TIMEOUT="${XZATOMA_DEMO_TIMEOUT:-300}"
if [ "$MODEL" = local ]; then
  TIMEOUT="${XZATOMA_DEMO_TIMEOUT:-1200}"
  MODEL_FILE="$(bash tools/models/fetch-smollm2.sh | tail -n 1)"
  PROVIDER="provider:
  type: local
  local:
    model_path: \"$MODEL_FILE\""
else
  say "starting a scripted model on 127.0.0.1 (it runs an echo, writes a report, answers)"
  node tools/scripted-servers/openai-server.ts --scenario plan-report >"$DEMO/model.json" &
  MODEL_PID=$!
  for _ in $(seq 1 100); do
    [ -s "$DEMO/model.json" ] && break
    kill -0 "$MODEL_PID" 2>/dev/null || die "the scripted model did not start"
    sleep 0.1
  done
  MODEL_URL="$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).url)' "$DEMO/model.json")"
  export OPENAI_API_KEY=scripted
  PROVIDER="provider:
  type: openai
  openai:
    base_url: \"$MODEL_URL\"
    model: scripted"
fi

# The configuration a platform team would write: the CLI's keys plus a watcher section.
# Topics are new for each demo run, so results of an earlier run are never shown again.
cat >"$CONFIG" <<EOF
$PROVIDER
agent:
  terminal:
    default_mode: restricted_autonomous
persistence:
  data_dir: "$DEMO/data"
watcher:
  watcher_type: xzepr
  kafka:
    brokers: "$BOOTSTRAP"
    topic: "xzatoma-demo-$RUN.events"
    group_id: "xzatoma-demo-$RUN"
  filters:
    event_types: [build.success, deployment.success]
    success_only: true
  execution:
    execution_timeout_secs: $TIMEOUT
  logging:
    level: debug
EOF
printf 'configuration: %s\n' "$CONFIG" >&2
sed 's/^/  /' "$CONFIG" >&2

say "starting xzatoma-watcher run"
WATCHER=(node apps/watcher/bin/xzatoma-watcher.js)
"${WATCHER[@]}" run --config "$CONFIG" --workspace "$DEMO/workspace" >"$DEMO/watcher.log" 2>&1 &
WATCHER_PID=$!
for _ in $(seq 1 1200); do
  grep -q '"msg":"watching"' "$DEMO/watcher.log" 2>/dev/null && break
  kill -0 "$WATCHER_PID" 2>/dev/null || {
    cat "$DEMO/watcher.log" >&2
    die "the watcher stopped before it consumed (its log is above)"
  }
  sleep 0.1
done
grep -q '"msg":"watching"' "$DEMO/watcher.log" || die "the watcher did not start within two minutes"
printf 'watching %s (log: %s)\n' "xzatoma-demo-$RUN.events" "$DEMO/watcher.log" >&2

say "publishing the seed events"
FIXTURES=packages/xzepr/src/__fixtures__
"${WATCHER[@]}" publish --config "$CONFIG" \
  "$FIXTURES/build_success_event.json" "$FIXTURES/deploy_success_event.json" \
  "$FIXTURES/receiver_created_event.json"

say "result events on xzatoma-demo-$RUN.events.results (waiting up to $TIMEOUT s)"
"${WATCHER[@]}" results --config "$CONFIG" --count 2 --timeout "$TIMEOUT" || {
  printf '\nthe watcher log:\n' >&2
  cat "$DEMO/watcher.log" >&2
  die "the results did not all arrive"
}

say "what the watcher logged about each event"
node -e '
  const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n");
  for (const line of lines) {
    let entry;
    try { entry = JSON.parse(line); } catch { continue; }
    if (!/^(skipped|filtered|running the plan|the plan|dead-lettered|the event carries)/.test(String(entry.msg))) continue;
    const { time, level, msg, ...fields } = entry;
    console.log(`${msg}: ${Object.entries(fields).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`).join(" ")}`);
  }' "$DEMO/watcher.log"

say "files the plans wrote in the workspace"
(cd "$DEMO/workspace" && find . -type f -not -path './.git/*' | sort | while read -r file; do
  printf -- '--- %s\n' "$file"
  cat "$file"
done)
say "done"
