#!/usr/bin/env bash
# Sets everything up and runs the whole test suite: lint (import direction included),
# typecheck, build, package checks (publint, arethetypeswrong) and every test, through
# Nx with caching. Idempotent; a second run with nothing changed takes seconds.
#
#   bash tools/test.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source tools/toolchain/env.sh
# buildah and debootstrap: the watcher image's test builds it (deploy/watcher/build-image.sh).
bash tools/toolchain/system-packages.sh tmux gnome-keyring dbus-daemon chromium buildah debootstrap
# The models the tests run, each downloaded once into .cache/models/ and verified:
# SmolLM2-135M (98 MB), the small model every real-model test runs, and the default
# embedded model (Qwen2.5-Coder 1.5B, 1.1 GB), which the three tests of the setup's model
# step install or load as the setup does.
bash tools/models/fetch-smollm2.sh >/dev/null
bash tools/models/fetch-model.sh qwen2.5-coder-1.5b >/dev/null
bash tools/kafka/start.sh --fetch-only >/dev/null # the Kafka broker the Kafka tests start (jars through Maven, once, into .cache/)

if [ -n "${CI:-}" ]; then
  pnpm install --frozen-lockfile --reporter=append-only </dev/null
else
  pnpm install --reporter=silent </dev/null
fi

# Stale reports must not count: each test target writes (or restores) its own.
rm -rf packages/*/reports apps/*/reports tools/*/reports

# In CI every task runs: results replayed from Nx's machine-wide cache would hide a test
# that fails only on a fresh clone or a busy machine.
nx_flags=(--output-style=stream-without-prefixes)
[ -n "${CI:-}" ] && nx_flags+=(--skip-nx-cache)

status=0
prettier --check . --log-level warn || status=$?
nx run-many -t lint typecheck build check-package test "${nx_flags[@]}" </dev/null || status=$?
node tools/test-summary.ts || status=$((status == 0 ? 1 : status))
exit "$status"
